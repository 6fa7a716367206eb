/**
 * The canvas clamps of a text snippet (docs/editor.md "Editing rules": "Canvas"): inside the
 * canvas, at least 5 px from the edges, the box no narrower than its widest line nor wider than the
 * canvas allows, and a snippet far outside re-centred. The box rule itself is `clampBox`
 * (./snippets.ts); this module applies it to a whole snippet after any change that moves, resizes
 * or re-flows it (a drag, a resize, a text, font or size change), so every command leaves the same
 * result.
 *
 * Units: canvas px.
 */
import type { TextSnippet } from '#shared/design.ts';
import {
  LINE_HEIGHT_FACTOR,
  clampBox,
  maxSnippetWidth,
  type Box,
  type CanvasSize,
} from './snippets.ts';

/**
 * The height a snippet takes, px: what the canvas last measured (`height`), else its lines
 * (one per line break of the text) at 1.5 times the font size (docs/editor.md "Constants": "snippet
 * height is 1.5 times font size plus extra line heights").
 */
export function estimatedHeight(
  snippet: Pick<TextSnippet, 'height' | 'fontSize' | 'text'>,
): number {
  if (snippet.height !== null) return snippet.height;
  const lines = snippet.text.split('\n').length;
  return Math.ceil(lines * snippet.fontSize * LINE_HEIGHT_FACTOR);
}

/**
 * A text box width after a resize (docs/editor.md "Editing rules": "Text width cannot shrink below
 * the widest line"): at least `widestLine` (the widest word or line the canvas measured, px), at
 * most the canvas less its 5 px margins, whole px.
 * @param widestLine px; 0 when unknown.
 */
export function clampTextWidth(width: number, widestLine: number, canvas: CanvasSize): number {
  const most = maxSnippetWidth(canvas);
  return Math.round(Math.min(most, Math.max(1, widestLine, width)));
}

/**
 * A snippet's box after the clamps (docs/editor.md "Editing rules"): the width kept within the
 * canvas margins, the position at least 5 px inside every edge, re-centred when the box is entirely
 * outside.
 * @returns the corrected `left`, `top` and `width`, px (equal to the input when it was fine).
 */
export function clampSnippet(
  snippet: Pick<TextSnippet, 'left' | 'top' | 'width' | 'height' | 'fontSize' | 'text'>,
  canvas: CanvasSize,
): Pick<Box, 'left' | 'top' | 'width'> {
  const width = Math.min(snippet.width, maxSnippetWidth(canvas));
  const height = Math.min(estimatedHeight(snippet), canvas.height);
  const { left, top } = clampBox({ left: snippet.left, top: snippet.top, width, height }, canvas);
  return { left, top, width };
}
