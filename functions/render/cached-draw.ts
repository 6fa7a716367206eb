/**
 * The draw stage of the render service (docs/adr/0004-render-slice.md "Render slice"): an image
 * is looked up under its render cache key in this process's memory, then in the renders bucket,
 * and drawn on a miss within the request's budgets (budgets.ts), then kept in both.
 */
import { LRUCache } from 'lru-cache';
import { logger } from '#lib/logger.ts';
import { parseDesignDocument } from '#shared/design.ts';
import type { RenderDensity } from '#shared/render-url.ts';
import { watermarkCacheComponent } from '#shared/scene/watermark.ts';
import type { Budgets, DrawBudget } from './budgets.ts';
import { renderCacheKey } from './cache-key.ts';
import { renderSecond, timerKeyValues, timerStickers } from './countdown-gif.ts';
import type { RenderFormat } from './renderer.ts';
import type { DesignRecord, RenderServiceDeps } from './service-types.ts';

/** The memory cache's budget, bytes (96 MiB; test/unit/render-service.test.ts "MemoryCache"). */
const MEMORY_CACHE_MAX_BYTES = 96 * 1024 * 1024;

/**
 * A byte-bounded LRU of rendered images in this process (an `lru-cache` bounded by `maxSize`; no
 * TTL, an entry stays until pushed out). A read makes an entry the most recently used; past the
 * budget the least recently used go first. An image larger than a quarter of the budget is not
 * kept, so one huge image cannot push out the rest (test/unit/render-service.test.ts
 * "MemoryCache").
 */
export class MemoryCache {
  private readonly entries: LRUCache<string, Buffer>;

  /** @param maxBytes the budget, bytes: images kept at most; a positive integer. */
  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, Buffer>({
      maxSize: maxBytes,
      // Not kept (and a kept image under the key dropped) when over a quarter of the budget.
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
      // lru-cache needs a positive size; an empty image counts one byte.
      sizeCalculation: (body) => Math.max(1, body.length),
    });
  }

  /** The image kept under `key`, or undefined; a hit becomes the most recently used. */
  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  /** Keeps `body` under `key`, dropping the least recently used past the budget. */
  set(key: string, body: Buffer): void {
    this.entries.set(key, body);
  }
}

/**
 * `promise`, or a rejection `${what} timed out after ${ms} ms` once `ms` milliseconds pass
 * first (the work itself goes on; callers bound it where they can).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'render'): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** A drawn or cached image: its bytes, where it came from, the draw's stage times, ms. */
export interface CachedImage {
  body: Buffer;
  hit: 'memory' | 'store' | 'miss';
  timings?: Record<string, number>;
  /** A sticker past its fetch budget drew its fallback: the image is not kept. */
  partial?: boolean;
}

/**
 * The draw stage of one render service: a memory cache of {@link MEMORY_CACHE_MAX_BYTES} and
 * `deps.store` in front of `deps.render`, bounded by `deps.timeoutMs`.
 * @returns `cachedRender(design, values, format, budget, nowMs, density)`: the image (see
 *   below); throws Error (cause `quota`) past the team's monthly quota, (cause `rate-limit`)
 *   past a draw budget, the renderer's errors and the timeout's as they come.
 */
export function createCachedDraw(
  deps: Pick<RenderServiceDeps, 'teamWatermark' | 'store' | 'render' | 'timeoutMs' | 'usage'>,
  budgets: Pick<Budgets, 'allowanceOf' | 'spendBudget'>,
) {
  const memory = new MemoryCache(MEMORY_CACHE_MAX_BYTES);
  const { allowanceOf, spendBudget } = budgets;

  /**
   * Memory, then the store, then a draw (written back to both). A design with countdown timers
   * is keyed by what its timers show at `nowMs` (countdown-gif.ts `timerKeyValues`) and kept in
   * memory only: its renders live a second. `density` (docs/export.md "Density") is 1 for a
   * timer design, whose dense URLs answer its 1× image.
   */
  async function cachedRender(
    design: DesignRecord,
    values: Array<[string, string]>,
    format: RenderFormat,
    budget: DrawBudget | undefined,
    nowMs = Date.now(),
    density: RenderDensity = 1,
  ): Promise<CachedImage> {
    if (deps.teamWatermark)
      design = {
        ...design,
        watermark: await deps.teamWatermark(design.teamId, {
          designId: design.designId,
          version: design.version,
        }),
      };
    const timed = timerStickers(parseDesignDocument(design.document)).length > 0;
    const key = renderCacheKey(
      design,
      timerKeyValues(parseDesignDocument(design.document), values, nowMs),
      format,
      design.watermark &&
        watermarkCacheComponent(parseDesignDocument(design.document), design.watermark),
      density,
    );
    const inMemory = memory.get(key);
    if (inMemory) return { body: inMemory, hit: 'memory' };
    const stored = timed
      ? undefined
      : await deps.store.get(key).catch((error: unknown) => {
          logger.warn('render cache read failed', { error: error as Error });
          return undefined;
        });
    if (stored) {
      memory.set(key, stored);
      return { body: stored, hit: 'store' };
    }
    // Only a recipient's draw is budgeted and counted; the fallback's own draw is not.
    const allowance = budget ? await allowanceOf(design.teamId) : undefined;
    const counted = budget?.countedAtOpen === true;
    if (
      allowance &&
      deps.usage &&
      !counted &&
      (await deps.usage.isOver(design.teamId, allowance.rendersPerMonth))
    )
      throw Object.assign(new Error('monthly render quota used'), { cause: 'quota' });
    if (budget && !budget.prerender) await spendBudget(design, budget, allowance);
    const output = await withTimeout(
      deps.render(design, Object.fromEntries(values), format, {
        nowMs: renderSecond(nowMs),
        ...(density !== 1 ? { density } : {}),
      }),
      deps.timeoutMs,
    );
    if (allowance && deps.usage && !counted)
      deps.usage.countDraw(design.teamId, allowance.rendersPerMonth);
    // A partial render (a sticker past the fetch budget) is not kept: a later one draws it.
    if (!output.partial) {
      memory.set(key, output.body);
      // Written in the background: the answer does not wait for S3.
      if (!timed)
        deps.store.put(key, output.body, output.contentType).catch((error: unknown) => {
          logger.warn('render cache write failed', { error: error as Error });
        });
    }
    return {
      body: output.body,
      hit: 'miss',
      ...(output.timings ? { timings: output.timings } : {}),
      ...(output.partial ? { partial: true } : {}),
    };
  }

  return cachedRender;
}
