/**
 * Countdown timers in the render (docs/adr/0058-countdown-timers.md "Countdown timers"): which stickers are
 * timers, what each frame shows, the render cache key's timer part, and the animated GIF.
 *
 * The static layer (the base photo) is kept per design version by renderer.ts; here the page
 * draws, in one call (`picsnippetsRenderFrames`), the design's other layers cut at the timers
 * (`sceneBands`), each timer's steady layers once and only its changing layers per distinct
 * frame, with the same shared scene code the editor draws its live preview with
 * (shared/scene/countdown.ts). Node composes the complete first frame and the later frames only
 * where they change; sharp (libvips/cgif) encodes them over one palette and gif-patches.ts
 * joins them into one GIF (docs/performance.md "Countdown timers").
 */
import sharp from 'sharp';
import type { DesignDocument } from '#shared/design.ts';
import {
  countdownFrames,
  countdownLayers,
  countsFromFirstOpen,
  framesThatFit,
  MAX_GIF_PIXELS,
  type CountdownBox,
} from '#shared/scene/countdown.ts';
import { resolveDynamicStickers, stickerBox, type ResolvedScene } from '#shared/scene/resolve.ts';
import { sceneBands, timerStickers, type TimerSticker } from '#shared/scene/bands.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import type { blendOver } from './blend.ts';
import type { DrawnLayer } from '#shared/scene/pixel-runs.ts';
import { layerPixels } from './blend.ts';
import { joinPatches, paletteCarrier } from './gif-patches.ts';

// The layer-order rule is shared with the editor's canvas (shared/scene/bands.ts).
export { sceneBands, timerStickers, type TimerSticker };

/**
 * Cache-Control of a render with a running or expired timer: one second at most, for browsers,
 * mail proxies and the CDN alike (`s-maxage`), so the CDN holds one render a second.
 */
export const COUNTDOWN_CACHE = 'public, max-age=1, s-maxage=1';

/** The GIF's pixel budget, shared with the editor (shared/scene/countdown.ts). */
export { MAX_GIF_PIXELS };

/**
 * The name under which the render passes the recipient's first-open instant (ISO 8601, UTC)
 * with the values (service.ts; first-open.ts). It starts with a NUL, which no parameter name
 * can hold, so no URL can set it, and it never reaches the cache key (`timerKeyValues`).
 */
export const FIRST_OPEN_VALUE = '\u0000firstOpen';

/** The longest duration of the design's first-open timers, s; 0 when it has none. */
export const firstOpenDurationS = (doc: DesignDocument): number =>
  Math.max(
    0,
    ...timerStickers(doc)
      .filter((s) => countsFromFirstOpen(s.countdown))
      .map((s) => s.countdown.durationSeconds),
  );

/**
 * The start value of each timer by sticker uuid: a first-open timer's is
 * {@link FIRST_OPEN_VALUE} (absent: it counts from now); any other's is its parameter's value,
 * else its fallback.
 */
function startValues(doc: DesignDocument, values: Record<string, string>): Map<string, string> {
  const starts = new Map(
    resolveDynamicStickers(doc, values)
      .filter((d) => d.type === 'countdown')
      .map((d) => [d.id, d.value]),
  );
  for (const timer of timerStickers(doc))
    if (countsFromFirstOpen(timer.countdown))
      starts.set(timer.uuid, values[FIRST_OPEN_VALUE] ?? '');
  return starts;
}

/**
 * How many frames the GIF has: the most any timer asks for (1–60), fewer when the canvas is so
 * large that the frames would pass {@link MAX_GIF_PIXELS}.
 */
export function gifFrameCount(doc: DesignDocument): number {
  const asked = Math.max(1, ...timerStickers(doc).map((s) => s.countdown.frames));
  return Math.max(1, Math.min(asked, framesThatFit(doc.canvas_width, doc.canvas_height)));
}

/** The whole second a render at `nowMs` shows (every request of that second draws the same). */
export const renderSecond = (nowMs: number): number => Math.floor(nowMs / 1000) * 1000;

