/**
 * The first open of a recipient's URL, for evergreen countdown timers that count from it
 * (docs/adr/0058-countdown-timers.md "Countdown timers"): looked up per design and recipient,
 * written on first sight by a put conditional on the item's absence, so two concurrent first opens
 * agree.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { db, isConditionFailure } from '#lib/db/index.ts';

/** How long a first-open item outlives its design's longest first-open timer, s (30 days). */
export const FIRST_OPEN_KEEP_S = 30 * 86_400;

/** Where first opens are kept (DynamoDB in the render; a fake in unit tests). */
export interface FirstOpenStore {
  /** The kept first open, ms since the epoch, or `undefined`; `consistent`: a strong read. */
  get(designId: string, recipient: string, consistent: boolean): Promise<number | undefined>;
  /**
   * Writes the first open unless one is kept already.
   * @returns false when one was kept (the condition failed).
   */
  create(designId: string, recipient: string, openedAt: number, ttl: number): Promise<boolean>;
}

/**
 * The recipient's key: SHA-256 (hex, 64 characters) of the normalised values (sorted by name,
 * as the render normalises them), never the values themselves, which are personal data.
 * @param values name/value pairs; names starting with NUL (the render's own) are left out.
 */
export function recipientHash(values: ReadonlyArray<readonly [string, string]>): string {
  const own = values.filter(([name]) => !name.startsWith('\u0000'));
  return createHash('sha256').update(JSON.stringify(own)).digest('hex');
}

/**
 * How long an instance remembers a recipient's first open without asking the store, ms, from
 * when it was read or written (docs/adr/0058-countdown-timers.md "Countdown timers";
 * test/unit/countdown-first-open.test.ts "first opens").
 */
export const KNOWN_OPEN_MS = 10 * 60_000;
/**
 * The most first opens an instance remembers per store; the least recently used is forgotten
 * first (docs/adr/0058-countdown-timers.md "Countdown timers";
 * test/unit/countdown-first-open.test.ts "first opens").
 */
export const MAX_KNOWN_OPENS = 10_000;

/**
 * First opens this instance has read or written, per store, by `designId/recipient`: the instant,
 * ms since the epoch. The clock is `Date.now`, read on every check, so fake timers move it.
 */
const knownOpens = new WeakMap<FirstOpenStore, LRUCache<string, number>>();

/** The memory of `store`'s first opens, made on first use. */
function knownOpensOf(store: FirstOpenStore): LRUCache<string, number> {
  let known = knownOpens.get(store);
  if (!known) {
    known = new LRUCache<string, number>({
      max: MAX_KNOWN_OPENS,
      ttl: KNOWN_OPEN_MS,
      perf: { now: () => Date.now() },
      ttlResolution: 0,
    });
    knownOpens.set(store, known);
  }
  return known;
}

/**
 * When the recipient first opened the design's image, ms since the epoch: the kept instant, or
 * `nowMs` written now (kept `durationS` + {@link FIRST_OPEN_KEEP_S} past it). When another open
 * wrote first, its instant wins (read back strongly). A kept instant never changes, so the
 * instance remembers it for {@link KNOWN_OPEN_MS} (at most {@link MAX_KNOWN_OPENS} per store)
 * and a recipient's later opens skip the store (docs/adr/0058-countdown-timers.md "Countdown
 * timers"; test/unit/countdown-first-open.test.ts).
 * @throws what the store throws, or Error when the kept item holds no instant; the render then
 *   counts from now and answers `no-store` (service.ts). Nothing is remembered then.
 */
export async function firstOpenAt(
  store: FirstOpenStore,
  designId: string,
  values: ReadonlyArray<readonly [string, string]>,
  nowMs: number,
  durationS: number,
): Promise<number> {
  const recipient = recipientHash(values);
  const known = knownOpensOf(store);
  const key = `${designId}/${recipient}`;
  const hit = known.get(key);
  // Past the item's own TTL the store forgets it, and the next open is a first one again.
  const lapsed = (at: number) => nowMs > at + (durationS + FIRST_OPEN_KEEP_S) * 1000;
  if (hit !== undefined && !lapsed(hit)) return hit;
  const remember = (at: number): number => {
    known.set(key, at);
    return at;
  };
  const kept = await store.get(designId, recipient, false);
  if (kept !== undefined) return remember(kept);
  const ttl = Math.floor(nowMs / 1000) + durationS + FIRST_OPEN_KEEP_S;
  if (await store.create(designId, recipient, nowMs, ttl)) return remember(nowMs);
  const won = await store.get(designId, recipient, true);
  if (won === undefined) throw new Error('first open: neither written nor kept');
  return remember(won);
}

/** The first opens in the table (functions/lib/db/entities-first-open.ts `FirstOpen`). */
export const dynamoFirstOpenStore: FirstOpenStore = {
  async get(openDesign, recipient, consistent) {
    const { data } = await db()
      .FirstOpen.get({ openDesign, recipient })
      .go({ consistent, attributes: ['openedAt'] });
    if (!data) return undefined;
    if (!Number.isFinite(data.openedAt)) throw new Error('first open: the kept item has no time');
    return data.openedAt;
  },
  async create(openDesign, recipient, openedAt, ttl) {
    try {
      await db()
        .FirstOpen.create({ openDesign, recipient, openedAt, ttl })
        .go({ response: 'none' });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
