/**
 * Text in renders is read, not only compared (docs/security.md "Text in renders"):
 * - Latin values are read back by OCR (tesseract.js with its English data from the registry,
 *   offline): the recipient's name is in the picture, spelled right, and a missing value shows
 *   the fallback, never the merge tag.
 * - Other scripts: every character has a glyph in the fallback stack the render page ships
 *   (test/support/glyph-coverage.ts reads its `@font-face` rules and asks fontkit), and the
 *   render differs from the all-fallback render where the name stands. A character without a
 *   glyph is a box in the picture, so a value with one fails.
 * Scripts with no face yet are listed with `it.fails`, so the day they draw, the test says so.
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
import { missingGlyphs } from '../support/glyph-coverage.ts';

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
  ])('%s', async (_script, value) => {
    await expectDrawn(value);
  });

  // Known gaps of the fallback stack: no Korean, Thai, Bengali, Tamil, Georgian or Lao faces.
  it.fails.each([
    ['Korean', '김민준'],
    ['Thai', 'สมชาย'],
    ['Bengali', 'তানভীর'],
    ['Tamil', 'தமிழ்'],
    ['Georgian', 'ნინო'],
    ['Lao', 'ສົມ'],
  ])('%s (no face yet)', async (_script, value) => {
    await expectDrawn(value);
  });
});
