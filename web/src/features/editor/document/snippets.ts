/**
 * Pure text snippet operations of the editor (docs/editor.md "Commands": "Editor changes",
 * docs/editor.md "Editing rules" canvas rules, docs/editor.md "Constants" constants): the new
 * snippet, the canvas clamps and the linked font sizes. No fabric, no DOM: the store's commands
 * call these, and the unit tests run them in node.
 *
 * Units: canvas px (the design's own pixels, not screen pixels), font sizes in px.
 */
import {
  DEFAULT_FONT_SIZE,
  MAX_FONT_SIZE,
  TextSnippetSchema,
  halfFontSize,
  type DesignDocument,
  type TextSnippet,
} from '#shared/design.ts';
import { EDGE_MARGIN_PX } from '#shared/scene/resolve.ts';

/** A new snippet's text before its number: "Snippet 1", "Snippet 2", … (docs/editor.md "Constants"). */
export const DEFAULT_SNIPPET_TEXT = 'Snippet';

/** How long the add-snippet button stays disabled after use, ms (docs/editor.md "Commands": "Search/add"). */
export const ADD_SNIPPET_COOLDOWN_MS = 1000;

/** A snippet's line height as a share of its font size (docs/editor.md "Constants": "1.5 times font size"). */
export const LINE_HEIGHT_FACTOR = 1.5;

/** The box a new snippet gets, px: wide enough for "Snippet 12" at 32 px with room to type. */
export const NEW_SNIPPET_WIDTH = 320;

/** How far each further new snippet is moved down and right from the previous one, px. */
const CASCADE_PX = 24;

/** The canvas of a design, px. */
export interface CanvasSize {
  width: number;
  height: number;
}

/** A box on the canvas, px (top-left corner and size). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The canvas size of a design, px. */
export const canvasOf = (design: DesignDocument): CanvasSize => ({
  width: design.canvas_width,
  height: design.canvas_height,
});

/**
 * The first free default text: "Snippet 1", else "Snippet 2", … (docs/editor.md "Constants":
 * "Default snippet text 'Snippet' with numeric suffix for uniqueness"). A snippet's text counts as
 * taken whatever its case or surrounding spaces.
 */
export function nextSnippetText(design: DesignDocument): string {
  const taken = new Set(design.text_snippets.map((s) => s.text.trim().toLowerCase()));
  for (let n = 1; ; n++) {
    const text = `${DEFAULT_SNIPPET_TEXT} ${n}`;
    if (!taken.has(text.toLowerCase())) return text;
  }
}

/**
 * The height a snippet takes on the canvas, px: what the canvas last measured (`height`), else
 * one line at 1.5 times the font size (docs/editor.md "Constants").
 */
export const snippetHeight = (snippet: TextSnippet): number =>
  snippet.height ?? Math.ceil(snippet.fontSize * LINE_HEIGHT_FACTOR);

/**
 * Keeps a box inside the canvas, at least 5 px from every edge (docs/editor.md "Editing rules":
 * "Snippets are kept at least 5 px inside the edges"; "moving or scaling objects is clamped inside
 * the canvas"). A box wider (or taller) than the room is put at the 5 px margin. A box entirely
 * outside the canvas is re-centred (docs/editor.md "Editing rules": "far-outside snippets are
 * re-centred").
 * @returns the box's new top-left corner, rounded to whole px (a drag on a zoomed canvas gives
 *   fractions no one can see or type).
 */
export function clampBox(box: Box, canvas: CanvasSize): { left: number; top: number } {
  const outside =
    box.left >= canvas.width ||
    box.top >= canvas.height ||
    box.left + box.width <= 0 ||
    box.top + box.height <= 0;
  const wanted = outside
    ? { left: (canvas.width - box.width) / 2, top: (canvas.height - box.height) / 2 }
    : box;
  const clamp = (value: number, size: number, room: number) =>
    Math.max(EDGE_MARGIN_PX, Math.min(value, room - EDGE_MARGIN_PX - size));
  return {
    left: Math.round(clamp(wanted.left, box.width, canvas.width)),
    top: Math.round(clamp(wanted.top, box.height, canvas.height)),
  };
}

/** The widest box a snippet may have: the canvas less the 5 px margins, px (docs/editor.md "Editing rules"). */
export const maxSnippetWidth = (canvas: CanvasSize): number =>
  Math.max(1, canvas.width - 2 * EDGE_MARGIN_PX);

/** The boxes the design's texts and stickers take, px. */
export function takenBoxes(design: DesignDocument): Box[] {
  return [
    ...design.text_snippets.map((t) => ({
      left: t.left,
      top: t.top,
      width: t.width,
      height: t.height ?? 0,
    })),
    ...design.graphics_data.map((s) => ({
      left: s.left,
      top: s.top,
      width: s.width * s.scaleX,
      height: s.height * s.scaleY,
    })),
  ];
}

