/**
 * Font shapes shared by the catalogue, the font API, the editor and the render page
 * (docs/fonts.md "The catalogue": "Fonts": custom font names and path; font groups (label, weight,
 * options); a font entry has family and category).
 */

/** A family's category (docs/fonts.md "The catalogue"). */
export type FontCategory = 'sans-serif' | 'serif' | 'display' | 'handwriting' | 'monospace';

/** One face of a hosted family: `files/fonts/hosted/{slug}/{file}` in the assets bucket. */
export interface HostedFace {
  /** The woff2 file name, e.g. `lobster-latin-400-normal.woff2`. */
  file: string;
  /** CSS weight, 100–900. */
  weight: number;
  style: 'normal' | 'italic';
  /** CSS `unicode-range`: the browser downloads the file only for text in the range. */
  unicodeRange?: string;
}

/** A family whose files we host (generated from the installed @fontsource packages). */
export interface HostedFamily {
  family: string;
  /** Folder of its files: the package name and version, so an update never changes a URL. */
  slug: string;
  category: FontCategory;
  faces: HostedFace[];
}

/**
 * A team's uploaded font (docs/fonts.md "Uploads" `GET /getCustomFonts`: names and path): its
 * family name (from the font's own name table) and the same-origin URL of its file.
 */
export interface CustomFont {
  family: string;
  url: string;
  format: FontFileFormat;
}

/** The formats an uploaded font may have (docs/fonts.md "Uploads": .ttf, .otf, .woff), plus woff2. */
export type FontFileFormat = 'truetype' | 'opentype' | 'woff' | 'woff2';

/**
 * One `@font-face` rule: the same descriptors in the editor (CSS / FontFace) and the render
 * page (FontFace), so both draw with the same files.
 */
export interface FontFaceRule {
  /** The family name the text is drawn with (may be an alias, e.g. `Journal`). */
  family: string;
  /** Same-origin path (`/files/fonts/…`) or, for CDN families, an absolute https URL. */
  url: string;
  format: FontFileFormat;
  weight: number;
  style: 'normal' | 'italic';
  unicodeRange?: string;
}

/** One option of the font picker. */
export interface FontOption {
  family: string;
  category: FontCategory;
  /** Listed but not selectable (docs/fonts.md "Limits and known gaps": USPS IMB Standard). */
  disabled?: boolean;
}

/** A group of the font picker's category select (docs/fonts.md "The catalogue": label, weight, options). */
export interface FontGroup {
  label: string;
  /** Sort order: lower first. */
  weight: number;
  options: FontOption[];
}
