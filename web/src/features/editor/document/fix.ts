/**
 * `?fix=true` (docs/editor.md "Architecture": "Adding ?fix=true to the editor address shrinks any
 * object larger than the canvas and then saves"): the repair for designs whose objects outgrew
 * their canvas (a canvas resized smaller, an old import). Pure: it changes a document (an immer
 * draft in the editor, so the repair is one undo step) and says what it changed.
 *
 * - A text snippet wider than the canvas less its 5 px margins (docs/editor.md "Editing rules")
 *   takes that width; its text then wraps and fits as usual.
 * - A sticker whose drawn box (width × scaleX by height × scaleY, px) is larger than the canvas
 *   less the margins is scaled down about its centre, keeping its aspect, until it fits.
 * Either is then moved inside the canvas with the editor's clamps (document/snippets.ts).
 * Rotation is not considered: sizes are the unrotated box, as the editor's clamps measure it.
 */
import type { DesignDocument } from '#shared/design.ts';
import { EDGE_MARGIN_PX } from '#shared/scene/resolve.ts';
import { clampBox, maxSnippetWidth, type CanvasSize } from './snippets.ts';

/** The sticker's top-left corner, whatever its origin (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" originX/originY). */
function topLeft(
  origin: { originX: string; originY: string },
  at: { left: number; top: number },
  size: { width: number; height: number },
) {
  const dx =
    origin.originX === 'center' ? size.width / 2 : origin.originX === 'right' ? size.width : 0;
  const dy =
    origin.originY === 'center' ? size.height / 2 : origin.originY === 'bottom' ? size.height : 0;
  return { left: at.left - dx, top: at.top - dy, dx, dy };
}

/**
 * Shrinks every object larger than the canvas (see the module comment), in place.
 * @param design the document (or an immer draft of it); canvas size in px.
 * @returns one note per object changed, e.g. `text snippet "Hello" narrowed to 990 px`; empty
 *   when nothing was too large (the document is then untouched).
 */
export function fixOversizedObjects(design: DesignDocument): string[] {
  const canvas: CanvasSize = { width: design.canvas_width, height: design.canvas_height };
  const notes: string[] = [];
  const widest = maxSnippetWidth(canvas);
  for (const snippet of design.text_snippets) {
    if (snippet.width <= widest) continue;
    snippet.width = widest;
    if (snippet.maxWidth !== null && snippet.maxWidth > widest) snippet.maxWidth = widest;
    const at = clampBox(
      { left: snippet.left, top: snippet.top, width: widest, height: snippet.height ?? 0 },
      canvas,
    );
    snippet.left = at.left;
    snippet.top = at.top;
    notes.push(`text snippet "${snippet.text.slice(0, 40)}" narrowed to ${widest} px`);
  }
  const room = {
    width: Math.max(1, canvas.width - 2 * EDGE_MARGIN_PX),
    height: Math.max(1, canvas.height - 2 * EDGE_MARGIN_PX),
  };
  for (const sticker of design.graphics_data) {
    const drawn = {
      width: sticker.width * sticker.scaleX,
      height: sticker.height * sticker.scaleY,
    };
    const factor = Math.min(room.width / drawn.width, room.height / drawn.height);
    if (factor >= 1) continue;
    const before = topLeft(sticker, sticker, drawn);
    const centre = { x: before.left + drawn.width / 2, y: before.top + drawn.height / 2 };
    sticker.scaleX *= factor;
    sticker.scaleY *= factor;
    const size = { width: drawn.width * factor, height: drawn.height * factor };
    const at = clampBox(
      { left: centre.x - size.width / 2, top: centre.y - size.height / 2, ...size },
      canvas,
    );
    const offset = topLeft(sticker, { left: 0, top: 0 }, size);
    sticker.left = at.left + offset.dx;
    sticker.top = at.top + offset.dy;
    notes.push(`sticker scaled to ${Math.round(size.width)} × ${Math.round(size.height)} px`);
  }
  return notes;
}
