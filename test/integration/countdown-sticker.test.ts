/**
 * Countdown timer stickers through the design API (docs/editor.md "Countdown timer";
 * docs/adr/0058-countdown-timers.md "Countdown timers"): the library offers one,
 * `saveGeneratedDynamicSticker` adds it with its box and settings, and bad settings answer 422 with
 * field errors and save nothing, as the whole-design save does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

const timer = (countdown: Record<string, unknown> | undefined, extra = {}) => ({
  uuid: 'timer-1',
  dynamicStickerType: 'countdown',
  ...(countdown ? { countdown } : {}),
  ...extra,
});

describe('countdown timer stickers', () => {
  it('are offered by the library with a 600x200 box', async () => {
    const answer = await demo.request('POST', '/getStickers', {});
    expect(answer.status).toBe(200);
    const dynamic = answer.json.dynamic as Array<Record<string, unknown>>;
    expect(dynamic.find((d) => d.sticker_type === 'countdown')).toMatchObject({
      id: 'dynamic-countdown',
      sticker_name: 'Countdown timer',
      sticker_type: 'countdown',
      width: 600,
      height: 200,
    });
  });

  it('are added with their settings, the defaults filling what is left out', async () => {
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const saved = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: timer({ deadline: '2031-06-01T18:30', timeZone: 'Europe/Paris', units: 'hms' }),
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const sticker = (saved.json.data as { currentSticker: Record<string, unknown> }).currentSticker;
    expect(sticker).toMatchObject({
      stickerType: 'dynamicSticker',
      dynamicStickerType: 'countdown',
      dynamicStickerParamName: 'countdown1',
      width: 600,
      height: 200,
      countdown: {
        mode: 'fixed',
        deadline: '2031-06-01T18:30',
        timeZone: 'Europe/Paris',
        units: 'hms',
        frames: 30,
        expired: 'text',
      },
    });
    // Scale 1 unless the canvas is narrower than the timer.
    expect(sticker.scaleX).toBeLessThanOrEqual(1);
    const stored = (await demo.request('GET', base)).json.graphics_data as Array<
      Record<string, unknown>
    >;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.countdown).toMatchObject({ deadline: '2031-06-01T18:30', frames: 30 });

    // Without settings: the defaults. An evergreen start fallback is an ISO date-time.
    const plain = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: timer(undefined, { uuid: 'timer-2', dynamicStickerUrl: '2030-01-01T09:00:00Z' }),
    });
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    expect(
      (plain.json.data as { currentSticker: { countdown: Record<string, unknown> } }).currentSticker
        .countdown,
    ).toMatchObject({ mode: 'fixed', units: 'dhms', frames: 30 });
  });

  it('refuse bad settings with field errors, saving nothing', async () => {
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const add = (countdown: Record<string, unknown> | undefined, extra = {}) =>
      demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
        sticker: timer(countdown, extra),
      });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { frames: 61 },
        'sticker.countdown.frames',
        'The frames must be a whole number from 1 to 60.',
      ],
      [
        { frames: 0 },
        'sticker.countdown.frames',
        'The frames must be a whole number from 1 to 60.',
      ],
      [
        { frames: 2.5 },
        'sticker.countdown.frames',
        'The frames must be a whole number from 1 to 60.',
      ],
      [
        { timeZone: 'Mars/Olympus' },
        'sticker.countdown.timeZone',
        'The time zone must be an IANA name, such as Europe/Paris.',
      ],
      [
        { deadline: '2030-02-30T10:00' },
        'sticker.countdown.deadline',
        'The deadline must be a date and time, YYYY-MM-DDTHH:mm.',
      ],
      [
        { deadline: 'next friday' },
        'sticker.countdown.deadline',
        'The deadline must be a date and time, YYYY-MM-DDTHH:mm.',
      ],
      [
        { units: 'hm' },
        'sticker.countdown.units',
        'The units must be one of dhms, hms, ms, dhm, dh, d.',
      ],
      [
        { separator: '::::' },
        'sticker.countdown.separator',
        'The separator may have at most 3 characters.',
      ],
      [
        { mode: 'evergreen', durationSeconds: 0 },
        'sticker.countdown.durationSeconds',
        'The duration must be a whole number of seconds from 1 to 31622400.',
      ],
    ];
    for (const [countdown, field, message] of cases) {
      const answer = await add(countdown);
      expect(answer.status, JSON.stringify(countdown)).toBe(422);
      expect(answer.json.errors).toEqual({ [field]: [message] });
    }
    const badStart = await add(undefined, { dynamicStickerUrl: 'yesterday' });
    expect(badStart.status).toBe(422);
    expect(badStart.json.errors).toEqual({
      dynamicStickerUrl: [
        'Invalid start time. Use an ISO 8601 date and time, such as 2030-01-01T09:00:00Z',
      ],
    });

    // The whole-design save checks the same settings.
    const put = await demo.request('PUT', base, {
      version: design.version,
      graphics_data: [
        {
          uuid: 'timer-9',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'countdown',
          left: 10,
          top: 10,
          width: 600,
          height: 200,
          countdown: { frames: 90 },
        },
      ],
    });
    expect(put.status).toBe(422);
    const read = await demo.request('GET', base);
    expect(read.json.graphics_data).toEqual([]);
    expect(read.json.version).toBe(design.version);
  });
});
