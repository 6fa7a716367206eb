/**
 * Countdown timers in the render (docs/decisions.md "Countdown timers"): which stickers are
 * timers, what each frame shows, the render cache key's timer part, and the animated GIF.
 *
 * The static layer (base photo and every other layer) is composed once by renderer.ts; here
 * the page draws only the timers' text layers, once per distinct frame, in one call
 * (`picsnippetsRenderFrames`), with the same shared scene code the editor draws its live
 * preview with (shared/scene/countdown.ts). Each frame is a copy of the static pixels with that
 * frame's timer regions blended over; sharp (libvips/cgif) encodes the frames as one GIF.
 */
import sharp from 'sharp';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import {
  countdownFrames,
  countdownLayers,
  countsFromFirstOpen,
  type Countdown,
  type CountdownBox,
} from '#shared/scene/countdown.ts';
import { resolveDynamicStickers, stickerBox, type ResolvedScene } from '#shared/scene/resolve.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import type { blendOver } from './renderer.ts';

/**
 * Cache-Control of a render with a running or expired timer: one second at most, for browsers,
 * mail proxies and the CDN alike (`s-maxage`), so the CDN holds one render a second.
 */
export const COUNTDOWN_CACHE = 'public, max-age=1, s-maxage=1';

/**
 * The most pixels all frames of one GIF may hold together (frames × width × height): 17 M, so a
 * 600×200 design keeps its 60 frames, the default 900×600 canvas its default 30, the largest canvas
 * (1056×4096) 3. Past it, fewer frames are drawn (never none): the encoder's memory and CPU,
 * which grow with every frame's whole canvas, stay bounded (docs/performance.md "Countdown
 * timers").
 */
export const MAX_GIF_PIXELS = 17_000_000;

/** A timer sticker with its settings. */
export type TimerSticker = Sticker & { countdown: Countdown };

/** The design's countdown stickers, in z-order (at most the design's 10 dynamic stickers). */
export const timerStickers = (doc: DesignDocument): TimerSticker[] =>
  doc.graphics_data.filter(
    (s): s is TimerSticker =>
      s.stickerType === 'dynamicSticker' &&
      s.dynamicStickerType === 'countdown' &&
      s.countdown !== null,
  );

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
  const fit = Math.floor(MAX_GIF_PIXELS / (doc.canvas_width * doc.canvas_height));
  return Math.max(1, Math.min(asked, fit));
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
 * The values the render cache key holds for a design with timers (docs/decisions.md
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

/** A drawn region of the page, straight RGBA base64 (page/src/main.ts `DrawnLayer`). */
export interface DrawnRegion {
  left: number;
  top: number;
  width: number;
  height: number;
  rgba: string;
}

/** Draws scenes on the warm page, one region list per scene (renderer.ts). */
export type DrawScenes = (scenes: ResolvedScene[]) => Promise<DrawnRegion[][]>;

/** Blends a region onto RGB pixels (renderer.ts `blendOver`). */
export type Blend = typeof blendOver;

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

/**
 * Draws the timers of every frame over copies of the static pixels.
 * @param pixels the static layer with every other layer composed, RGB, `width` × `height` px;
 *   not changed.
 * @param mapText the render's "never tofu" filter for a layer's text (fonts.ts).
 * @returns the frames' RGB pixels, one after the other (`frames` × `width` × `height` × 3
 *   bytes), and the frame count.
 * @throws what `draw` throws (a failed page); the caller answers the fallback.
 */
export async function timerFramePixels(
  doc: DesignDocument,
  values: Record<string, string>,
  nowMs: number,
  image: { pixels: Buffer; width: number; height: number },
  draw: DrawScenes,
  blend: Blend,
  frames = gifFrameCount(doc),
  mapText: (layer: ResolvedTextLayer) => string = (layer) => layer.text,
): Promise<{ frames: Buffer; count: number }> {
  const timers = timerStickers(doc);
  const seconds = timerSeconds(doc, values, renderSecond(nowMs), frames);
  // Frames that show the same (expired ones) are drawn once.
  const keys = seconds.map((s) => s.join(','));
  const distinct = [...new Set(keys)];
  const scenes: ResolvedScene[] = distinct.map((key) => {
    const left = key.split(',').map(Number);
    return {
      width: doc.canvas_width,
      height: doc.canvas_height,
      images: [],
      texts: timers
        .flatMap((t, i) => countdownLayers(t.countdown, boxOf(t), left[i]!))
        .map((layer) => ({ ...layer, text: mapText(layer) })),
    };
  });
  const drawn = await draw(scenes);
  const size = image.width * image.height * 3;
  const out = Buffer.allocUnsafe(size * frames);
  keys.forEach((key, k) => {
    const frame = out.subarray(k * size, (k + 1) * size);
    image.pixels.copy(frame);
    for (const r of drawn[distinct.indexOf(key)] ?? [])
      blend(
        frame,
        image.width,
        image.height,
        r.left,
        r.top,
        r.width,
        r.height,
        Buffer.from(r.rgba, 'base64'),
      );
  });
  return { frames: out, count: frames };
}

/**
 * The frames as an animated GIF (sharp's gifsave over libvips/cgif): one second a frame, looping;
 * frame 1 is complete (clients that do not animate show it). No dithering and the encoder's
 * least effort, and the palette built once, from the first frame (which holds the timer's colours),
 * and reused for every frame (`interPaletteMaxError` 256): together about 2.5 times less CPU
 * than sharp's defaults, and flat digits (docs/performance.md "Countdown timers"). sharp takes
 * no palette from outside (its `reuse` keeps a GIF input's palette), so the palette cannot be
 * kept across renders of a design version (docs/decisions.md "Countdown timers").
 * @param frames RGB pixels of `count` frames of `width` × `height` px, one after the other.
 */
export function encodeGif(frames: Buffer, width: number, height: number, count: number) {
  return sharp(frames, { raw: { width, height: height * count, channels: 3, pageHeight: height } })
    .gif({
      delay: Array.from({ length: count }, () => 1000),
      loop: 0,
      reuse: true,
      effort: 1,
      dither: 0,
      // Always the first frame's palette: built once per render, never per frame.
      interPaletteMaxError: 256,
      keepDuplicateFrames: true,
    })
    .toBuffer();
}

/**
 * The header a test sets to fix the render's clock: ms since the epoch or an ISO 8601 time.
 * Honoured only under STAGE=test (the local stack the tests start), never locally for users or
 * in AWS (docs/decisions.md "Countdown timers").
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
