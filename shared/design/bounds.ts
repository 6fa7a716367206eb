/**
 * The design bounds and field limits: canvas and font-size defaults, the sizes and counts no
 * real design reaches, and the messages of a field past them (docs/security.md "Design bounds").
 */

/** Default canvas, px (docs/editor.md "Constants"). */
export const DEFAULT_CANVAS = { width: 900, height: 600 } as const;
/** Longest alt-text template, characters (docs/export.md "Alt text": a sentence or two). */
export const MAX_ALT_TEXT_LENGTH = 500;

/** Widest canvas, px (docs/editor.md "Editing rules", docs/editor.md "Constants"). */
export const MAX_CANVAS_WIDTH = 1056;
/**
 * Design bounds (docs/security.md "Design bounds"): sizes and counts no real design reaches, so
 * that no design, however written, costs a render or the editor more than these. Enforced by
 * the schemas below on every write; `restoreDesign` clamps or cuts a stored design past them.
 * Units: px for sizes, characters (code points, as zod counts them) for text, items for counts.
 */
export const DESIGN_BOUNDS = {
  /** Canvas width, px (docs/editor.md "Editing rules", docs/editor.md "Constants"). */
  canvasWidth: MAX_CANVAS_WIDTH,
  /** Canvas height, px: four times the widest canvas. */
  canvasHeight: 4096,
  /** Text snippets in a design. */
  textSnippets: 50,
  /** A snippet's text (and first text) with its placeholders, characters. */
  textLength: 1000,
  /** Parameters (merge fields) of one text snippet. */
  parametersPerSnippet: 20,
  /** A snippet's box width, height and widths kept by the editor, px. */
  snippetSize: 4096,
  /** Stickers of every kind in a design. */
  stickers: 50,
  /** Dynamic stickers (QR, gravatar, hosted image, screenshot) in a design. */
  dynamicStickers: 10,
  /** A sticker's intrinsic width and height, px (512 and 910 in practice, docs/editor.md "Constants"). */
  stickerSize: 4096,
  /** A sticker's scaleX and scaleY. */
  stickerScale: 100,
  /** A sticker's drawn width and height (intrinsic size × scale), px. */
  stickerDrawnSize: 4096,
} as const;

/**
 * Messages of the bounds in Laravel's wording, as the spec's own use it ('The title may not be
 * greater than 255 characters', docs/editor.md "Editing rules").
 */
export const tooLong = (field: string, max: number) =>
  `The ${field} may not be greater than ${max} characters.`;
export const tooBig = (field: string, max: number) =>
  `The ${field} may not be greater than ${max}.`;
export const tooMany = (field: string, max: number) =>
  `The ${field} may not have more than ${max} items.`;

/** Largest font size, px (docs/editor.md "Editing rules": "max font size value 80"). */
export const MAX_FONT_SIZE = 80;
/** A new snippet's font size, px (docs/editor.md "Constants"). */
export const DEFAULT_FONT_SIZE = 32;

/** The minimum font size a linked snippet gets: half the font size, rounded (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"). */
export const halfFontSize = (fontSize: number): number => Math.max(1, Math.round(fontSize / 2));

/** A blank fallback is stored as one space (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"). */
export const blankAsSpace = (value: string): string => (value.trim() === '' ? ' ' : value);

/** A finite number above zero (a known image size). */
export const isPositive = (n: number) => Number.isFinite(n) && n > 0;
