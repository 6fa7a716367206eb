/**
 * Text in renders is read, not only compared (docs/security.md "Text in renders"):
 * - Latin values are read back by OCR (tesseract.js with its English data from the registry,
 *   offline): the recipient's name is in the picture, spelled right, and a missing value shows
 *   the fallback, never the merge tag.
 * - Other scripts: every character has a glyph in the fallback stack the render page ships
 *   (test/support/glyph-coverage.ts reads its `@font-face` rules and asks fontkit), and the
 *   render differs from the all-fallback render where the name stands. A character without a
 *   glyph is a box in the picture, so a value with one fails.
 * - Shaping and bidi: see the last describe block's comment.
 *
 * Mutation checks: with the Noto Sans SC faces left out of the built page's `fonts.css` (run),
 * "Chinese" fails on its two characters; the OCR cases cannot pass on a render that leaves the
 * value out, since it shows the fallback's word instead of the name.
 */
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createWorker, type Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { drawingFace, missingGlyphs } from '../support/glyph-coverage.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;
/** Where the demo design draws "Hello {{first_name}}!" in its 1000x625 render, px. */
const TEXT_BAND = { left: 50, top: 200, width: 900, height: 220 };

let ocr: Worker;
beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const langPath = join(
    dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0_best_int',
  );
  ocr = await createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
  await ocr.setParameters({ user_defined_dpi: '300' });
});
afterAll(async () => {
  await ocr?.terminate();
});

const render = (value: string) =>
  fetchImage(url(`/r/demo-welcome.png?first_name=${encodeURIComponent(value)}`));

/**
 * OCR of the text band: the demo's text is white with a dark outline, so near-white pixels become
 * black ink on white paper, which tesseract reads reliably over the photo.
 */
async function readText(value: string): Promise<string> {
  const img = await render(value);
  expect(img.res.status).toBe(200);
  const { data, info } = await sharp(img.bytes)
    .extract(TEXT_BAND)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ink = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < ink.length; i++) {
    const white = data[i * 3]! > 235 && data[i * 3 + 1]! > 235 && data[i * 3 + 2]! > 235;
    ink[i] = white ? 0 : 255;
  }
  const page = await sharp(ink, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
  return (await ocr.recognize(page)).data.text.replace(/\s+/g, ' ').trim();
}

/** Checks a non-Latin value: every character has a glyph, and the name is drawn. */
async function expectDrawn(value: string): Promise<void> {
  expect(missingGlyphs(value), `characters of ${value} without a glyph`).toEqual([]);
  const [drawn, fallback] = await Promise.all([render(value), render('')]);
  expect(drawn.res.status).toBe(200);
  expect(drawn.res.headers.get('cache-control')).not.toBe('no-store');
  expect(meanDifference(drawn.pixels, fallback.pixels, drawn.width, TEXT_BAND)).toBeGreaterThan(2);
}

describe('Latin text is read back by OCR', () => {
  it.each([
    ['Ana', 'Hello Ana!'],
    ['Maximilian', 'Hello Maximilian!'],
    ['Zoë', 'Hello Zo'],
    ['Jean-Luc', 'Hello Jean-Luc!'],
  ])('draws %s', async (value, expected) => {
    expect(await readText(value)).toContain(expected);
  });

  it('draws the fallback when the value is missing, not the merge tag', async () => {
    const text = await readText('');
    expect(text).toMatch(/^Hello/);
    expect(text).not.toContain('{{');
    expect(text).not.toContain('first_name');
  });
});

describe('other scripts draw glyphs, not boxes', () => {
  it.each([
    ['Chinese', '李伟'],
    ['Japanese', 'さくら'],
    ['Arabic', 'مرحبا'],
    ['Hebrew', 'שלום'],
    ['Devanagari', 'प्रिया'],
    ['Cyrillic and Greek', 'Олег Σοφία'],
    ['Vietnamese', 'Nguyễn Thị Ánh'],
    ['emoji', '😀🎉'],
    ['Korean', '김민준'],
    ['Thai', 'สมชาย'],
    ['Bengali', 'তানভীর'],
    ['Tamil', 'தமிழ்'],
    ['Georgian', 'ნინო'],
    ['Lao', 'ສົມ'],
  ])('%s', async (_script, value) => {
    await expectDrawn(value);
  });
});

/** A pixel of the text band where two renders differ by more than 64 levels in a channel. */
interface Change {
  x: number;
  y: number;
  /** True when the first render is the brighter there: its white text is where the other's is not. */
  firstInk: boolean;
}

