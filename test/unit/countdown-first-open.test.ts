/**
 * Evergreen timers' starts (docs/adr/0058-countdown-timers.md "Countdown timers"): a start value
 * without an offset is a wall time in the sticker's zone, unreadable ones count from now; a timer
 * that counts from the first open keeps one instant per design and recipient, written once, keyed
 * by a hash of the recipient's values.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  CountdownSchema,
  countdownEnd,
  countdownStartInstant,
  zonedInstant,
} from '#shared/scene/countdown.ts';
import { FIRST_OPEN_VALUE, timerKeyValues } from '#functions/render/countdown-gif.ts';
import {
  FIRST_OPEN_KEEP_S,
  KNOWN_OPEN_MS,
  MAX_KNOWN_OPENS,
  firstOpenAt,
  recipientHash,
  type FirstOpenStore,
} from '#functions/render/first-open.ts';
import { restoreDesign } from '#shared/design.ts';

describe('evergreen start values', () => {
  it('reads a value without an offset in the sticker time zone, and one with an offset as is', () => {
    expect(countdownStartInstant('2026-11-24T10:00', 'Europe/Paris')).toBe(
      Date.parse('2026-11-24T09:00:00Z'),
    );
    expect(countdownStartInstant(' 2026-11-24T10:00:30 ', 'America/New_York')).toBe(
      Date.parse('2026-11-24T15:00:30Z'),
    );
    expect(countdownStartInstant('2026-11-24', 'Europe/Paris')).toBe(
      zonedInstant('2026-11-24T00:00', 'Europe/Paris'),
    );
    expect(countdownStartInstant('2026-11-24T10:00:00Z', 'Europe/Paris')).toBe(
      Date.parse('2026-11-24T10:00:00Z'),
    );
    expect(countdownStartInstant('2026-11-24T10:00:00.250+02:00', 'UTC')).toBe(
      Date.parse('2026-11-24T08:00:00.250Z'),
    );
  });

  it('refuses values that name no instant', () => {
    for (const value of [
      '',
      'tomorrow',
      'Nov 24 2026',
      '2026-02-30T10:00',
      '2026-11-24T25:00Z',
      '1764000000000',
    ])
      expect(countdownStartInstant(value, 'UTC'), value).toBeUndefined();
  });

  it('counts an unreadable start from now, a zone-less one from the wall time in the zone', () => {
    const countdown = CountdownSchema.parse({
      mode: 'evergreen',
      durationSeconds: 3600,
      timeZone: 'Europe/Paris',
    });
    const now = Date.parse('2026-11-24T09:30:00Z');
    expect(countdownEnd(countdown, now, 'soon')).toBe(now + 3_600_000);
    // 10:00 in Paris is 09:00 UTC: half an hour left.
    expect(countdownEnd(countdown, now, '2026-11-24T10:00')).toBe(now + 1_800_000);
  });

  it('keeps documents saved before the start choice reading their parameter', () => {
    const countdown = CountdownSchema.parse({ mode: 'evergreen' });
    expect(countdown.start).toBeUndefined();
    expect(CountdownSchema.parse({ mode: 'evergreen', start: 'first_open' }).start).toBe(
      'first_open',
    );
    expect(CountdownSchema.safeParse({ start: 'later' }).success).toBe(false);
  });
});

/** A store in memory that counts its reads and writes; `race` makes the first create lose to another. */
function memoryStore(race?: number) {
  const items = new Map<string, { openedAt: number; ttl: number }>();
  const store: FirstOpenStore & { creates: number; gets: number } = {
    creates: 0,
    gets: 0,
    async get(designId, recipient) {
      store.gets++;
      return items.get(`${designId}/${recipient}`)?.openedAt;
    },
    async create(designId, recipient, openedAt, ttl) {
      store.creates++;
      const key = `${designId}/${recipient}`;
      if (race !== undefined && !items.has(key)) items.set(key, { openedAt: race, ttl });
      if (items.has(key)) return false;
      items.set(key, { openedAt, ttl });
      return true;
    },
  };
  return { store, items };
}

