/**
 * A sticker's colour filter (docs/editor.md "Sticker colour"): the first of a sticker's saved
 * filters carries a colour that fabric blends onto the sticker image in mode screen, the same in
 * the editor and on the render page (both draw stickers with shared/scene/draw.ts `imageLayer`,
 * through shared/scene/filters.ts `stickerColourFilters`). Pure.
 */
import type { Sticker } from '../design.ts';

/** The blend mode of a sticker's colour filter: always screen. */
export const STICKER_COLOUR_MODE = 'screen';

type SavedFilters = Sticker['filters'];

/**
 * The colour a sticker's filters blend onto it: the first filter's `color` when it is a non-empty
 * string, else null (no filters, or a first filter without a colour). The saved `mode` is not
 * read: the colour is always drawn in mode screen.
 */
export function stickerColour(saved: SavedFilters): string | null {
  const colour = saved[0]?.color;
  return typeof colour === 'string' && colour.trim() !== '' ? colour : null;
}

/**
 * `saved` with its colour set to `colour` (a CSS colour such as `#ff0000`) or cleared (null): the
 * first filter becomes `{ type: 'BlendColor', color, mode: 'screen', alpha: 1 }`; clearing
 * removes a first filter that carries a colour. Later filters are kept. Returns a new list.
 */
export function withStickerColour(saved: SavedFilters, colour: string | null): SavedFilters {
  const rest = stickerColour(saved) === null ? saved : saved.slice(1);
  if (colour === null) return [...rest];
  return [{ type: 'BlendColor', color: colour, mode: STICKER_COLOUR_MODE, alpha: 1 }, ...rest];
}
