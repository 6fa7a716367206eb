/**
 * Glyph coverage of the render page's fallback stack (docs/fonts.md "The render page": "Text
 * fitting"): which characters of a text no shipped face can draw. Reads the built page's
 * `fonts/fonts.css` (the `@font-face` rules the editor and the render page load), picks for each
 * code point the faces whose `unicode-range` holds it, and asks fontkit whether that face's file
 * has a glyph for it. A character without one is drawn as a box (or nothing) by Chromium.
 *
 * `drawingFace` picks, as the browser's font fallback does, the first family of the stack
 * (shared/scene/fonts.ts `FALLBACK_STACK`) with a face that has the glyph: the shaping tests
 * lay a sample out with that face's fontkit font (test/integration/render-text.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as fontkit from 'fontkit';
import { FALLBACK_STACK } from '#shared/scene/fonts.ts';

const PAGE_FONTS = resolve(
  import.meta.dirname,
  '..',
  '..',
  'functions',
  'render',
  'page',
  'dist',
  'fonts',
);

interface Face {
  family: string;
  file: string;
  ranges: Array<[number, number]>;
}

let faces: Face[] | undefined;
const fonts = new Map<string, fontkit.Font>();

/** The value between `name:` and `;` in one rule's text, trimmed. */
function property(rule: string, name: string): string | undefined {
  const at = rule.indexOf(`${name}:`);
  if (at < 0) return undefined;
  const end = rule.indexOf(';', at);
  return rule.slice(at + name.length + 1, end < 0 ? undefined : end).trim();
}

function parseFaces(): Face[] {
  const css = readFileSync(join(PAGE_FONTS, 'fonts.css'), 'utf8');
  const out: Face[] = [];
  for (const rule of css.split('@font-face').slice(1)) {
    const src = property(rule, 'src') ?? '';
    const open = src.indexOf('url(');
    const close = src.indexOf(')', open);
    if (open < 0 || close < 0) continue;
    const file = src.slice(open + 4, close).replace(/^\.\//, '');
    const ranges = (property(rule, 'unicode-range') ?? 'U+0-10FFFF').split(',').map((part) => {
      const [from, to] = part.trim().slice(2).split('-');
      const start = parseInt(from!.replaceAll('?', '0'), 16);
      const end = to ? parseInt(to, 16) : parseInt(from!.replaceAll('?', 'F'), 16);
      return [start, end] as [number, number];
    });
    const family = (property(rule, 'font-family') ?? '').replace(/^['"]|['"]$/g, '');
    out.push({ family, file, ranges });
  }
  return out;
}

function fontOf(file: string): fontkit.Font {
  let font = fonts.get(file);
  if (!font) {
    font = fontkit.create(readFileSync(join(PAGE_FONTS, file))) as fontkit.Font;
    fonts.set(file, font);
  }
  return font;
}

/** Whether a face's range holds `cp` and its font has a glyph for it. */
const draws = (face: Face, cp: number) =>
  face.ranges.some(([start, end]) => cp >= start && cp <= end) &&
  fontOf(face.file).hasGlyphForCodePoint(cp);

/**
 * The face that draws `char` when a text falls back to the stack: the first family of
 * `FALLBACK_STACK` with a face that has its glyph, and that face's fontkit font.
 * @returns undefined when no face has it.
 * @throws Error when the render page is not built (`npm run build:render`)
 */
export function drawingFace(char: string): { family: string; font: fontkit.Font } | undefined {
  faces ??= parseFaces();
  const cp = char.codePointAt(0)!;
  for (const family of FALLBACK_STACK) {
    const face = faces.find((f) => f.family === family && draws(f, cp));
    if (face) return { family, font: fontOf(face.file) };
  }
  return undefined;
}

/**
 * The characters of `text` that no face of the fallback stack has a glyph for (spaces and
 * joiners left out).
 * @throws Error when the render page is not built (`npm run build:render`)
 */
export function missingGlyphs(text: string): string[] {
  faces ??= parseFaces();
  const missing: string[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp <= 0x20 || cp === 0x200c || cp === 0x200d || cp === 0xfe0f) continue;
    const drawn = faces.some((face) => draws(face, cp));
    if (!drawn) missing.push(char);
  }
  return missing;
}
