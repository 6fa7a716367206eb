/**
 * Animated designs at the `.gif` render URL (docs/animated-designs.md): a design whose base photo
 * is an animated GIF, or that has GIF stickers, plays their frames. The still layers (texts,
 * other stickers, watermarks) are drawn once by Chromium as for any render; here every source
 * GIF's frames are read with their delays (gif-frame.ts `readGifFrames`), laid on one timeline,
 * and each frame is composed only inside the rectangle the moving parts cover, then encoded by
 * the countdown engine over one palette (countdown-gif.ts `encodeGif`, gif-patches.ts).
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import type { DesignDocument } from '#shared/design.ts';
import { isGif } from '#shared/gif.ts';
import { MAX_GIF_PIXELS } from '#shared/scene/countdown.ts';
import { stickerBox } from '#shared/scene/resolve.ts';
import { publicFileKey } from '#shared/resources.ts';
import { stickerColour } from '#shared/scene/sticker-filters.ts';
import { blendOver } from './blend.ts';
import { blendRegions, encodeGif, type Rect, type TimerFrames } from './countdown-gif.ts';
import { overBudget, readGifFrames, type GifFrames } from './gif-frame.ts';

/** Most frames an animated design's GIF has (docs/animated-designs.md "Budgets"). */
export const MAX_ANIMATED_FRAMES = 100;

/** Longest an animated design's GIF plays before it loops, ms (docs/animated-designs.md "Budgets"). */
export const MAX_ANIMATED_DURATION_MS = 20_000;

/** Most bytes of an animated design's GIF (docs/animated-designs.md "Budgets"). */
export const MAX_ANIMATED_BYTES = 5 * 1024 * 1024;

/** One moving part: a GIF's frames fitted to its box on the canvas (px). */
export interface MovingPart {
  box: Rect;
  frames: GifFrames;
}

/** What moves in a design: its parts (base photo first) and the stickers the page must skip. */
export interface Animation {
  parts: MovingPart[];
  /** Uuids of the GIF stickers composed here, left out of the page's still draw. */
  stickerIds: Set<string>;
}

/** Reads a stored file's bytes from the assets bucket. */
async function assetBytes(key: string): Promise<Buffer> {
  const object = await s3Client().send(
    new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
  );
  return Buffer.from(await object.Body!.transformToByteArray());
}

/**
 * True when the design draws a GIF file (its base photo, or an image sticker whose url ends in
 * `.gif`): its `.gif` render URL answers its animation (docs/animated-designs.md "The URL").
 * Decided from the document alone; whether the GIF moves is read at render (`designAnimation`).
 */
export const hasGifSource = (doc: DesignDocument): boolean =>
  doc.base_image_key.toLowerCase().endsWith('.gif') ||
  doc.graphics_data.some(
    (s) => s.stickerType !== 'dynamicSticker' && s.url.toLowerCase().endsWith('.gif'),
  );

const unturned = (angle: number): boolean => Math.round(angle) % 360 === 0;

/**
 * The frames played from `start` (the frame the design saved, which its still renders draw),
 * wrapping round to the GIF's first after its last: so frame 1 of the output is the still the
 * user chose (docs/animated-designs.md "Frame 1"). An index past the last frame starts at the last.
 */
export function startingAt(frames: GifFrames, start: number | undefined): GifFrames {
  const from = Math.max(0, Math.min(frames.count - 1, Math.floor(start ?? 0)));
  if (from === 0) return frames;
  const at = (i: number) => (i + from) % frames.count;
  return {
    ...frames,
    delaysMs: frames.delaysMs.map((_, i) => frames.delaysMs[at(i)]!),
    frame: (index) => frames.frame(at(index)),
  };
}