/**
 * Seconds left per frame and timer: `[frame][timer]`, frame k at `second + k` s.
 * @param second ms since the epoch, a whole second (`renderSecond`).
 */
export function timerSeconds(
  doc: DesignDocument,
  values: Record<string, string>,
  second: number,
  frames = gifFrameCount(doc),
): number[][] {
  const starts = startValues(doc, values);
  const perTimer = timerStickers(doc).map((s) =>
    countdownFrames(s.countdown, second, frames, starts.get(s.uuid)),
  );
  return Array.from({ length: frames }, (_, k) => perTimer.map((t) => t[k]!));
}

/**
 * The values the render cache key holds for a design with timers (docs/adr/0058-countdown-timers.md
 * "Countdown timers"): a timer's own start parameter is replaced by what it decides, the seconds
 * left at the first frame (a first-open timer's instant is dropped the same way), and every
 * other value stays. So every recipient of a fixed-deadline
 * timer shares one key a second (a new one each second until it expires), and an evergreen
 * timer's recipients share theirs whenever the same time is left. A design without timers keeps
 * its values as they are.
 * @param values the normalised values, sorted by name (service.ts `normaliseValues`).
 */
export function timerKeyValues(
  doc: DesignDocument,
  values: Array<[string, string]>,
  nowMs: number,
): Array<[string, string]> {
  const timers = timerStickers(doc);
  if (timers.length === 0) return values;
  const startParams = new Set(timers.map((t) => t.dynamicStickerParamName).filter(Boolean));
  for (const snippet of doc.text_snippets)
    for (const p of snippet.parameters) startParams.delete(p.param_name);
  const first = timerSeconds(doc, Object.fromEntries(values), renderSecond(nowMs), 1)[0]!;
  return [
    ...values.filter(([name]) => !startParams.has(name) && name !== FIRST_OPEN_VALUE),
    ['\u0000timer', `${gifFrameCount(doc)}:${first.join(',')}`],
  ];
}

/** A drawn region of the page (shared/scene/pixel-runs.ts `DrawnLayer`). */
export type DrawnRegion = DrawnLayer;

/** Draws scenes on the warm page, one region list per scene (renderer.ts). */
export type DrawScenes = (scenes: ResolvedScene[]) => Promise<DrawnRegion[][]>;

/** Blends a region onto RGB pixels (renderer.ts `blendOver`). */
export type Blend = typeof blendOver;

/** A rectangle on the canvas, px. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A timer sticker's box for the layout: its drawn box, scaled by its vertical scale. */
const boxOf = (s: TimerSticker): CountdownBox => {
  const b = stickerBox(s);
  return {
    id: s.uuid,
    left: b.left,
    top: b.top,
    width: b.width,
    height: b.height,
    scale: s.scaleY,
  };
};

/** A region with its pixels decoded once. */
export interface Region extends Rect {
  rgba: Uint8Array;
}

/**
 * Blends `regions` (canvas px, in z-order) onto `target`, the RGB pixels of the canvas rectangle
 * `area`; each is clipped to it by `blend`.
 */
export function blendRegions(
  blend: Blend,
  target: Buffer,
  area: Rect,
  regions: readonly Region[],
): void {
  for (const r of regions)
    blend(
      target,
      area.width,
      area.height,
      r.left - area.left,
      r.top - area.top,
      r.width,
      r.height,
      r.rgba,
    );
}

const decode = (regions: DrawnRegion[] | undefined): Region[] =>
  (regions ?? []).map((r) => ({ ...r, rgba: layerPixels(r) }));