/** How far apart a new text is put from what is already there, px. */
const NEW_SNIPPET_GAP_PX = 8;

/**
 * `spot`, or the nearest place straight below or above it (in steps of the box's height and
 * an 8 px gap, at most 20 each way, inside the canvas) that overlaps no text or sticker: a new
 * text does not land on the design's others (test/unit/editor-store.test.ts). When no such place
 * is found, `spot`.
 */
function clearOfOthers(
  design: DesignDocument,
  spot: { left: number; top: number },
  size: { width: number; height: number },
): { left: number; top: number } {
  const canvas = canvasOf(design);
  const boxes = takenBoxes(design);
  const free = (top: number) =>
    top >= EDGE_MARGIN_PX &&
    top + size.height <= canvas.height - EDGE_MARGIN_PX &&
    !boxes.some(
      (b) =>
        spot.left < b.left + b.width &&
        b.left < spot.left + size.width &&
        top < b.top + b.height &&
        b.top < top + size.height,
    );
  const step = size.height + NEW_SNIPPET_GAP_PX;
  for (let k = 0; k <= 20; k++) {
    for (const top of k === 0 ? [spot.top] : [spot.top + k * step, spot.top - k * step]) {
      if (free(top)) return { left: spot.left, top: Math.round(top) };
    }
  }
  return spot;
}

/**
 * How a new text snippet looks (docs/editor.md "Deliberate deviations"): bold sans-serif, white,
 * with a 2 px dark outline, readable on light and dark photos alike.
 */
export const NEW_SNIPPET_STYLE = {
  fontFamily: 'Noto Sans',
  fontWeight: 'bold',
  fill: '#ffffff',
  stroke: '#1f2937',
  strokeWidth: 2,
} as const;

/**
 * A new text snippet (docs/editor.md "Constants"): the first free "Snippet n" text, font size 32
 * with the linked minimum 16, centred text in a 320 px box (narrower on a small canvas) in the
 * middle of the canvas, each further new snippet 24 px lower and to the right, clamped inside. It
 * is drawn legibly on any photo: bold Noto Sans, white with a dark outline ({@link
 * NEW_SNIPPET_STYLE}; docs/editor.md "Deliberate deviations": the spec's black Journal vanished on
 * dark photos). Every other field takes the
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" default.
 * @param id the new snippet's id (a uuid).
 */
export function newTextSnippet(design: DesignDocument, id: string): TextSnippet {
  const canvas = canvasOf(design);
  const text = nextSnippetText(design);
  const width = Math.min(NEW_SNIPPET_WIDTH, maxSnippetWidth(canvas));
  const height = Math.ceil(DEFAULT_FONT_SIZE * LINE_HEIGHT_FACTOR);
  const n = Number(text.slice(DEFAULT_SNIPPET_TEXT.length + 1)) - 1;
  const offset = (n % 6) * CASCADE_PX;
  const { left, top } = clearOfOthers(
    design,
    clampBox(
      {
        left: (canvas.width - width) / 2 + offset,
        top: (canvas.height - height) / 2 + offset,
        width,
        height,
      },
      canvas,
    ),
    { width, height },
  );
  return TextSnippetSchema.parse({
    id,
    text,
    original_text: text,
    fontSize: DEFAULT_FONT_SIZE,
    ...NEW_SNIPPET_STYLE,
    textAlign: 'center',
    width,
    height,
    left,
    top,
    linked: true,
  });
}

/**
 * The font size and minimum size after the user sets the font size (docs/editor.md "Commands":
 * "Linked font sizes"; docs/editor.md "Editing rules": "max font size value 80", "the shrink-until
 * size cannot exceed the current font size"): the size is rounded and kept in 1–80; while linked
 * the minimum is half of it; while unlinked a size below the minimum lowers the minimum to it.
 */
export function withFontSize(
  snippet: Pick<TextSnippet, 'linked' | 'minFontSize'>,
  fontSize: number,
): { fontSize: number; minFontSize: number } {
  const size = Math.max(1, Math.min(MAX_FONT_SIZE, Math.round(fontSize)));
  if (snippet.linked) return { fontSize: size, minFontSize: halfFontSize(size) };
  return { fontSize: size, minFontSize: Math.min(snippet.minFontSize, size) };
}

/**
 * How a snippet is named in the Snippets panel's list: its title when it has one (a clone's
 * 'Copy of - …', docs/editor.md "Editing rules"), else its text, else "(empty)".
 */
export function snippetLabel(snippet: Pick<TextSnippet, 'text' | 'display_info'>): string {
  const title = snippet.display_info?.title;
  if (typeof title === 'string' && title.trim() !== '') return title;
  return snippet.text.trim() || '(empty)';
}
