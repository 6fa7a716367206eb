/**
 * The font faces of the editor's text snippets (docs/fonts.md; docs/performance.md "Editor"):
 * which faces a text needs before fabric measures it, and which drawn texts to measure again
 * when a face arrives later (an uploaded font whose list came after the first draw, a subset
 * the browser fetched for a new character).
 *
 * Only the faces a text is drawn with are loaded: its own family for the whole text, then the
 * default font and the fallback stack (shared/scene/fonts.ts) only for the characters its own
 * family's faces do not cover. Asking `document.fonts.load` for the whole family list instead
 * fetches every listed family's subset that a character falls in (Noto Sans Arabic, Hebrew and
 * SC all have Latin subsets), eight files for a Latin text.
 *
 * The CJK families' rules are registered only when a text needs one of them (`loadCjkFaces`).
 */
import { CJK_BLOCKS } from '#shared/fonts/coverage.data.ts';
import { cssFamily } from '#shared/fonts/css.ts';
import { DEFAULT_FONT_FAMILY } from '#shared/fonts/defaults.ts';
import { fontFaceChanges } from '#shared/fonts/face-set.ts';
import { fontFamilyList } from '#shared/scene/fonts.ts';
import { decodeRanges, inRanges, type RangeTable } from '#shared/scene/glyphs.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import { registerFont } from '../../fonts/loadFont.ts';

/** A range of code points, both ends included. */
export type CodeRange = readonly [from: number, to: number];

/** The parts of a text layer its faces depend on. */
export type TextFaces = Pick<ResolvedTextLayer, 'fontFamily' | 'fontStyle' | 'fontWeight' | 'text'>;

/** A loaded face, as `FontFace` has it: its family and CSS `unicode-range`. */
export interface FaceCoverage {
  family: string;
  unicodeRange: string;
}

/** A drawn text: its key in the view, its CSS `font-family` list and its characters. */
export interface DrawnText {
  key: string;
  fontFamily: string;
  text: string;
}

/**
 * Parses a CSS `unicode-range` value (`U+0000-00FF, U+0131, U+4??`) into ranges; parts that
 * are not ranges are skipped. A `?` stands for any hex digit (CSS Fonts 4 §4.5).
 */
export function parseUnicodeRange(value: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const part of value.split(',')) {
    const match = /^\s*u\+([0-9a-f?]{1,6})(?:-([0-9a-f]{1,6}))?\s*$/i.exec(part);
    if (!match) continue;
    const [, first = '', last] = match;
    const from = parseInt(first.replace(/\?/g, '0'), 16);
    const to = last ? parseInt(last, 16) : parseInt(first.replace(/\?/g, 'f'), 16);
    if (from <= to) ranges.push([from, to]);
  }
  return ranges;
}

const covered = (code: number, ranges: readonly CodeRange[]) =>
  ranges.some(([from, to]) => code >= from && code <= to);

/** The characters of `text` outside every range, each once, in order; whitespace is left out. */
export function uncoveredCharacters(text: string, ranges: readonly CodeRange[]): string {
  const out = new Set<string>();
  for (const char of text) {
    if (/\s/.test(char)) continue;
    if (!covered(char.codePointAt(0)!, ranges)) out.add(char);
  }
  return [...out].join('');
}