/** The smallest rectangle holding every region, clipped to the canvas; null when none. */
function boundsOf(regions: Rect[], width: number, height: number): Rect | null {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (const r of regions) {
    x0 = Math.min(x0, Math.max(0, r.left));
    y0 = Math.min(y0, Math.max(0, r.top));
    x1 = Math.max(x1, Math.min(width, r.left + r.width));
    y1 = Math.max(y1, Math.min(height, r.top + r.height));
  }
  return x1 > x0 && y1 > y0 ? { left: x0, top: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** `rect`'s pixels of an RGB image `width` px wide, copied out. */
function cut(pixels: Buffer, width: number, rect: Rect): Buffer {
  const row = rect.width * 3;
  const out = Buffer.allocUnsafe(row * rect.height);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.top + y) * width + rect.left) * 3;
    pixels.copy(out, y * row, from, from + row);
  }
  return out;
}

/**
 * The rectangle (inside `area`'s own px) where consecutive frames differ; null when none does.
 * Rows compare natively first, so only changed rows are read pixel by pixel.
 * @param frames `count` RGB frames of `area.width` × `area.height` px, one after the other.
 */
function changedRect(frames: Buffer, area: Rect, count: number): Rect | null {
  const row = area.width * 3;
  const size = row * area.height;
  let x0 = area.width;
  let y0 = area.height;
  let x1 = -1;
  let y1 = -1;
  for (let k = 1; k < count; k++) {
    const a = frames.subarray((k - 1) * size, k * size);
    const b = frames.subarray(k * size, (k + 1) * size);
    for (let y = 0; y < area.height; y++) {
      const r = y * row;
      if (a.compare(b, r, r + row, r, r + row) === 0) continue;
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let x = 0; x < area.width; x++) {
        const i = r + x * 3;
        if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) {
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
        }
      }
    }
  }
  return x1 < 0 ? null : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** What a timer render composes (docs/performance.md "Countdown timers"). */
export interface TimerFrames {
  /** Frame 1, complete (clients that do not animate show it): RGB, `width` × `height` px. */
  first: Buffer;
  width: number;
  height: number;
  /** How many frames the GIF has. */
  count: number;
  /** Where frames differ from the frame before (canvas px; at least 1 × 1 px). */
  patch: Rect;
  /** Every frame's pixels inside `patch` (frame 1's too), RGB, one after the other. */
  patches: Buffer;
}

/**
 * Draws the timers of every frame between the design's other layers, as the still draws them
 * at that second (`sceneBands`): the page draws the bands and each timer's distinct frames in
 * one call; node composes the complete first frame, and every frame only inside the timers'
 * area, then keeps the rectangle where frames change (`patch`).
 * @param below the static layer with the stickers node draws itself (beneath every band), RGB,
 *   `width` × `height` px; not changed.
 * @param scene the design's personalised layers for this recipient (resolve.ts `resolveScene`).
 * @param mapText the render's "never tofu" filter for a layer's text (fonts.ts).
 * @throws what `draw` throws (a failed page); the caller answers the fallback.
 */
