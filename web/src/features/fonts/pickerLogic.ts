/**
 * The font picker's list logic, without React (unit-tested in test/unit/fonts-picker.test.ts):
 * the category select, search and keyboard movement of docs/fonts.md "Limits and known gaps"
 * (categories All Fonts and Uploaded plus the server groups; page size 50, row height 28 px,
 * container 350 px).
 */
import type { CustomFont, FontGroup, FontOption } from '#shared/fonts/types.ts';

/** Options added per page as the list scrolls (docs/fonts.md "Limits and known gaps"). */
export const FONT_PAGE_SIZE = 50;
/** Row height, px (docs/fonts.md "Limits and known gaps"). */
export const FONT_ROW_HEIGHT = 28;
/** Height of the scrolling list, px (docs/fonts.md "Limits and known gaps"). */
export const FONT_LIST_HEIGHT = 350;
/** Debounce of the font search, ms (docs/fonts.md "Limits and known gaps": "400 ms … font search"). */
export const FONT_SEARCH_DEBOUNCE_MS = 400;

export const ALL_FONTS = 'All Fonts';
export const UPLOADED = 'Uploaded';

/** A row of the list: a font option, marked when it is the team's upload. */
export interface FontRowOption extends FontOption {
  uploaded?: boolean;
}

/** The category select's entries: All Fonts, Uploaded, then the server groups by weight. */
export function fontCategories(groups: readonly FontGroup[]): string[] {
  const labels = [...groups].sort((a, b) => a.weight - b.weight).map((g) => g.label);
  return [ALL_FONTS, UPLOADED, ...labels.filter((l) => l !== ALL_FONTS && l !== UPLOADED)];
}

/** Lower case without accents, for search. */
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The options of a category matching a search, in list order. All Fonts lists the uploads,
 * then every group in weight order, each family once. The search matches anywhere in the
 * name, case and accents folded; names that start with it come first. A disabled family (a
 * catalogue name without files, drawn with the default font) is listed only when it is
 * `current`, the text's own family (docs/fonts.md "The catalogue").
 */
export function filterFonts(
  groups: readonly FontGroup[],
  custom: readonly CustomFont[],
  category: string,
  search: string,
  current = '',
): FontRowOption[] {
  const uploads: FontRowOption[] = custom.map((f) => ({
    family: f.family,
    category: 'display',
    uploaded: true,
  }));
  let options: FontRowOption[];
  if (category === UPLOADED) options = uploads;
  else {
    const sorted = [...groups].sort((a, b) => a.weight - b.weight);
    const chosen = category === ALL_FONTS ? sorted : sorted.filter((g) => g.label === category);
    options = [...(category === ALL_FONTS ? uploads : []), ...chosen.flatMap((g) => g.options)];
  }
  const seen = new Set<string>();
  options = options.filter((o) => {
    if (o.disabled && o.family !== current) return false;
    const key = o.family.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const query = fold(search.trim());
  if (!query) return options;
  const matches = options.filter((o) => fold(o.family).includes(query));
  return [
    ...matches.filter((o) => fold(o.family).startsWith(query)),
    ...matches.filter((o) => !fold(o.family).startsWith(query)),
  ];
}

/** Rows per screen of the list (for Page Up / Page Down). */
const PAGE_ROWS = Math.floor(FONT_LIST_HEIGHT / FONT_ROW_HEIGHT);

/**
 * The active row after a key press in the listbox (WAI-ARIA listbox pattern): arrows move by
 * one, Page Up/Down by a screen, Home/End to the ends; disabled rows are skipped.
 * @param active the active index, -1 for none.
 * @returns the new index, or `active` when the key does not move (or nothing is enabled).
 */
export function moveActive(options: readonly FontOption[], active: number, key: string): number {
  const enabled = (i: number) => i >= 0 && i < options.length && !options[i]!.disabled;
  const step = (from: number, dir: 1 | -1): number => {
    for (let i = from; i >= 0 && i < options.length; i += dir) if (enabled(i)) return i;
    return -1;
  };
  let next: number;
  switch (key) {
    case 'ArrowDown':
      next = step(active + 1, 1);
      break;
    case 'ArrowUp':
      next = active < 0 ? step(options.length - 1, -1) : step(active - 1, -1);
      break;
    case 'PageDown':
      next = step(Math.min(options.length - 1, Math.max(active, 0) + PAGE_ROWS), -1);
      break;
    case 'PageUp':
      next = step(Math.max(0, active - PAGE_ROWS), 1);
      break;
    case 'Home':
      next = step(0, 1);
      break;
    case 'End':
      next = step(options.length - 1, -1);
      break;
    default:
      return active;
  }
  return next < 0 ? active : next;
}

/** docs/fonts.md "Uploads": the extensions an uploaded font may have. */
export const FONT_EXTENSIONS = /\.(ttf|otf|woff)$/i;
/** docs/fonts.md "Uploads" / docs/editor.md "Messages": the message for any other file. */
export const FONT_EXTENSION_MESSAGE = 'Allowed extensions are: .ttf, .otf, .woff';
/** How long an upload error shows, ms (docs/editor.md "Commands": "an error shows for 4 seconds"). */
export const FONT_ERROR_MS = 4000;
