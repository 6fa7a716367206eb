/**
 * The text toolbar's pure rules (docs/editor.md "Architecture": "Text toolbar",
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" text snippet fields and editor state, docs/editor.md "Commands": "Linked font sizes",
 * docs/editor.md "Editing rules" ranges, docs/editor.md "Constants" colour history). Fonts are the
 * font catalogue's (shared/fonts, web/src/features/fonts). No React, no fabric, no DOM: the
 * commands (../commands/text.ts) and the toolbar call these, and the unit tests run them in node.
 *
 * Units: font sizes and outline widths in px, angles in degrees.
 */
import { MAX_FONT_SIZE, halfFontSize, type TextSnippet } from '#shared/design.ts';

/**
 * The minimum (shrink-until) size after the user sets it on an unlinked snippet (docs/editor.md
 * "Editing rules" "the shrink-until size cannot exceed the current font size"): rounded, at least 1
 * px, at most the font size. A linked snippet keeps half its font size (docs/editor.md "Commands"),
 * so the value is ignored there.
 */
export function withMinFontSize(
  snippet: Pick<TextSnippet, 'linked' | 'fontSize' | 'minFontSize'>,
  minFontSize: number,
): { minFontSize: number } {
  if (snippet.linked) return { minFontSize: halfFontSize(snippet.fontSize) };
  const size = Math.round(minFontSize);
  return { minFontSize: Math.max(1, Math.min(snippet.fontSize, MAX_FONT_SIZE, size)) };
}

/**
 * The sizes after the link toggle (docs/editor.md "Commands": "Linked font sizes"): linking sets
 * the minimum to half the current size, rounded; unlinking keeps the minimum as it is.
 */
export function withLinked(
  snippet: Pick<TextSnippet, 'fontSize' | 'minFontSize'>,
  linked: boolean,
): { linked: boolean; minFontSize: number } {
  return {
    linked,
    minFontSize: linked ? halfFontSize(snippet.fontSize) : snippet.minFontSize,
  };
}

/** Rotation, degrees: rounded to 0.1 and kept in 0–360 (docs/editor.md "Editing rules": "rotation 0 to 360"). */
export const clampAngle = (angle: number): number =>
  Number.isFinite(angle) ? Math.min(360, Math.max(0, Math.round(angle * 10) / 10)) : 0;

/** Outline width, px: kept in 0–5 (docs/editor.md "Editing rules": "Stroke width 0 to 5"), to 0.5 px. */
export const clampStrokeWidth = (width: number): number =>
  Number.isFinite(width) ? Math.min(5, Math.max(0, Math.round(width * 2) / 2)) : 0;

/** The outline colour a snippet gets when its outline is first widened (docs/editor.md "Constants": "white"). */
export const DEFAULT_STROKE = '#ffffff';

/** Named colours the stored data uses (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": "fill (default black)"). */
const NAMED: Record<string, string> = { black: '#000000', white: '#ffffff' };

/**
 * A stored colour as `#rrggbb` for the pickers: `black` → `#000000`, `#FFF` → `#ffffff`;
 * anything else unreadable → `#000000`.
 */
export function hexColour(value: string | null): string {
  const named = NAMED[(value ?? '').toLowerCase()];
  return named ?? parseHex(value ?? '') ?? '#000000';
}

/**
 * Reads a typed hex colour (docs/editor.md "Editing rules": "Hex colour must be 2, 3 or 6
 * characters"), with or without `#`: 6 digits as they are, 3 as the short form (`f80` → `#ff8800`),
 * 2 as a grey (`80` → `#808080`; docs/adr/0031-editor-text-tools.md "Editor text tools").
 * @returns `#rrggbb` in lower case, or null when the text is not such a colour.
 */
export function parseHex(typed: string): string | null {
  const digits = typed.trim().replace(/^#/, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(digits)) return null;
  if (digits.length === 6) return `#${digits}`;
  if (digits.length === 3) return `#${[...digits].map((d) => d + d).join('')}`;
  if (digits.length === 2) return `#${digits.repeat(3)}`;
  return null;
}

/** Colours kept per kind in the recent-colours history (docs/editor.md "Constants": "Colour history keeps 5"). */
export const COLOUR_HISTORY_SIZE = 5;

/** The two histories of docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": text fill (`color`) and outline (`outline`). */
export type ColourKind = 'color' | 'outline';
export type ColourHistory = Record<ColourKind, string[]>;

/**
 * The history after using `colour`: most recent first, each colour once (compared as
 * `#rrggbb`), at most 5 (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore", docs/editor.md "Constants").
 */
export function pushRecentColour(history: readonly string[], colour: string): string[] {
  const hex = hexColour(colour);
  return [hex, ...history.filter((c) => hexColour(c) !== hex)].slice(0, COLOUR_HISTORY_SIZE);
}

/** The part of `Storage` the history needs (localStorage in the browser; a map in tests). */
export type ColourStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Keeps only well-formed colours of a stored list, at most 5. */
function storedList(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((c): c is string => typeof c === 'string' && parseHex(c) !== null)
    .map((c) => parseHex(c)!)
    .slice(0, COLOUR_HISTORY_SIZE);
}

/** The stored object under the user's id, or an empty one when absent or unreadable. */
function storedObject(storage: ColourStorage, userId: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(userId) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {}; // someone else's or a broken value: start a fresh history
  }
}

/**
 * The user's recent colours (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore": "kept per user in local storage under the user id, fields color
 * and outline"). Unreadable data reads as empty lists.
 */
export function readColourHistory(storage: ColourStorage, userId: string): ColourHistory {
  const stored = storedObject(storage, userId);
  return { color: storedList(stored.color), outline: storedList(stored.outline) };
}

/**
 * Records a used colour in the user's history and returns the new history. Other fields stored
 * under the user id are kept. A storage that refuses (full, private mode) keeps the history for
 * this page only: the error is logged, not thrown.
 */
export function rememberColour(
  storage: ColourStorage,
  userId: string,
  kind: ColourKind,
  colour: string,
): ColourHistory {
  const stored = storedObject(storage, userId);
  const history = readColourHistory(storage, userId);
  const next = { ...history, [kind]: pushRecentColour(history[kind], colour) };
  try {
    storage.setItem(userId, JSON.stringify({ ...stored, ...next }));
  } catch (error) {
    console.warn('The recent colours could not be saved', error);
  }
  return next;
}