export async function timerFrames(
  doc: DesignDocument,
  values: Record<string, string>,
  nowMs: number,
  below: { pixels: Buffer; width: number; height: number },
  scene: ResolvedScene,
  draw: DrawScenes,
  blend: Blend,
  frames = gifFrameCount(doc),
  mapText: (layer: ResolvedTextLayer) => string = (layer) => layer.text,
): Promise<TimerFrames> {
  const { width, height } = below;
  const timers = timerStickers(doc);
  const seconds = timerSeconds(doc, values, renderSecond(nowMs), frames);
  const bands = sceneBands(doc, scene);
  // Each timer's distinct frames (expired ones repeat) are laid out once; the layers every one
  // of them holds alike (labels, separators, the digits of units that stay) are drawn once, and
  // each distinct frame draws only the layers that change.
  const distinct = timers.map((_, j) => [...new Set(seconds.map((s) => s[j]!))]);
  const layouts = timers.map((t, j) =>
    distinct[j]!.map((left) =>
      countdownLayers(t.countdown, boxOf(t), left).map((layer) => ({
        ...layer,
        text: mapText(layer),
      })),
    ),
  );
  const keyOf = (layer: ResolvedTextLayer) => JSON.stringify(layer);
  const steady = layouts.map((frames) => {
    const seen = frames.map((layers) => new Set(layers.map(keyOf)));
    return new Set(frames[0]!.map(keyOf).filter((key) => seen.every((keys) => keys.has(key))));
  });
  const textScene = (texts: ResolvedTextLayer[]): ResolvedScene => ({
    width: doc.canvas_width,
    height: doc.canvas_height,
    images: [],
    texts,
  });
  const timerScenes = layouts.flatMap((frames, j) => [
    textScene(frames[0]!.filter((layer) => steady[j]!.has(keyOf(layer)))),
    ...frames.map((layers) => textScene(layers.filter((layer) => !steady[j]!.has(keyOf(layer))))),
  ]);
  const drawn = await draw([...bands, ...timerScenes]);
  const bandRegions = bands.map((_, b) => decode(drawn[b]));
  // Per timer: its steady layers' regions, then each distinct frame's changing ones.
  const offsets = distinct.map((_, j) =>
    distinct.slice(0, j).reduce((n, d) => n + d.length + 1, bands.length),
  );
  const steadyRegions = timers.map((_, j) => decode(drawn[offsets[j]!]));
  const timerRegions = timers.map((_, j) =>
    distinct[j]!.map((_left, d) => decode(drawn[offsets[j]! + 1 + d])),
  );
  /** The layers over band 0 in frame k, in z-order. */
  const layersOf = (k: number): Region[] =>
    timers.flatMap((_, j) => [
      ...steadyRegions[j]!,
      ...timerRegions[j]![distinct[j]!.indexOf(seconds[k]![j]!)]!,
      ...bandRegions[j + 1]!,
    ]);
  const put = (target: Buffer, area: Rect, regions: Region[]) =>
    blendRegions(blend, target, area, regions);
  const canvas = { left: 0, top: 0, width, height };
  const under = Buffer.from(below.pixels);
  put(under, canvas, bandRegions[0]!);
  const first = Buffer.from(under);
  put(first, canvas, layersOf(0));
  const none = { left: 0, top: 0, width: 1, height: 1 };
  const area = frames > 1 ? boundsOf(timerRegions.flat(2), width, height) : null;
  if (!area) {
    // Every frame alike (an expired timer): one pixel that never changes stands for the patch.
    const patches = Buffer.concat(Array.from({ length: frames }, () => cut(first, width, none)));
    return { first, width, height, count: frames, patch: none, patches };
  }
  // Each frame inside the timers' area only, then cut down to where frames change.
  const size = area.width * area.height * 3;
  const inArea = Buffer.allocUnsafe(size * frames);
  const underArea = cut(under, width, area);
  for (let k = 0; k < frames; k++) {
    const target = inArea.subarray(k * size, (k + 1) * size);
    underArea.copy(target);
    put(target, area, layersOf(k));
  }
  const changed = changedRect(inArea, area, frames) ?? none;
  const patch = { ...changed, left: area.left + changed.left, top: area.top + changed.top };
  const patches = Buffer.allocUnsafe(patch.width * patch.height * 3 * frames);
  for (let k = 0; k < frames; k++)
    cut(inArea.subarray(k * size, (k + 1) * size), area.width, changed).copy(
      patches,
      k * patch.width * patch.height * 3,
    );
  return { first, width, height, count: frames, patch, patches };
}

/** sharp's gifsave settings: no dithering, the least effort (docs/performance.md "Countdown timers"). */
const GIF_OPTIONS = { effort: 1, dither: 0, loop: 0, keepDuplicateFrames: true } as const;