describe('first opens', () => {
  const a: Array<[string, string]> = [['first_name', 'Ana']];
  const b: Array<[string, string]> = [['first_name', 'Bo']];

  it('keeps the first instant per design and recipient, with a TTL past the timer', async () => {
    const { store, items } = memoryStore();
    const t0 = Date.parse('2026-11-24T10:00:00Z');
    expect(await firstOpenAt(store, 'd1', a, t0, 3600)).toBe(t0);
    expect(await firstOpenAt(store, 'd1', a, t0 + 10_000, 3600)).toBe(t0);
    expect(await firstOpenAt(store, 'd1', b, t0 + 10_000, 3600)).toBe(t0 + 10_000);
    expect(await firstOpenAt(store, 'd2', a, t0 + 20_000, 3600)).toBe(t0 + 20_000);
    expect(store.creates).toBe(3);
    const item = items.get(`d1/${recipientHash(a)}`)!;
    expect(item.ttl).toBe(t0 / 1000 + 3600 + FIRST_OPEN_KEEP_S);
  });

  it('takes the instant of a concurrent open that wrote first', async () => {
    const { store } = memoryStore(123_000);
    expect(await firstOpenAt(store, 'd1', a, 456_000, 60)).toBe(123_000);
  });

  it("remembers a recipient's first open in the instance, for a while and for a bounded number", async () => {
    const { store } = memoryStore();
    const t0 = Date.parse('2026-11-24T10:00:00Z');
    expect(await firstOpenAt(store, 'd1', a, t0, 3600)).toBe(t0);
    const reads = store.gets;
    // Later opens of the same recipient: the same instant, without asking the store.
    expect(await firstOpenAt(store, 'd1', a, t0 + 5000, 3600)).toBe(t0);
    expect(await firstOpenAt(store, 'd1', a, t0 + 9000, 3600)).toBe(t0);
    expect(store.gets).toBe(reads);
    // Past the item's TTL (the timer and 30 days), the store is asked again.
    await firstOpenAt(store, 'd1', a, t0 + (3600 + FIRST_OPEN_KEEP_S) * 1000 + 1, 3600);
    expect(store.gets).toBe(reads + 1);
    // Past the bound, the oldest is forgotten (and read from the store again).
    for (let i = 0; i < MAX_KNOWN_OPENS; i++)
      await firstOpenAt(store, 'd1', [['first_name', `R${i}`]], t0, 3600);
    const before = store.gets;
    expect(await firstOpenAt(store, 'd1', a, t0 + 9000, 3600)).toBe(t0);
    expect(store.gets).toBe(before + 1);
    // Another store keeps its own.
    const other = memoryStore(42_000);
    expect(await firstOpenAt(other.store, 'd1', a, t0, 3600)).toBe(42_000);
  });

  it('asks the store again after the instance has remembered an open for 10 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { store } = memoryStore();
      const t0 = Date.parse('2026-11-24T10:00:00Z');
      vi.setSystemTime(t0);
      expect(await firstOpenAt(store, 'd1', a, t0, 3600)).toBe(t0);
      const reads = store.gets;
      // A read does not extend the 10 minutes.
      vi.setSystemTime(t0 + KNOWN_OPEN_MS);
      expect(await firstOpenAt(store, 'd1', a, t0 + KNOWN_OPEN_MS, 3600)).toBe(t0);
      expect(store.gets).toBe(reads);
      vi.setSystemTime(t0 + KNOWN_OPEN_MS + 1);
      expect(await firstOpenAt(store, 'd1', a, t0 + KNOWN_OPEN_MS + 1, 3600)).toBe(t0);
      expect(store.gets).toBe(reads + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets the least recently used first open past the bound, not a recently read one', async () => {
    const { store } = memoryStore();
    const t0 = Date.parse('2026-11-24T10:00:00Z');
    await firstOpenAt(store, 'd1', a, t0, 3600);
    await firstOpenAt(store, 'd1', b, t0, 3600);
    for (let i = 2; i < MAX_KNOWN_OPENS; i++)
      await firstOpenAt(store, 'd1', [['first_name', `R${i}`]], t0, 3600);
    // Full: reading `a` makes `b` the least recently used, which the next recipient pushes out.
    const reads = store.gets;
    await firstOpenAt(store, 'd1', a, t0, 3600);
    await firstOpenAt(store, 'd1', [['first_name', 'Cy']], t0, 3600);
    expect(store.gets).toBe(reads + 1);
    await firstOpenAt(store, 'd1', a, t0, 3600);
    expect(store.gets).toBe(reads + 1);
    await firstOpenAt(store, 'd1', b, t0, 3600);
    expect(store.gets).toBe(reads + 2);
  });

  it('remembers nothing when the store fails', async () => {
    let gets = 0;
    const broken: FirstOpenStore = {
      get: () => {
        gets++;
        return Promise.reject(new Error('store down'));
      },
      create: () => Promise.resolve(true),
    };
    await expect(firstOpenAt(broken, 'd1', a, 1000, 60)).rejects.toThrow('store down');
    await expect(firstOpenAt(broken, 'd1', a, 2000, 60)).rejects.toThrow('store down');
    expect(gets).toBe(2);
  });

  it('keys recipients by a hash of their values, never the values', () => {
    const hash = recipientHash([['email', 'ana@example.com']]);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('ana');
    expect(recipientHash([['email', 'bo@example.com']])).not.toBe(hash);
    // The render's own values (NUL-named) are not the recipient's.
    expect(
      recipientHash([
        [FIRST_OPEN_VALUE, 'x'],
        ['email', 'ana@example.com'],
      ]),
    ).toBe(hash);
  });

  it('keys a first-open render by the time left, not by the instant', () => {
    const { document: doc } = restoreDesign({
      image_id: 'i',
      base_image_key: 'k',
      text_snippets: [],
      canvas_width: 200,
      canvas_height: 100,
      graphics_data: [
        {
          uuid: 't',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'countdown',
          left: 0,
          top: 0,
          width: 200,
          height: 100,
          scaleX: 1,
          scaleY: 1,
          countdown: { mode: 'evergreen', start: 'first_open', durationSeconds: 60, frames: 1 },
        },
      ],
    });
    const now = Date.parse('2026-11-24T10:00:30Z');
    const keyOf = (opened: string, values: Array<[string, string]>) =>
      timerKeyValues(doc, [[FIRST_OPEN_VALUE, opened], ...values], now);
    expect(keyOf('2026-11-24T10:00:00.000Z', [])).toEqual([['\u0000timer', '1:30']]);
    expect(keyOf('2026-11-24T10:00:10.000Z', [])).toEqual([['\u0000timer', '1:40']]);
    // Without a kept instant (a preview), from now: the full minute.
    expect(timerKeyValues(doc, [], now)).toEqual([['\u0000timer', '1:60']]);
  });
});