/** The pixels of the text band where two renders of the demo design differ. */
function changes(a: Buffer, b: Buffer, width: number): Change[] {
  const out: Change[] = [];
  for (let y = TEXT_BAND.top; y < TEXT_BAND.top + TEXT_BAND.height; y++) {
    for (let x = TEXT_BAND.left; x < TEXT_BAND.left + TEXT_BAND.width; x++) {
      const i = (y * width + x) * 3;
      let most = 0;
      let sum = 0;
      for (let c = 0; c < 3; c++) {
        most = Math.max(most, Math.abs(a[i + c]! - b[i + c]!));
        sum += a[i + c]! - b[i + c]!;
      }
      if (most > 64) out.push({ x, y, firstInk: sum > 0 });
    }
  }
  return out;
}

/** The width of the white text's ink in the text band, px (the demo's text is white). */
function inkWidth(pixels: Buffer, width: number): number {
  let left = Infinity;
  let right = -Infinity;
  for (let y = TEXT_BAND.top; y < TEXT_BAND.top + TEXT_BAND.height; y++) {
    for (let x = TEXT_BAND.left; x < TEXT_BAND.left + TEXT_BAND.width; x++) {
      const i = (y * width + x) * 3;
      if (pixels[i]! > 235 && pixels[i + 1]! > 235 && pixels[i + 2]! > 235) {
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  return right - left + 1;
}

/**
 * How many separate pieces of white ink (4-connected, at least 8 px: anti-aliasing specks left
 * out) the text band holds: a letter is one or more pieces, and joined letters share one.
 */
function inkPieces(pixels: Buffer, width: number): number {
  const { left, top, width: w, height: h } = TEXT_BAND;
  const white = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((top + y) * width + left + x) * 3;
      white[y * w + x] = pixels[i]! > 235 && pixels[i + 1]! > 235 && pixels[i + 2]! > 235 ? 1 : 0;
    }
  }
  let pieces = 0;
  const stack: number[] = [];
  for (let start = 0; start < white.length; start++) {
    if (white[start] !== 1) continue;
    let size = 0;
    white[start] = 2;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      size++;
      const x = at % w;
      for (const next of [at - w, at + w, x > 0 ? at - 1 : -1, x < w - 1 ? at + 1 : -1]) {
        if (next >= 0 && next < white.length && white[next] === 1) {
          white[next] = 2;
          stack.push(next);
        }
      }
    }
    if (size >= 8) pieces++;
  }
  return pieces;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Shaping and bidi (docs/security.md "Text in renders": "Text fitting": the browser shapes each
 * line, fabric only places lines). Each case checks with fontkit, on the face that draws the sample
 * (test/support/glyph-coverage.ts `drawingFace`), that the sample needs shaping, then checks that
 * the render URL's picture has the shaped form, by a measure that fabric's own placing of the line
 * does not change:
 * - Arabic joins: محمد must draw as one piece of ink like its contextual presentation forms
 *   (U+FEE3 U+FEA4 U+FEE4 U+FEAA, which need no shaping), not as four like its isolated forms.
 * - Indic conjunct: ক্ষমা's line must be narrower than ক্‌ষমা's, where a non-joiner after the
 *   virama asks for the explicit virama (fontkit: 1737 against 2311 units). A Latin control
 *   shows the non-joiner itself changes nothing in the picture.
 * - Thai marks stack: the tone mark (what กิ่ inks beyond กิ, ก่ beyond ก) must sit higher over
 *   the vowel mark than over the bare letter, as the face positions it; unshaped it has one
 *   position in both.
 * - Bidi: a Hebrew name with its one wide letter (alef) first, then last, in the LTR line
 *   "Hello …!". Drawn right to left, the alef of the first is at the run's right end, so the
 *   pixels only the first render inks lie right of those only the second inks; a Latin
 *   control (W first, then last) shows the opposite.
 * Unshaped drawing would fail each: isolated forms are four pieces, ক, virama and ষ apart are
 * as wide as with the non-joiner, an unpositioned mark has one height, and unordered Hebrew
 * behaves like the Latin control.
 *
 * Mutation check (run): fabric's per-character drawing forced on (`charSpacing: 1` in
 * shared/scene/draw.ts) fails the Arabic and the bidi cases; the Bengali and Thai cases still
 * pass then, rightly: fabric draws a grapheme cluster (ক্ষ, กิ่) in one call, so they stay shaped.
 */