/**
 * The frames as an animated GIF (sharp's gifsave over libvips/cgif): one second a frame, looping.
 * The palette is built once, from the complete first frame (it holds the timer's colours), and
 * every frame is only mapped to it, never quantised again: sharp's `reuse` takes the palette of
 * a GIF input, so each encode below starts from a GIF carrying it (gif-patches.ts
 * `paletteCarrier`). Frame 1 is encoded whole (clients that do not animate show it); the later
 * frames only inside `patch`, as one animated GIF whose first two frames stand for frame 1
 * (the palette carrier, then frame 1's own pixels there, so cgif leaves unchanged pixels
 * transparent). gif-patches.ts joins the two at the patch's place. The encode's work grows with
 * the patch, not the canvas (docs/performance.md "Countdown timers").
 *
 * Without `patchPalette` (a timer) both share frame 1's table: frame 1 is encoded again through
 * `reuse`, which writes the table as the patches' encode does. With it (an animated design,
 * docs/animated-designs.md "Palette") the patches get their own table, quantised from those
 * pixels alone while frame 1 is quantised (the two run at once), and frame 1's first encode is
 * kept as it is (docs/performance.md "Animated designs").
 * @param delaysMs each frame's delay, ms (an animated design's: functions/render/animated-gif.ts);
 *   1000 ms each by default.
 * @param patchPalette RGB pixels `patch.width` px wide whose colours the later frames' palette is
 *   quantised from (an animated design's frame-1 patch and sampled later patches); absent: the
 *   later frames use frame 1's palette.
 * @returns the GIF: `count` frames of `width` × `height` px, looping forever.
 * @throws what sharp throws (the caller answers the fallback).
 */
export async function encodeGif(
  t: TimerFrames,
  delaysMs: number[] = Array.from({ length: t.count }, () => 1000),
  patchPalette?: Buffer,
): Promise<Buffer> {
  const raw = (width: number, height: number) => ({ raw: { width, height, channels: 3 as const } });
  const { patch } = t;
  const [quantised, ownPalette] = await Promise.all([
    sharp(t.first, raw(t.width, t.height))
      .gif({ ...GIF_OPTIONS, delay: [delaysMs[0]!] })
      .toBuffer(),
    patchPalette && t.count > 1
      ? sharp(patchPalette, raw(patch.width, patchPalette.length / (patch.width * 3)))
          .gif(GIF_OPTIONS)
          .toBuffer()
      : undefined,
  ]);
  if (t.count === 1) return quantised;
  const size = patch.width * patch.height * 3;
  const [first, ...pngs] = await Promise.all([
    ownPalette
      ? quantised
      : sharp(quantised)
          .gif({ ...GIF_OPTIONS, reuse: true, delay: [delaysMs[0]!] })
          .toBuffer(),
    ...Array.from({ length: t.count }, (_, k) =>
      sharp(t.patches.subarray(k * size, (k + 1) * size), raw(patch.width, patch.height))
        .png({ compressionLevel: 0 })
        .toBuffer(),
    ),
  ]);
  const carrier = paletteCarrier(ownPalette ?? quantised, patch.width, patch.height);
  const patches = await sharp([carrier, ...pngs], { join: { animated: true } })
    .gif({ ...GIF_OPTIONS, reuse: true, delay: [delaysMs[0]!, ...delaysMs] })
    .toBuffer();
  return joinPatches(first!, patches, patch, delaysMs[0]!, 2);
}

/**
 * The header a test sets to fix the render's clock: ms since the epoch or an ISO 8601 time.
 * Honoured only under STAGE=test (the local stack the tests start), never locally for users or
 * in AWS (docs/adr/0058-countdown-timers.md "Countdown timers").
 */
export const TEST_NOW_HEADER = 'x-picsnippets-test-now';

/**
 * `{ nowMs }` from {@link TEST_NOW_HEADER} when `stage` is `test` and the header reads as a
 * time; `{}` otherwise (the render uses the real clock).
 */
export function testClock(
  headers: Record<string, string | undefined> | undefined,
  stage: string,
): { nowMs?: number } {
  const raw = stage === 'test' ? headers?.[TEST_NOW_HEADER] : undefined;
  if (!raw) return {};
  const nowMs = /^\d{1,15}$/.test(raw) ? Number(raw) : Date.parse(raw);
  return Number.isFinite(nowMs) ? { nowMs } : {};
}
