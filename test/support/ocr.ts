/**
 * OCR of white text in a rendered image (tesseract.js with its English data from the registry,
 * offline, as test/integration/render-text.test.ts): countdown timers' digits read back from a
 * GIF frame (test/integration/render-countdown.test.ts, test/e2e/countdown-timer.test.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, PSM, type Worker } from 'tesseract.js';

/** A tesseract worker reading one line of text, from the local English data. */
export async function lineReader(): Promise<Worker> {
  const require = createRequire(import.meta.url);
  const langPath = join(
    dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0_best_int',
  );
  const ocr = await createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
  await ocr.setParameters({ user_defined_dpi: '300', tessedit_pageseg_mode: PSM.SINGLE_LINE });
  return ocr;
}

/** A tesseract worker reading a block of lines (one uniform block), from the local English data. */
export async function blockReader(): Promise<Worker> {
  const ocr = await lineReader();
  await ocr.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
  return ocr;
}

/**
 * The white pixels in `box` of frame `page` of an image (a GIF frame, or page 0 of a still) as
 * black ink on white paper, a PNG: the photo around them drops out, so tesseract reads the
 * text reliably.
 */
async function whiteInk(
  image: Buffer,
  page: number,
  box: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const { data, info } = await sharp(image, { page, pages: 1 })
    .extract(box)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const ink = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < ink.length; i++) {
    const white = data[i * 3]! > 225 && data[i * 3 + 1]! > 225 && data[i * 3 + 2]! > 225;
    ink[i] = white ? 0 : 255;
  }
  return sharp(ink, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * The white text in `box` of frame `page` of an image (see `whiteInk`), whitespace folded to
 * single spaces.
 */
export async function readWhiteText(
  ocr: Worker,
  image: Buffer,
  page: number,
  box: { left: number; top: number; width: number; height: number },
): Promise<string> {
  const png = await whiteInk(image, page, box);
  return (await ocr.recognize(png)).data.text.replace(/\s+/g, ' ').trim();
}

/**
 * The lines of white text in `box` of a still image, top to bottom, each with its whitespace
 * folded (test/integration/render-text-fit.test.ts). `ocr` reads a block of lines
 * ({@link blockReader}).
 */
export async function readWhiteLines(
  ocr: Worker,
  image: Buffer,
  box: { left: number; top: number; width: number; height: number },
): Promise<string[]> {
  const png = await whiteInk(image, 0, box);
  const { text } = (await ocr.recognize(png)).data;
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}