/** `#rgb` or `#rrggbb` as [r, g, b] (0–255), or null for any other colour string. */
function hexRgb(colour: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/**
 * `frames` with a sticker's colour blended onto every frame in mode screen, as fabric's
 * `BlendColor` draws a coloured sticker's still (shared/scene/filters.ts `stickerColourFilters`;
 * docs/editor.md "Sticker colour"): each channel `255 - (255 - c)(255 - t) / 255`, rounded;
 * alpha kept. Each call to `frame` answers a new buffer.
 * @param colour `#rgb` or `#rrggbb`; anything else answers null (the sticker stays still).
 */
export function colouredFrames(frames: GifFrames, colour: string): GifFrames | null {
  const tint = hexRgb(colour);
  if (!tint) return null;
  return {
    ...frames,
    frame: (index) => {
      const out = Uint8Array.from(frames.frame(index));
      for (let i = 0; i < out.length; i += 4)
        for (let c = 0; c < 3; c++)
          out[i + c] = Math.round(255 - ((255 - out[i + c]!) * (255 - tint[c]!)) / 255);
      return out;
    },
  };
}

/**
 * The design's moving parts (docs/animated-designs.md "What moves"): the base photo when it is an
 * animated GIF drawn plain (no rotation, filter, enhancement; not a legacy design), fitted to
 * the canvas (cover, flips kept); each image sticker whose file is an animated GIF, unrotated,
 * fitted to its box, its colour (if any, a hex one) blended onto every frame (`colouredFrames`).
 * Others stay the still frame Chromium draws.
 * @returns null when nothing moves (the render answers its one-frame GIF).
 * @throws Error (cause `over-budget`) when a source passes gif-frame.ts's reading budget; S3
 *   and sharp errors as they come (the service answers the fallback).
 */
export async function designAnimation(doc: DesignDocument): Promise<Animation | null> {
  const parts: MovingPart[] = [];
  const stickerIds = new Set<string>();
  const canvas = { left: 0, top: 0, width: doc.canvas_width, height: doc.canvas_height };
  const plainBase =
    unturned(doc.image_angle) &&
    doc.legacy_base_image_width === null &&
    !Object.values(doc.filters).some(Boolean) &&
    !Object.values(doc.enhance).some((v) => v !== 0);
  if (plainBase && doc.base_image_key.toLowerCase().endsWith('.gif')) {
    const bytes = await assetBytes(doc.base_image_key);
    const frames = isGif(bytes)
      ? await readGifFrames(bytes, canvas.width, canvas.height, {
          flipX: doc.flip_x,
          flipY: doc.flip_y,
        })
      : null;
    if (frames && frames.count > 1)
      parts.push({ box: canvas, frames: startingAt(frames, doc.base_image_gif_frame) });
  }
  for (const sticker of doc.graphics_data) {
    if (sticker.stickerType === 'dynamicSticker' || !sticker.url.toLowerCase().endsWith('.gif'))
      continue;
    const key = publicFileKey(sticker.url);
    // Of a sticker's filters only the colour is drawn (docs/editor.md "Sticker colour").
    const colour = stickerColour(sticker.filters);
    if (!key || !unturned(sticker.angle)) continue;
    const b = stickerBox(sticker);
    const box = {
      left: Math.round(b.left),
      top: Math.round(b.top),
      width: Math.max(1, Math.round(b.width)),
      height: Math.max(1, Math.round(b.height)),
    };
    const bytes = await assetBytes(key);
    if (!isGif(bytes)) continue;
    const read = await readGifFrames(bytes, box.width, box.height, {});
    const frames = colour === null ? read : colouredFrames(read, colour);
    if (!frames || frames.count < 2) continue;
    parts.push({ box, frames: startingAt(frames, sticker.gif_frame) });
    stickerIds.add(sticker.uuid);
  }
  return parts.length > 0 ? { parts, stickerIds } : null;
}

/** The GIF's frames in time: each output frame's delay and, per part, the source frame shown. */
export interface Timeline {
  delaysMs: number[];
  /** `[frame][part]`: the part's source frame index. */
  shown: number[][];
}

/**
 * Lays the parts' frames on one timeline (docs/animated-designs.md "Timing"): it lasts as long as
 * the longest part's loop, a shorter part looping within it; a new frame starts wherever any part
 * changes frame.
 * @param delays per part, each source frame's delay, ms (gif-frame.ts: at least 20 ms).
 * @throws Error (cause `over-budget`) past {@link MAX_ANIMATED_FRAMES} frames or
 *   {@link MAX_ANIMATED_DURATION_MS}.
 */
export function timeline(delays: number[][]): Timeline {
  const loops = delays.map((d) => d.reduce((a, b) => a + b, 0));
  const total = Math.max(...loops);
  if (total > MAX_ANIMATED_DURATION_MS)
    throw overBudget(`animation of ${total} ms > ${MAX_ANIMATED_DURATION_MS} ms`);
  const starts = new Set<number>([0]);
  delays.forEach((d, p) => {
    // Bounded: each part loops total / loop times (each delay ≥ 20 ms, total ≤ the budget).
    for (let t = 0, i = 0; t < total; t += d[i % d.length]!, i++) {
      starts.add(t);
      if (starts.size > MAX_ANIMATED_FRAMES)
        throw overBudget(`more than ${MAX_ANIMATED_FRAMES} frames (part ${p})`);
    }
  });
  const times = [...starts].sort((a, b) => a - b);
  const frameAt = (d: number[], loop: number, t: number): number => {
    let at = t % loop;
    for (let i = 0; i < d.length; i++) {
      if (at < d[i]!) return i;
      at -= d[i]!;
    }
    return d.length - 1;
  };
  return {
    delaysMs: times.map((t, k) => (times[k + 1] ?? total) - t),
    shown: times.map((t) => delays.map((d, p) => frameAt(d, loops[p]!, t))),
  };
}

/** A region to blend: RGBA pixels at a canvas place, px. */
export interface Layer extends Rect {
  rgba: Uint8Array;
}

/**
 * The smallest rectangle holding every box, clipped to the canvas.
 * @throws Error when no box touches the canvas.
 */
function unionOf(boxes: Rect[], width: number, height: number): Rect {
  const x0 = Math.max(0, Math.min(...boxes.map((b) => b.left)));
  const y0 = Math.max(0, Math.min(...boxes.map((b) => b.top)));
  const x1 = Math.min(width, Math.max(...boxes.map((b) => b.left + b.width)));
  const y1 = Math.min(height, Math.max(...boxes.map((b) => b.top + b.height)));
  if (x1 <= x0 || y1 <= y0) throw new Error('animated parts lie off the canvas');
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Composes the animation's frames (docs/animated-designs.md "Composition"): in each frame the
 * still layer (`below`: the static layer with the directly drawn stickers), then the parts'
 * frames (base photo first, stickers in the design's order), then `above` (the page's drawn
 * texts, stickers and watermarks), so every text is drawn in every frame. Frame 1 is the whole
 * canvas; later frames only the rectangle the parts cover (`patch`).
 * @param below RGB, `width` × `height` px; not changed.
 * @throws Error (cause `over-budget`) when frame 1 and the patches pass {@link MAX_GIF_PIXELS}.
 */
export function animatedFrames(
  animation: Animation,
  below: { pixels: Buffer; width: number; height: number },
  above: Layer[],
): { frames: TimerFrames; delaysMs: number[] } {
  const { width, height } = below;
  const { parts } = animation;
  const time = timeline(parts.map((p) => p.frames.delaysMs));
  const count = time.delaysMs.length;
  const patch = unionOf(
    parts.map((p) => p.box),
    width,
    height,
  );
  const pixels = width * height + patch.width * patch.height * (count - 1);
  if (pixels > MAX_GIF_PIXELS)
    throw overBudget(`${count} frames of ${patch.width}x${patch.height} px > ${MAX_GIF_PIXELS} px`);
  const compose = (k: number, area: Rect): Buffer => {
    const out = Buffer.allocUnsafe(area.width * area.height * 3);
    for (let y = 0; y < area.height; y++) {
      const from = ((area.top + y) * width + area.left) * 3;
      below.pixels.copy(out, y * area.width * 3, from, from + area.width * 3);
    }
    const moving = parts.map((p, i) => ({ ...p.box, rgba: p.frames.frame(time.shown[k]![i]!) }));
    blendRegions(blendOver, out, area, [...moving, ...above]);
    return out;
  };
  const first = compose(0, { left: 0, top: 0, width, height });
  const size = patch.width * patch.height * 3;
  const patches = Buffer.allocUnsafe(size * count);
  for (let k = 0; k < count; k++) compose(k, patch).copy(patches, k * size);
  return { frames: { first, width, height, count, patch, patches }, delaysMs: time.delaysMs };
}

/**
 * Most pixels the later frames' palette is quantised from (docs/animated-designs.md "Palette"):
 * about a quarter of a 1000×625 frame. Quantising costs with the pixels; past this many, an even
 * sample reads as well (docs/performance.md "Animated designs").
 */
const PALETTE_SAMPLE_PIXELS = 160_000;

/**
 * The pixels the later frames' palette is quantised from (docs/animated-designs.md "Palette"):
 * every frame's patch (frame 1's too), all of their pixels when they are at most
 * {@link PALETTE_SAMPLE_PIXELS}, else that many taken at even steps across them all (so each
 * frame and each place in the patch is sampled). Only the patch rectangle is ever drawn with that
 * palette, so nothing outside it is read.
 * @returns RGB rows `patch.width` px wide (at least one).
 */
function patchPaletteSource(t: TimerFrames): Buffer {
  const { width } = t.patch;
  const total = t.patches.length / 3;
  if (total <= PALETTE_SAMPLE_PIXELS) return t.patches;
  const rows = Math.max(1, Math.floor(PALETTE_SAMPLE_PIXELS / width));
  const count = rows * width;
  const out = Buffer.allocUnsafe(count * 3);
  for (let p = 0; p < count; p++) {
    const from = Math.floor((p * total) / count) * 3;
    out[p * 3] = t.patches[from]!;
    out[p * 3 + 1] = t.patches[from + 1]!;
    out[p * 3 + 2] = t.patches[from + 2]!;
  }
  return out;
}

/**
 * The composed frames as one animated GIF (countdown-gif.ts `encodeGif`: frame 1 complete, over
 * its own palette; the later frames as patches over one palette quantised from the patches'
 * pixels, `patchPaletteSource`), looping forever.
 * @throws Error (cause `over-budget`) past {@link MAX_ANIMATED_BYTES}; what sharp throws.
 */
export async function encodeAnimated(moving: {
  frames: TimerFrames;
  delaysMs: number[];
}): Promise<Buffer> {
  const gif = await encodeGif(moving.frames, moving.delaysMs, patchPaletteSource(moving.frames));
  if (gif.length > MAX_ANIMATED_BYTES)
    throw overBudget(`${gif.length} bytes > ${MAX_ANIMATED_BYTES}`);
  return gif;
}
