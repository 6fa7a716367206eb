/**
 * What the editor draws for a poll sticker (docs/editor.md "Poll"; docs/polls.md "Drawing"):
 * the bars as the sticker's own image and the texts over every object, both from the shared
 * layout the render draws with (shared/scene/poll.ts `pollLayers`, `pollBarsSvg`), with sample
 * results when the poll shows results. Pure; test/unit/editor-poll.test.ts.
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import {
  pollBarsSvg,
  pollBox,
  pollLayers,
  POLL_SIZE,
  svgDataUrl,
  type Poll,
  type PollDrawing,
} from '#shared/scene/poll.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import { samplePollCounts } from './poll.ts';

/**
 * The poll sticker's layers in canvas px, as the render lays them out for the sticker's box
 * (`pollLayers(poll, pollBox(sticker), samplePollCounts(poll))`).
 */
export const pollPreviewLayers = (sticker: Sticker & { poll: Poll }): PollDrawing =>
  pollLayers(sticker.poll, pollBox(sticker), samplePollCounts(sticker.poll));

/**
 * The poll sticker's own image: its bars laid out in its intrinsic 600x400 box at scale 1, an
 * SVG data URL the canvas scales with the sticker (the layout is proportional to the scale, so
 * the bars fall where the render draws them at any size).
 */
export function pollImage(poll: Poll): string {
  const box = { id: 'poll', left: 0, top: 0, ...POLL_SIZE, scale: 1 };
  return svgDataUrl(pollBarsSvg(box, pollLayers(poll, box, samplePollCounts(poll)).bars));
}

/** The text layers of the design's polls (at most one), drawn over every object, canvas px. */
export function pollTextLayers(design: DesignDocument): ResolvedTextLayer[] {
  return design.graphics_data.flatMap((s) =>
    s.dynamicStickerType === 'poll' && s.poll
      ? pollPreviewLayers({ ...s, poll: s.poll }).texts
      : [],
  );
}
