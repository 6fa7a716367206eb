/**
 * The font catalogue and the one rule that turns a design's `fontFamily` into `@font-face`
 * rules, shared by the font API, the editor (`loadFont`) and the render page, so both draw a
 * family from the same files (docs/fonts.md; docs/fonts.md "The render page": "fonts through
 * @font-face").
 *
 * Where a family's files come from, in order (docs/fonts.md "Limits and known gaps",
 * docs/adr/0030-fonts.md "Fonts"):
 * 1. the built-in fonts of docs/fonts.md "Limits and known gaps", kept under their own names and
 *    drawn with an openly licensed look-alike that we host (Journal → Caveat, …); USPS IMB Standard
 *    is listed, disabled, and drawn with the default;
 * 2. the fallback stack (Noto Sans, …), already bundled by the editor and the render page;
 * 3. the hosted families (installed @fontsource packages; files in the assets bucket under
 *    `files/fonts/hosted/`, served at `/files/fonts/hosted/…`);
 * 4. the team's uploaded fonts (`files/fonts/custom/{teamId}/…`);
 * 5. any other catalogue family from the fontsource CDN, only when `FONT_CDN_URL` is set;
 * 6. anything else falls back to the default font, Journal (docs/editor.md "Messages": "Unknown
 *    fonts fall back to the default font").
 */
import { CATALOGUE_DATA } from './catalogue.data.ts';
import { cssFamily } from './css.ts';
import { CUSTOM_FONTS_PATH, DEFAULT_FONT_FAMILY, HOSTED_FONTS_PATH } from './defaults.ts';
import { HOSTED_FAMILIES } from './hosted.data.ts';
import type {
  CustomFont,
  FontCategory,
  FontFaceRule,
  FontGroup,
  FontOption,
  HostedFamily,
} from './types.ts';
import { trimEndChar } from '../strings.ts';
import { FALLBACK_STACK, STACK_TEXT_FAMILIES } from '../scene/fonts.ts';

export type * from './types.ts';

export { DEFAULT_FONT_FAMILY, HOSTED_FONTS_PATH, CUSTOM_FONTS_PATH };

/**
 * A built-in font of docs/fonts.md "Limits and known gaps". `drawnWith` is the hosted family whose
 * files draw it (the named fonts other than Permanent Marker are not openly licensed;
 * docs/adr/0030-fonts.md "Fonts").
 */
export interface BuiltInFont {
  family: string;
  category: FontCategory;
  drawnWith: string | null;
  disabled?: boolean;
}

/** docs/fonts.md "Limits and known gaps": the built-in fonts, and Baloo, which is always in the document fonts. */
export const BUILT_IN_FONTS: readonly BuiltInFont[] = [
  { family: 'Journal', category: 'handwriting', drawnWith: 'Caveat' },
  { family: 'Memoria vestri', category: 'handwriting', drawnWith: 'Dancing Script' },
  { family: 'Permanent Marker', category: 'handwriting', drawnWith: 'Permanent Marker' },
  { family: 'Sign Painter House Script', category: 'handwriting', drawnWith: 'Pacifico' },
  { family: 'USPS IMB Standard', category: 'display', drawnWith: null, disabled: true },
  { family: 'Baloo', category: 'display', drawnWith: 'Baloo 2' },
];

/**
 * The fallback stack's families (shared/scene/fonts.ts), bundled by the editor and the render
 * page: no faces to add, and no upload may take their names. The picker offers only
 * `STACK_TEXT_FAMILIES` of them; the emoji font is not a text family.
 */
export const BUNDLED_FAMILIES: ReadonlyMap<string, FontCategory> = new Map(
  FALLBACK_STACK.filter((family) => family !== 'Noto Color Emoji').map((family) => [
    family,
    'sans-serif',
  ]),
);

const CATEGORY_OF_CODE: Record<string, FontCategory> = {
  s: 'sans-serif',
  r: 'serif',
  d: 'display',
  h: 'handwriting',
  m: 'monospace',
};

let catalogue: Map<string, FontCategory> | undefined;

