/**
 * Countdown timers in the design's layer order (docs/adr/0058-countdown-timers.md "Countdown
 * timers", "Animated output"): which stickers are timers, and the design's other layers cut at
 * them. The render's GIF frames (functions/render/countdown-gif.ts) and the editor's canvas
 * (web/src/features/editor/canvas/countdown.ts) stack timers by this one rule.
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import type { Countdown } from './countdown.ts';
import type { ResolvedScene } from './resolve.ts';

/** A countdown sticker with its settings. */
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
 * The design's personalised layers cut at its timers, in z-order: band 0 holds the stickers
 * under the first timer, band j the stickers between timer j and the next, and the last band the
 * stickers over the last timer, every text and the watermarks (texts lie over every sticker and
 * watermarks over everything: shared/scene/draw.ts `drawScene`). A timer's own sticker lies in
 * the band under its digits; an image that is no sticker of the design, in the last band. So a
 * timer is drawn as the still would be at that second: band 0, timer 1, band 1, …, the last band
 * (test/integration/render-countdown.test.ts, the sticker over the timer;
 * test/unit/countdown-gif-frames.test.ts "scene bands").
 * @returns `timers.length + 1` scenes of the canvas's size.
 */
export function sceneBands(doc: DesignDocument, scene: ResolvedScene): ResolvedScene[] {
  const order = new Map(doc.graphics_data.map((s, i) => [s.uuid, i]));
  const cuts = timerStickers(doc).map((t) => order.get(t.uuid)!);
  const bands: ResolvedScene[] = [...cuts, 0].map(() => ({
    width: scene.width,
    height: scene.height,
    images: [],
    texts: [],
  }));
  for (const image of scene.images) {
    const at = order.get(image.id) ?? Number.POSITIVE_INFINITY;
    bands[cuts.filter((cut) => cut < at).length]!.images.push(image);
  }
  const top = bands[cuts.length]!;
  top.texts = scene.texts;
  if (scene.watermarks) top.watermarks = scene.watermarks;
  return bands;
}
