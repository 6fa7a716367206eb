/**
 * The fallback stack's faces and its glyph coverage, generated from the installed packages
 * (docs/fonts.md "The fallback stack"; run through shared/fonts/generate.ts):
 *
 * - `stack/*.css`: the `@font-face` rules of every family of `FALLBACK_STACK`
 *   (shared/scene/fonts.ts), in its order, woff2 only, with `url()`s into node_modules relative
 *   to that folder: `base.css` for all but the CJK families, and one sheet for each of those
 *   (`noto-sans-sc.css`, …). The render page's build copies the files they name and
 *   concatenates them into its `fonts.css` (functions/render/build-page.ts); the editor imports
 *   `base.css` with its chunk and a CJK family's sheet on demand, when a text has a character
 *   that family is the first to draw (canvas/textFonts.ts). One source, so both draw with the
 *   same faces.
 * - A face of a fallback-only family is left out when each character it could draw (its
 *   `unicode-range` ∩ its `cmap`) is drawn by a family earlier in the stack: the browser never
 *   uses it (font fallback takes the first family whose face has the glyph), so it only costs
 *   downloads and rules. Most scripts' latin and latin-ext subsets go this way (Noto Sans draws
 *   them). The families a text can be set in (`STACK_TEXT_FAMILIES`) keep every face, so their
 *   latin text draws in their own design.
 * - `coverage.data.ts`: the code points the stack draws, as sorted ranges, the blocks where a
 *   CJK family is the first to draw (the editor's cue to load CJK faces), and per hosted family
 *   (and built-in name) the code points only that family adds. Read by shared/scene/glyphs.ts (the
 *   "never tofu" rule). `cjk-coverage.data.ts`: the same CJK code points per family, which the
 *   editor imports with the first CJK text to pick the sheets it needs.
 *
 * Coverage is read with fontkit from the regular (400) faces; bold and italic faces of these
 * families have the same character sets.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import * as fontkit from 'fontkit';
import { FALLBACK_STACK, STACK_TEXT_FAMILIES } from '../scene/fonts.ts';
import { BUILT_IN_FONTS } from './catalogue.ts';
import type { HostedFamily } from './types.ts';

const require = createRequire(import.meta.url);

/** The families of the stack that the editor registers only when a text needs them. */
export const LAZY_FAMILIES: ReadonlySet<string> = new Set([
  'Noto Sans SC',
  'Noto Sans JP',
  'Noto Sans TC',
  'Noto Sans KR',
]);

/** Where each stack family's sheets come from: the weights the scene draws (400, 700). */
const PACKAGES: Record<(typeof FALLBACK_STACK)[number], { pkg: string; sheets: string[] }> = {
  'Noto Sans': {
    pkg: '@fontsource/noto-sans',
    sheets: ['400.css', '700.css', '400-italic.css', '700-italic.css'],
  },
  'Noto Sans Arabic': { pkg: '@fontsource/noto-sans-arabic', sheets: ['400.css', '700.css'] },
  'Noto Sans Hebrew': { pkg: '@fontsource/noto-sans-hebrew', sheets: ['400.css', '700.css'] },
  // Noto Color Emoji as COLRv1: Chromium draws it in canvas; @fontsource's build of the same
  // font draws nothing in headless Chromium (checked), so this package ships it instead.
  'Noto Color Emoji': { pkg: '@infolektuell/noto-color-emoji', sheets: ['index.css'] },
  'Noto Sans SC': { pkg: '@fontsource/noto-sans-sc', sheets: ['400.css', '700.css'] },
  'Noto Sans Thaana': { pkg: '@fontsource/noto-sans-thaana', sheets: ['400.css', '700.css'] },
  'Noto Sans Bengali': { pkg: '@fontsource/noto-sans-bengali', sheets: ['400.css', '700.css'] },
  'Noto Sans Gurmukhi': { pkg: '@fontsource/noto-sans-gurmukhi', sheets: ['400.css', '700.css'] },
  'Noto Sans Gujarati': { pkg: '@fontsource/noto-sans-gujarati', sheets: ['400.css', '700.css'] },
  'Noto Sans Oriya': { pkg: '@fontsource/noto-sans-oriya', sheets: ['400.css', '700.css'] },
  'Noto Sans Tamil': { pkg: '@fontsource/noto-sans-tamil', sheets: ['400.css', '700.css'] },
  'Noto Sans Telugu': { pkg: '@fontsource/noto-sans-telugu', sheets: ['400.css', '700.css'] },
  'Noto Sans Kannada': { pkg: '@fontsource/noto-sans-kannada', sheets: ['400.css', '700.css'] },
  'Noto Sans Malayalam': {
    pkg: '@fontsource/noto-sans-malayalam',
    sheets: ['400.css', '700.css'],
  },
  'Noto Sans Sinhala': { pkg: '@fontsource/noto-sans-sinhala', sheets: ['400.css', '700.css'] },
  'Noto Sans Thai': { pkg: '@fontsource/noto-sans-thai', sheets: ['400.css', '700.css'] },
  'Noto Sans Lao': { pkg: '@fontsource/noto-sans-lao', sheets: ['400.css', '700.css'] },
  'Noto Sans Khmer': { pkg: '@fontsource/noto-sans-khmer', sheets: ['400.css', '700.css'] },
  'Noto Sans Myanmar': { pkg: '@fontsource/noto-sans-myanmar', sheets: ['400.css', '700.css'] },
  'Noto Sans Georgian': { pkg: '@fontsource/noto-sans-georgian', sheets: ['400.css', '700.css'] },
  'Noto Sans Armenian': { pkg: '@fontsource/noto-sans-armenian', sheets: ['400.css', '700.css'] },
  'Noto Sans Ethiopic': { pkg: '@fontsource/noto-sans-ethiopic', sheets: ['400.css', '700.css'] },
  'Noto Sans JP': { pkg: '@fontsource/noto-sans-jp', sheets: ['400.css', '700.css'] },
  'Noto Sans TC': { pkg: '@fontsource/noto-sans-tc', sheets: ['400.css', '700.css'] },
  'Noto Sans KR': { pkg: '@fontsource/noto-sans-kr', sheets: ['400.css', '700.css'] },
};