/**
 * The full web-font catalogue (docs/fonts.md "The catalogue": "the catalogue is a full list of web
 * fonts"): family → category, about 1,950 families from @capsizecss/metrics (generate.ts).
 */
export function fontCatalogue(): ReadonlyMap<string, FontCategory> {
  if (!catalogue) {
    catalogue = new Map();
    for (const line of CATALOGUE_DATA.split('\n')) {
      const [family, code] = line.split('\t');
      if (family && code) catalogue.set(family, CATEGORY_OF_CODE[code] ?? 'sans-serif');
    }
  }
  return catalogue;
}

const hostedByFamily = new Map(HOSTED_FAMILIES.map((f) => [f.family.toLowerCase(), f]));

/** The hosted family of a name (case-insensitive, as CSS matches families), if any. */
export function hostedFamily(family: string): HostedFamily | undefined {
  return hostedByFamily.get(family.trim().toLowerCase());
}

/** The built-in font of a name (case-insensitive), if any. */
export function builtInFont(family: string): BuiltInFont | undefined {
  const key = family.trim().toLowerCase();
  return BUILT_IN_FONTS.find((f) => f.family.toLowerCase() === key);
}

/** Every hosted family's faces, registered under `as` (an alias) or the family's own name. */
function hostedFaces(hosted: HostedFamily, as = hosted.family): FontFaceRule[] {
  return hosted.faces.map((face) => ({
    family: as,
    url: `${HOSTED_FONTS_PATH}/${hosted.slug}/${face.file}`,
    format: 'woff2',
    weight: face.weight,
    style: face.style,
    ...(face.unicodeRange ? { unicodeRange: face.unicodeRange } : {}),
  }));
}

/**
 * The faces of every built-in and hosted family: registered once by the render page and the
 * editor (a registered face downloads nothing until text needs it).
 */
export function alwaysAvailableFaces(): FontFaceRule[] {
  const faces = HOSTED_FAMILIES.flatMap((f) => hostedFaces(f));
  for (const builtIn of BUILT_IN_FONTS) {
    const hosted = builtIn.drawnWith ? hostedFamily(builtIn.drawnWith) : undefined;
    if (hosted && hosted.family !== builtIn.family) {
      faces.push(...hostedFaces(hosted, builtIn.family));
    }
  }
  return faces;
}