describe('shaping and bidi in the render', () => {
  const ZWNJ = '\u200c';
  const broken = (value: string) => [...value].join(ZWNJ);

  it('a non-joiner between Latin letters changes nothing (the control)', async () => {
    const [plain, joined] = await Promise.all([render('Anna'), render(broken('Anna'))]);
    expect(changes(plain.pixels, joined.pixels, plain.width).length).toBeLessThan(20);
  });

  it('Arabic letters join: the name draws as its contextual forms, not its isolated ones', async () => {
    // محمد as presentation forms: initial meem, medial hah, medial meem, final dal; and the
    // same letters isolated. These code points map straight to the forms, no shaping needed.
    const name = 'محمد';
    const joined = '\ufee3\ufea4\ufee4\ufeaa';
    const isolated = '\ufee1\ufea1\ufee1\ufea9';
    const { family, font } = drawingFace('م')!;
    const shaped = font
      .layout(name)
      .glyphs.map((g) => g.id)
      .sort((a, b) => a - b);
    const forms = (text: string) =>
      Array.from(text, (c) => font.glyphForCodePoint(c.codePointAt(0)!).id).sort((a, b) => a - b);
    expect(shaped, `${family} joins ${name}`).toEqual(forms(joined));
    expect(shaped).not.toEqual(forms(isolated));
    const [drawn, asJoined, asIsolated] = await Promise.all([
      render(name),
      render(joined),
      render(isolated),
    ]);
    // Fabric places the line from its own measure, so the pictures are compared by shape:
    // joined letters are one stroke of white ink, isolated ones four.
    const pieces = (image: { pixels: Buffer; width: number }) =>
      inkPieces(image.pixels, image.width);
    expect(pieces(asIsolated) - pieces(asJoined)).toBe(3);
    expect(pieces(drawn)).toBe(pieces(asJoined));
  });

  it('a Bengali conjunct forms: ক্ষ is narrower than ক, virama and ষ drawn apart', async () => {
    // A non-joiner after the virama asks for the explicit virama instead of the conjunct.
    const name = 'ক্ষমা';
    const apart = 'ক্\u200cষমা';
    const { family, font } = drawingFace('ক')!;
    expect(font.layout(name).advanceWidth, `${family} forms the conjunct`).toBeLessThan(
      font.layout(apart).advanceWidth * 0.9,
    );
    const [conjunct, explicit] = await Promise.all([render(name), render(apart)]);
    expect(
      inkWidth(explicit.pixels, explicit.width) - inkWidth(conjunct.pixels, conjunct.width),
    ).toBeGreaterThan(10);
  });

  it('Thai marks stack: the tone mark sits higher over a vowel mark than over the bare letter', async () => {
    // The joiner does not break Thai mark positioning in Chromium, so the mark is found as what
    // a render with it inks beyond the same render without it, over a vowel and over none.
    const face = drawingFace('ก')!;
    const top = (text: string) => {
      const run = face.font.layout(text);
      const tone = run.glyphs.length - 1; // the tone mark is the last glyph of these clusters
      return run.glyphs[tone]!.bbox.maxY + run.positions[tone]!.yOffset;
    };
    expect(top('กิ่'), `${face.family} raises the tone mark over ิ`).toBeGreaterThan(top('ก่'));
    const markY = async (withMark: string, without: string) => {
      const [a, b] = await Promise.all([render(withMark), render(without)]);
      const ink = changes(a.pixels, b.pixels, a.width).filter((c) => c.firstInk);
      expect(ink.length, `${withMark}: the tone mark's pixels`).toBeGreaterThan(20);
      return mean(ink.map((c) => c.y));
    };
    const overVowel = await markY('กิ่', 'กิ');
    const overLetter = await markY('ก่', 'ก');
    expect(overLetter - overVowel).toBeGreaterThan(4);
  });

  it('orders a right-to-left name inside the left-to-right line', async () => {
    /** Mean x of the pixels only the first render inks, less that of those only the second inks. */
    const shift = async (first: string, second: string) => {
      const [a, b] = await Promise.all([render(first), render(second)]);
      const diff = changes(a.pixels, b.pixels, a.width);
      return (
        mean(diff.filter((c) => c.firstInk).map((c) => c.x)) -
        mean(diff.filter((c) => !c.firstInk).map((c) => c.x))
      );
    };
    const latin = await shift('W.....', '.....W');
    const hebrew = await shift('אייייי', 'יייייא');
    expect(latin).toBeLessThan(-10);
    expect(hebrew).toBeGreaterThan(10);
  });
});
