/**
 * Font constants that cheap modules need without the catalogue's data (shared/scene/fonts.ts
 * imports this, and the scene is in every bundle).
 */

/** A text snippet's default family (docs/fonts.md "The catalogue": "fontFamily (default Journal)"). */
export const DEFAULT_FONT_FAMILY = 'Journal';

/** Same-origin path of the hosted font files (assets bucket key `files/fonts/hosted/…`). */
export const HOSTED_FONTS_PATH = '/files/fonts/hosted';

/** Same-origin path of uploaded font files (assets bucket key `files/fonts/custom/…`). */
export const CUSTOM_FONTS_PATH = '/files/fonts/custom';