/** A family name without the quotes a browser may serialize it with. */
const plainFamily = (family: string) => family.trim().replace(/^(["'])(.*)\1$/, '$2');

/** The family names of a CSS `font-family` list as fontFamilyList writes it (quoted names). */
const familiesOf = (list: string) => [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

/** Whether a face with `ranges` draws at least one character of `chars`. */
const drawsAny = (chars: string, ranges: readonly CodeRange[]) =>
  uncoveredCharacters(chars, ranges).length < uncoveredCharacters(chars, []).length;

/** The unicode-ranges of the faces registered for a family (empty: it has none). */
export type RangesOf = (family: string) => CodeRange[];

/**
 * The registered faces by lower-case family, with the face count and the registration counter
 * (face-set.ts) the index was built from.
 */
let faceIndex: { size: number; changes: number; byFamily: Map<string, FontFace[]> } | undefined;
/** Each face's parsed `unicode-range` (a face's range never changes once it is made). */
const parsedRanges = new WeakMap<FontFace, CodeRange[]>();

/**
 * The unicode-ranges of the faces registered for `family` in this document. The document's
 * faces (several hundred: every bundled family's subsets) are grouped by family in one pass,
 * again only when they changed (their number, for stylesheets' faces, or face-set.ts's counter,
 * for the loader's registrations and removals), and a face's range is parsed once, when its family
 * is first asked for: a walk and parse of every face per call cost about 100 ms of the editor's
 * load (docs/performance.md "Editor").
 * @returns a fresh array (callers may keep it).
 */
function registeredRanges(family: string): CodeRange[] {
  // Set-like (CSS Font Loading §2.5); TypeScript's DOM types leave `size` out.
  const faces = document.fonts as FontFaceSet & { readonly size: number };
  let index = faceIndex;
  if (index?.size !== faces.size || index.changes !== fontFaceChanges()) {
    const byFamily = new Map<string, FontFace[]>();
    faces.forEach((face) => {
      const key = plainFamily(face.family).toLowerCase();
      const list = byFamily.get(key);
      if (list) list.push(face);
      else byFamily.set(key, [face]);
    });
    index = faceIndex = { size: faces.size, changes: fontFaceChanges(), byFamily };
  }
  const ranges: CodeRange[] = [];
  for (const face of index.byFamily.get(family.toLowerCase()) ?? []) {
    let parsed = parsedRanges.get(face);
    if (!parsed) {
      parsed = parseUnicodeRange(face.unicodeRange || 'U+0-10FFFF');
      parsedRanges.set(face, parsed);
    }
    ranges.push(...parsed);
  }
  return ranges;
}

/**
 * How a text in `family` is drawn: by the family itself, or by the default font when the family
 * has no faces (unknown, docs/editor.md "Messages"), and which of its characters those faces leave
 * to the fallback stack.
 */
function drawingPlan(family: string, text: string, rangesOf: RangesOf) {
  const own = rangesOf(family);
  const drawnBy = own.length > 0 ? family : DEFAULT_FONT_FAMILY;
  const rest = uncoveredCharacters(text, own.length > 0 ? own : rangesOf(drawnBy));
  return { drawnBy, rest };
}

/**
 * The drawn texts to measure again after `faces` loaded (a `loadingdone` event): fabric measured
 * them with whatever face was there (and cached the widths per family list), so their wrapping
 * and fitted size are stale. A face counts for a text when it is of the family that draws the
 * text (its own, or the default font for an unknown one) and covers one of its characters, or
 * of a family further down its list and covers a character the drawing family leaves over.
 * @param rangesOf the registered faces' ranges per family (the document's, by default).
 * @returns the texts' keys, in the order given.
 */
export function textsToRefresh(
  texts: Iterable<DrawnText>,
  faces: readonly FaceCoverage[],
  rangesOf: RangesOf = registeredRanges,
): string[] {
  const loaded = faces.map((f) => ({
    family: plainFamily(f.family).toLowerCase(),
    ranges: parseUnicodeRange(f.unicodeRange || 'U+0-10FFFF'),
  }));
  const keys: string[] = [];
  for (const text of texts) {
    const families = familiesOf(text.fontFamily);
    const { drawnBy, rest } = drawingPlan(families[0] ?? DEFAULT_FONT_FAMILY, text.text, rangesOf);
    const listed = new Set(families.map((f) => f.toLowerCase()));
    const stale = loaded.some((face) =>
      face.family === drawnBy.toLowerCase()
        ? drawsAny(text.text, face.ranges)
        : listed.has(face.family) && drawsAny(rest, face.ranges),
    );
    if (stale) keys.push(text.key);
  }
  return keys;
}

/** The blocks where a CJK family of the stack is the first to draw (coverage.data.ts). */
let cjkBlocks: RangeTable | undefined;
/** The CJK families' own code points, once imported. */
let cjkFamilies: Promise<Array<{ family: string; table: RangeTable }>> | undefined;
/** The CJK sheets imported (or being imported), by family. */
const cjkSheets = new Map<string, Promise<unknown>>();

/** The CJK families' sheets (shared/fonts/stack), each a chunk of its own, by family. */
const CJK_SHEETS: Record<string, () => Promise<unknown>> = {
  'noto sans sc': () => import('../../../../../shared/fonts/stack/noto-sans-sc.css'),
  'noto sans jp': () => import('../../../../../shared/fonts/stack/noto-sans-jp.css'),
  'noto sans tc': () => import('../../../../../shared/fonts/stack/noto-sans-tc.css'),
  'noto sans kr': () => import('../../../../../shared/fonts/stack/noto-sans-kr.css'),
};

/** Imports a CJK family's sheet once (again after a failure). */
function importCjkSheet(family: string): Promise<unknown> {
  const key = family.toLowerCase();
  let loading = cjkSheets.get(key);
  if (!loading) {
    loading = CJK_SHEETS[key]!().catch((error: unknown) => {
      cjkSheets.delete(key);
      throw error;
    });
    cjkSheets.set(key, loading);
  }
  return loading;
}

/**
 * Registers the `@font-face` rules of the CJK families a text layer is drawn with: its own
 * family when it is one (Noto Sans SC is offered by the picker), and those that are the first
 * of the stack to draw some character of its text. Their sheets (35–64 kB gzip each) are left
 * out of the editor's own CSS (docs/fonts.md "The fallback stack"): a text without a character
 * in their blocks costs one pass over its characters; one with some imports the per-family
 * coverage (10 kB gzip) once, then only the sheets it needs. Resolves when the rules are in
 * the document (nothing downloads until text needs a face); a sheet that fails to load is
 * tried again by the next call.
 */
export async function loadCjkFaces(text: string, fontFamily = ''): Promise<void> {
  const own = fontFamily.trim().toLowerCase();
  const sheets: Promise<unknown>[] = CJK_SHEETS[own] ? [importCjkSheet(own)] : [];
  cjkBlocks ??= decodeRanges(CJK_BLOCKS);
  const codes = Array.from(text, (char) => char.codePointAt(0)!);
  if (codes.some((code) => inRanges(cjkBlocks!, code))) {
    cjkFamilies ??= import('#shared/fonts/cjk-coverage.data.ts').then(
      ({ CJK_FAMILY_COVERAGE }) =>
        Object.entries(CJK_FAMILY_COVERAGE).map(([family, { ranges }]) => ({
          family,
          table: decodeRanges(ranges),
        })),
      (error: unknown) => {
        cjkFamilies = undefined;
        throw error;
      },
    );
    for (const { family, table } of await cjkFamilies) {
      if (codes.some((code) => inRanges(table, code))) sheets.push(importCjkSheet(family));
    }
  }
  await Promise.all(sheets);
}

/**
 * Loads the faces a text layer is drawn with before it is measured: its own family (registered
 * through `registerFont`: built-in, hosted, the team's upload or the CDN; the default font for
 * an unknown one) at the layer's style and weight for the whole text, then the fallback stack
 * for the characters those faces do not cover. Never rejects: a family that cannot load is
 * drawn with the default font (the text toolbar shows the docs/editor.md "Messages" message).
 */
export async function loadTextFonts(layer: TextFaces): Promise<void> {
  const text = layer.text;
  if (text.trim() === '') return;
  const load = (families: string, chars: string) =>
    document.fonts
      .load(`${layer.fontStyle} ${layer.fontWeight} 16px ${families}`, chars)
      .catch(() => []);
  await loadCjkFaces(text, layer.fontFamily).catch((error: unknown) =>
    console.error('the CJK font faces could not be registered', error),
  );
  // A family with faces already (the bundled stack, or registered before) needs no catalogue.
  if (registeredRanges(layer.fontFamily).length === 0) {
    await registerFont(layer.fontFamily).catch(() => null);
  }
  const { drawnBy, rest } = drawingPlan(layer.fontFamily, text, registeredRanges);
  await load(cssFamily(drawnBy), text);
  if (rest) await load(fontFamilyList(layer.fontFamily), rest);
}