/** The fontsource id of a family: `Open Sans` → `open-sans`. */
export const fontsourceId = (family: string): string =>
  family
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Latin subsets fetched from the CDN (every catalogue family has `latin`), with their ranges. */
const CDN_SUBSETS: Array<{ subset: string; unicodeRange: string }> = [
  {
    subset: 'latin',
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  {
    subset: 'latin-ext',
    unicodeRange:
      'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
  },
];

/** How a family is drawn: its faces and where they come from. */
export interface FontResolution {
  /** The family the text is drawn with: the asked one, or the default when it fell back. */
  family: string;
  source: 'built-in' | 'bundled' | 'hosted' | 'custom' | 'cdn' | 'fallback';
  /** Faces to register (empty for bundled families, already there). */
  faces: FontFaceRule[];
}

export interface FontSources {
  /** The team's uploaded fonts (`GET /getCustomFonts`). */
  custom?: readonly CustomFont[];
  /** The fontsource CDN's base URL (`FONT_CDN_URL`); unset offline: CDN families fall back. */
  cdnUrl?: string | undefined;
}

/**
 * Resolves a design's `fontFamily` to the faces that draw it (order in the module comment).
 * Names match case-insensitively, as CSS does.
 * @returns the family to draw with and its faces; `source: 'fallback'` with the default font's
 *   faces for a disabled or unknown family (docs/editor.md "Messages").
 */
export function resolveFont(family: string, sources: FontSources = {}): FontResolution {
  const name = family.trim();
  const key = name.toLowerCase();
  const builtIn = builtInFont(name);
  if (builtIn && !builtIn.disabled && builtIn.drawnWith) {
    const hosted = hostedFamily(builtIn.drawnWith);
    if (hosted) {
      return {
        family: builtIn.family,
        source: 'built-in',
        faces: hostedFaces(hosted, builtIn.family),
      };
    }
  }
  for (const bundled of BUNDLED_FAMILIES.keys()) {
    if (bundled.toLowerCase() === key) return { family: bundled, source: 'bundled', faces: [] };
  }
  const hosted = hostedFamily(name);
  if (hosted) return { family: hosted.family, source: 'hosted', faces: hostedFaces(hosted) };
  const custom = sources.custom?.find((f) => f.family.toLowerCase() === key);
  if (custom) {
    return {
      family: custom.family,
      source: 'custom',
      faces: [
        {
          family: custom.family,
          url: custom.url,
          format: custom.format,
          weight: 400,
          style: 'normal',
        },
      ],
    };
  }
  if (sources.cdnUrl && !builtIn) {
    const listed = [...fontCatalogue().keys()].find((f) => f.toLowerCase() === key);
    if (listed) {
      const base = trimEndChar(sources.cdnUrl, '/');
      const id = fontsourceId(listed);
      return {
        family: listed,
        source: 'cdn',
        faces: CDN_SUBSETS.map(({ subset, unicodeRange }) => ({
          family: listed,
          url: `${base}/${id}@latest/${subset}-400-normal.woff2`,
          format: 'woff2',
          weight: 400,
          style: 'normal',
          unicodeRange,
        })),
      };
    }
  }
  if (key === DEFAULT_FONT_FAMILY.toLowerCase()) {
    // Only reachable if Caveat were not installed: draw with the bundled stack.
    return { family: DEFAULT_FONT_FAMILY, source: 'fallback', faces: [] };
  }
  return { ...resolveFont(DEFAULT_FONT_FAMILY), source: 'fallback' };
}

/** Group labels of the picker's category select (docs/fonts.md "Limits and known gaps": "plus server groups"). */
export const GROUP_LABELS: Record<FontCategory, string> = {
  'sans-serif': 'Sans Serif',
  serif: 'Serif',
  display: 'Display',
  handwriting: 'Handwriting',
  monospace: 'Monospace',
};

/** The built-in fonts' group label. */
export const BUILT_IN_GROUP = 'Built-in';

/**
 * The picker's server groups (docs/fonts.md "The catalogue": "font groups (label, weight,
 * options)"): the built-in fonts first, then one group per category, each sorted by name. Without a
 * CDN only the families we host or bundle are offered; with one, the whole catalogue.
 * @param cdnUrl `FONT_CDN_URL`, when set.
 */
export function fontGroups(cdnUrl?: string): FontGroup[] {
  const builtIns = new Set(BUILT_IN_FONTS.map((f) => f.family.toLowerCase()));
  const offered = new Map<string, FontCategory>();
  if (cdnUrl) for (const [family, category] of fontCatalogue()) offered.set(family, category);
  for (const f of HOSTED_FAMILIES) offered.set(f.family, f.category);
  for (const family of STACK_TEXT_FAMILIES) offered.set(family, 'sans-serif');
  const byCategory = new Map<FontCategory, FontOption[]>();
  for (const [family, category] of offered) {
    if (builtIns.has(family.toLowerCase())) continue;
    const list = byCategory.get(category) ?? [];
    list.push({ family, category });
    byCategory.set(category, list);
  }
  const groups: FontGroup[] = [
    {
      label: BUILT_IN_GROUP,
      weight: 0,
      options: BUILT_IN_FONTS.map(({ family, category, disabled }) => ({
        family,
        category,
        ...(disabled ? { disabled } : {}),
      })),
    },
  ];
  (Object.keys(GROUP_LABELS) as FontCategory[]).forEach((category, i) => {
    const options = byCategory.get(category);
    if (!options?.length) return;
    options.sort((a, b) => a.family.localeCompare(b.family, 'en'));
    groups.push({ label: GROUP_LABELS[category], weight: i + 1, options });
  });
  return groups;
}

export { cssFamily };