/** The packages the stack's faces come from (the font data generator hosts none of them). */
export const stackPackages = (): string[] => Object.values(PACKAGES).map((p) => p.pkg);

/** One `@font-face` rule of a package sheet. */
interface SheetFace {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  /** The woff2 file's path relative to the package. */
  file: string;
  /** The rule's `src` tech (COLRv1 for the emoji font), if any. */
  tech?: string;
  unicodeRange?: string;
}

/** A range of code points, both ends included. */
type Range = [number, number];

/** Parses a CSS `unicode-range` (`U+0-FF, U+4??`) into ranges. */
export function parseRanges(value: string | undefined): Range[] {
  if (!value) return [[0, 0x10ffff]];
  return value.split(',').map((part) => {
    const [from = '', to] = part.trim().slice(2).split('-');
    const start = parseInt(from.replaceAll('?', '0'), 16);
    const end = to ? parseInt(to, 16) : parseInt(from.replaceAll('?', 'f'), 16);
    return [start, end];
  });
}

/** Parses a sheet's `@font-face` blocks (woff2 sources only). */
function parseSheet(css: string): SheetFace[] {
  const faces: SheetFace[] = [];
  for (const [, block] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const get = (name: string) => new RegExp(`${name}:\\s*([^;]+);`).exec(block!)?.[1]?.trim();
    const src = /url\(\.\/([^)]+\.woff2)\)\s*format\(['"]?woff2['"]?\)(?:\s*tech\(([^)]+)\))?/.exec(
      block!,
    );
    const family = get('font-family')?.replace(/^['"]|['"]$/g, '');
    if (!src || !family) continue;
    faces.push({
      family,
      weight: Number(get('font-weight') ?? 400),
      style: get('font-style') === 'italic' ? 'italic' : 'normal',
      file: src[1]!,
      ...(src[2] ? { tech: src[2] } : {}),
      ...(get('unicode-range') ? { unicodeRange: get('unicode-range')! } : {}),
    });
  }
  return faces;
}

/** The subset a face stands for in its family: its file name without weight and style. */
const subsetOf = (face: SheetFace) =>
  face.file.replace(/-\d+-(?:normal|italic)\.woff2$|\.woff2$/, '').replace(/^.*\//, '');

const characterSets = new Map<string, number[]>();

/** The code points a font file maps (its cmap), read once. */
async function characterSet(path: string): Promise<number[]> {
  let set = characterSets.get(path);
  if (!set) {
    const font = fontkit.create(await readFile(path)) as fontkit.Font;
    set = font.characterSet;
    characterSets.set(path, set);
  }
  return set;
}

/** The code points a face draws: its `unicode-range` ∩ its font's `cmap`. */
async function drawnBy(path: string, unicodeRange: string | undefined): Promise<number[]> {
  const ranges = parseRanges(unicodeRange);
  return (await characterSet(path)).filter((cp) =>
    ranges.some(([from, to]) => cp >= from && cp <= to),
  );
}

/** Sorted, merged ranges of a set of code points. */
export function toRanges(points: Iterable<number>): Range[] {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const out: Range[] = [];
  for (const cp of sorted) {
    const last = out.at(-1);
    if (last && cp === last[1] + 1) last[1] = cp;
    else out.push([cp, cp]);
  }
  return out;
}

/** Sorted ranges with those less than `gap` apart merged into one. */
function mergeGaps(ranges: readonly Range[], gap: number): Range[] {
  const out: Range[] = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && from - last[1] <= gap) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Ranges as text: each range's start as the distance from the previous range's end, then its
 * length − 1, in base 36, comma-separated (`0,7e,…`): a fifth of the JSON array's size.
 */
export function encodeRanges(ranges: readonly Range[]): string {
  let previous = 0;
  const parts: string[] = [];
  for (const [from, to] of ranges) {
    parts.push((from - previous).toString(36), (to - from).toString(36));
    previous = to;
  }
  return parts.join(',');
}

/** The generated stack: its style sheets (file name → text) and the coverage module's text. */
export interface GeneratedStack {
  sheets: Record<string, string>;
  coverage: string;
  cjkCoverage: string;
  /** Per family: faces kept of those the sheets list, for the generator's log. */
  summary: string[];
}

/** A sheet face with its package folder. */
interface PackageFace extends SheetFace {
  root: string;
}

/** The `@font-face` rule of a kept face, its URL relative to `outDir`. */
function rule(face: PackageFace, outDir: string): string {
  const url = relative(outDir, join(face.root, face.file));
  return [
    '@font-face {',
    `  font-family: '${face.family}';`,
    `  font-style: ${face.style};`,
    '  font-display: swap;',
    `  font-weight: ${face.weight};`,
    `  src: url(${url}) format('woff2')${face.tech ? ` tech(${face.tech})` : ''};`,
    ...(face.unicodeRange ? [`  unicode-range: ${face.unicodeRange};`] : []),
    '}',
  ].join('\n');
}

/**
 * Builds the stack's style sheets and coverage (see the module comment).
 * @param outDir the folder the style sheets are written to (their URLs are relative to it).
 * @param hosted the hosted families (hosted.data.ts), for their own coverage beyond the stack.
 * @throws Error when a family of FALLBACK_STACK has no package or its sheets name none of it.
 */
export async function generateStack(
  outDir: string,
  hosted: readonly HostedFamily[],
): Promise<GeneratedStack> {
  const covered = new Set<number>();
  const lazy: Record<string, Range[]> = {};
  const base: string[] = [];
  const lazySheets: Record<string, string[]> = {};
  const summary: string[] = [];
  for (const family of FALLBACK_STACK) {
    const source = PACKAGES[family];
    const root = dirname(require.resolve(`${source.pkg}/package.json`));
    const faces: PackageFace[] = [];
    for (const sheet of source.sheets) {
      const text = await readFile(join(root, sheet), 'utf8');
      faces.push(...parseSheet(text).map((f) => ({ ...f, root })));
    }
    if (!faces.length || faces.some((f) => f.family !== family)) {
      throw new Error(`${source.pkg} does not hold the faces of ${family}`);
    }
    // Which subsets draw something no earlier family draws, judged on the regular faces.
    const regular = faces.filter((f) => f.style === 'normal' && f.weight === 400);
    const kept = new Set<string>();
    const adds = new Set<number>();
    const whole = family === FALLBACK_STACK[0] || STACK_TEXT_FAMILIES.includes(family);
    for (const face of regular) {
      const drawn = (await drawnBy(join(root, face.file), face.unicodeRange)).filter(
        (cp) => !covered.has(cp),
      );
      if (!whole && drawn.length === 0) continue;
      kept.add(subsetOf(face));
      for (const cp of drawn) adds.add(cp);
    }
    for (const cp of adds) covered.add(cp);
    const keptFaces = faces.filter((f) => kept.has(subsetOf(f)));
    const rules = [`/* ${family} (${source.pkg}) */`, ...keptFaces.map((f) => rule(f, outDir))];
    if (LAZY_FAMILIES.has(family)) {
      lazy[family] = toRanges(adds);
      lazySheets[`${source.pkg.replace(/^.*\//, '')}.css`] = rules;
    } else {
      base.push(...rules);
    }
    summary.push(`${family}: ${keptFaces.length} of ${faces.length} faces, +${adds.size} chars`);
  }

  // What a hosted family (and a built-in name drawn with one) draws beyond the stack.
  const extra: Record<string, Range[]> = {};
  for (const family of hosted) {
    const root = dirname(
      require.resolve(`@fontsource/${family.slug.replace(/-[\d.]+$/, '')}/package.json`),
    );
    const own = new Set<number>();
    for (const face of family.faces.filter((f) => f.style === 'normal' && f.weight === 400)) {
      for (const cp of await drawnBy(join(root, 'files', face.file), face.unicodeRange)) {
        if (!covered.has(cp)) own.add(cp);
      }
    }
    if (own.size === 0) continue;
    const ranges = toRanges(own);
    extra[family.family] = ranges;
    for (const builtIn of BUILT_IN_FONTS) {
      if (builtIn.drawnWith === family.family && builtIn.family !== family.family) {
        extra[builtIn.family] = ranges;
      }
    }
  }

  const coverage = [
    '/**',
    ' * The glyph coverage of the shipped faces (docs/fonts.md "Never tofu"), as code point ranges',
    ' * encoded by `encodeRanges` (shared/fonts/generate-stack.ts) and read by shared/scene/glyphs.ts.',
    ' * Generated by shared/fonts/generate.ts from installed packages: do not edit by hand.',
    ' */',
    '',
    '/** Every code point some face of the fallback stack draws. */',
    `export const STACK_COVERAGE =\n  ${JSON.stringify(encodeRanges(toRanges(covered)))};`,
    '',
    '/**',
    ' * Blocks holding every code point a CJK family is the first of the stack to draw (ranges less',
    ' * than 256 apart merged): a text with none needs no CJK face, and the editor imports',
    ' * cjk-coverage.data.ts only for a text with one.',
    ' */',
    `export const CJK_BLOCKS =\n  ${JSON.stringify(encodeRanges(mergeGaps(Object.values(lazy).flat(), 256)))};`,
    '',
    '/** Per hosted family (and built-in name): the code points it draws beyond the stack. */',
    `export const FAMILY_COVERAGE: Record<string, string> = ${JSON.stringify(
      Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, encodeRanges(v)])),
      null,
      2,
    )};`,
    '',
  ].join('\n');

  const header = (what: string) =>
    `/*\n * ${what}\n * Generated by shared/fonts/generate.ts (generate-stack.ts) from installed packages: do not edit by hand.\n */\n`;
  const sheets: Record<string, string> = {
    'base.css':
      header('The fallback stack (shared/scene/fonts.ts) but its CJK families, in stack order.') +
      base.join('\n\n') +
      '\n',
  };
  for (const [file, rules] of Object.entries(lazySheets)) {
    sheets[file] =
      header(`A CJK family of the fallback stack, loaded by the editor when a text needs it.`) +
      rules.join('\n\n') +
      '\n';
  }
  const cjkCoverage = [
    '/**',
    ' * Per CJK family of the fallback stack, the code points it is the first to draw, encoded by',
    ' * `encodeRanges` (shared/fonts/generate-stack.ts): the editor imports this module with the',
    ' * first CJK text and loads the sheets of the families the text needs (canvas/textFonts.ts).',
    ' * Generated by shared/fonts/generate.ts from installed packages: do not edit by hand.',
    ' */',
    '',
    `export const CJK_FAMILY_COVERAGE: Record<string, { sheet: string; ranges: string }> = ${JSON.stringify(
      Object.fromEntries(
        Object.entries(lazy).map(([family, ranges]) => [
          family,
          {
            sheet: `${PACKAGES[family as keyof typeof PACKAGES].pkg.replace(/^.*\//, '')}.css`,
            ranges: encodeRanges(ranges),
          },
        ]),
      ),
      null,
      2,
    )};`,
    '',
  ].join('\n');
  return { sheets, coverage, cjkCoverage, summary };
}
