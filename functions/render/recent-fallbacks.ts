/**
 * What a design version's all-fallback draw gave lately, kept per instance for a short time
 * (docs/decisions.md "Fallback draws under load"): a partial image (kept in no render cache) or
 * a failed draw. Under a mail blast to a design whose fallback is partial or fails, the render
 * service answers from here instead of drawing again for every request.
 */

/** How long an entry is answered from, ms (docs/decisions.md "Fallback draws under load"). */
export const RECENT_FALLBACK_TTL_MS = 30_000;
/** Entries kept at most; the oldest goes first (docs/decisions.md "Fallback draws under load"). */
export const RECENT_FALLBACK_MAX_ENTRIES = 256;
/** Image bytes kept at most, bytes (docs/decisions.md "Fallback draws under load"). */
export const RECENT_FALLBACK_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A fallback draw's kept outcome: `body` is the partial image, undefined when the draw failed
 * (the placeholder is answered).
 */
export interface RecentFallback {
  body: Buffer | undefined;
}

/**
 * A time- and size-bounded map from a fallback's render cache key to its last outcome
 * (test/unit/render-service.test.ts "recent fallbacks"). Map order is insertion order, so the
 * oldest entry is the first; an entry past its time is dropped when read or when room is made.
 */
export class RecentFallbacks {
  private readonly entries = new Map<string, { until: number; body: Buffer | undefined }>();
  private bytes = 0;

  /**
   * @param ttlMs how long an entry is answered, ms.
   * @param maxEntries entries kept at most.
   * @param maxBytes image bytes kept at most, bytes; a larger single image is not kept.
   * @param now the clock, ms since the epoch.
   */
  constructor(
    private readonly ttlMs = RECENT_FALLBACK_TTL_MS,
    private readonly maxEntries = RECENT_FALLBACK_MAX_ENTRIES,
    private readonly maxBytes = RECENT_FALLBACK_MAX_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept outcome of `key`, or undefined when none is kept or its time is over. */
  get(key: string): RecentFallback | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.remove(key);
      return undefined;
    }
    return { body: entry.body };
  }

  /**
   * Keeps `body` (a partial image) or undefined (a failed draw) for `key` for the TTL, dropping
   * the oldest entries past the entry or byte bound. An image over the byte bound is not kept.
   */
  set(key: string, body: Buffer | undefined): void {
    const size = body?.length ?? 0;
    if (size > this.maxBytes) return;
    this.remove(key);
    this.entries.set(key, { until: this.now() + this.ttlMs, body });
    this.bytes += size;
    // Bounded by the entry count: each turn removes one entry.
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.remove(oldest);
    }
  }

  /** Entries kept now (expired ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body?.length ?? 0;
    this.entries.delete(key);
  }
}
