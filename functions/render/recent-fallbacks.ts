/**
 * What a design version's all-fallback draw gave lately, kept per instance for a short time
 * (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load"): a partial image (kept
 * in no render cache) or a failed draw. Under a mail blast to a design whose fallback is partial or
 * fails, the render service answers from here instead of drawing again for every request.
 */
import { LRUCache } from 'lru-cache';

/** How long an entry is answered from, ms (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load"). */
export const RECENT_FALLBACK_TTL_MS = 30_000;
/**
 * Entries kept at most; the least recently used goes first
 * (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load").
 */
export const RECENT_FALLBACK_MAX_ENTRIES = 256;
/** Image bytes kept at most, bytes (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under load"). */
export const RECENT_FALLBACK_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A fallback draw's kept outcome: `body` is the partial image, undefined when the draw failed
 * (the placeholder is answered).
 */
export interface RecentFallback {
  readonly body: Buffer | undefined;
}

/**
 * A time- and size-bounded map from a fallback's render cache key to its last outcome, an
 * `lru-cache` (test/unit/render-service.test.ts "recent fallbacks"). An entry is answered for
 * the TTL from when it was set (a read does not extend it) and dropped when read past it; past
 * the entry or byte bound the least recently used entries go first.
 */
export class RecentFallbacks {
  // Values are wrapped: lru-cache keeps no undefined value, and a failed draw is one.
  private readonly entries: LRUCache<string, RecentFallback>;

  /**
   * @param ttlMs how long an entry is answered, ms; at exactly `ttlMs` old it still is.
   * @param maxEntries entries kept at most.
   * @param maxBytes image bytes kept at most, bytes (a failed draw counts 1); a larger single
   *   image is not kept, and drops what was kept under its key.
   * @param now the clock, ms since the epoch; it must be above 0 (lru-cache takes a start of 0
   *   for "no TTL"). Read on every TTL check, so a test may move it between calls.
   */
  constructor(
    ttlMs = RECENT_FALLBACK_TTL_MS,
    maxEntries = RECENT_FALLBACK_MAX_ENTRIES,
    maxBytes = RECENT_FALLBACK_MAX_BYTES,
    now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, RecentFallback>({
      ttl: ttlMs,
      max: maxEntries,
      maxSize: maxBytes,
      // lru-cache needs a positive size.
      sizeCalculation: ({ body }) => Math.max(1, body?.length ?? 0),
      perf: { now },
      // Read the clock on every check instead of caching it for 1 ms behind a timer.
      ttlResolution: 0,
    });
  }

  /** The kept outcome of `key`, or undefined when none is kept or its time is over. */
  get(key: string): RecentFallback | undefined {
    return this.entries.get(key);
  }

  /**
   * Keeps `body` (a partial image) or undefined (a failed draw) for `key` for the TTL, dropping
   * the least recently used entries past the entry or byte bound. An image over the byte bound
   * is not kept.
   */
  set(key: string, body: Buffer | undefined): void {
    this.entries.set(key, { body });
  }

  /** Entries kept now (expired ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }
}
