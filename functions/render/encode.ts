/**
 * Encoding a composed render (renderer.ts `renderDesign`): JPEG with the design's `quality`
 * setting, lossless PNG, WebP and AVIF at the quality bench's settings, or a one-page PDF
 * holding the JPEG (docs/performance.md "Output quality"); a dense image (`@2x`, `@3x`) within
 * its byte budget (docs/export.md "Density").
 */
import { PDFDocument } from 'pdf-lib';
import sharp, { type JpegOptions } from 'sharp';
import type { RenderQuality } from '#shared/design.ts';
import { denseByteBudget } from '#shared/render-limits.ts';

/**
 * Output formats; `gif` is a design with countdown timers, animated (countdown-gif.ts); `webp`
 * and `avif` are for web pages and video players (docs/export.md "Image formats").
 */
export type RenderFormat = 'jpeg' | 'png' | 'pdf' | 'gif' | 'webp' | 'avif';

/**
 * WebP and AVIF settings, picked by the quality bench (test/bench/quality.ts;
 * docs/performance.md "Output quality"): the smallest quality whose output is at least as
 * faithful to the lossless pixels (SSIM) as the JPEG at the default setting. sharp's 1–100
 * scale; `effort` trades encode time for bytes (AVIF 0–9, WebP 0–6).
 */
export const WEBP_OPTIONS = { quality: 85, effort: 4 } as const;
export const AVIF_OPTIONS = { quality: 70, effort: 1 } as const;

export interface RenderOutput {
  body: Buffer;
  contentType:
    'image/jpeg' | 'image/png' | 'application/pdf' | 'image/gif' | 'image/webp' | 'image/avif';
  /** Stage times, ms, for the Server-Timing header. */
  timings?: Record<string, number>;
  /**
   * True when a dynamic sticker drew its fallback or nothing because the render's outside
   * fetches were spent (fetch-budget.ts): the answer must not be cached.
   */
  partial?: boolean;
}

/**
 * sharp's `.jpeg()` options for a design's `quality` setting (shared/design.ts
 * `RenderQualitySchema`): quality 1–100, progressive, chroma subsampling; mozjpeg stays off.
 * A baseline JPEG is written with libjpeg's standard Huffman tables, not tables optimised per
 * image (sharp's default `optimiseCoding`): Huffman coding is lossless, so the decoded pixels
 * are exactly those of the optimised file, for about 1 % more bytes and half the encode's CPU
 * (docs/performance.md "CPU per render: profile and changes"; test/unit/design-quality.test.ts).
 * A progressive JPEG is always optimised by libjpeg.
 */
export function jpegOptions(quality: RenderQuality): JpegOptions {
  return {
    quality: quality.quality,
    progressive: quality.progressive,
    chromaSubsampling: quality.chromaSubsampling,
    mozjpeg: false,
    optimiseCoding: false,
  };
}

/**
 * A JPEG as a one-page PDF of `width` × `height` px of page (1 px = 0.75 pt, i.e. 96 dpi): a
 * dense JPEG fills the same page at a higher resolution.
 */
async function jpegToPdf(jpeg: Buffer, width: number, height: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setProducer('PicSnippets');
  pdf.setCreationDate(new Date(0)); // the same render gives the same bytes
  pdf.setModificationDate(new Date(0));
  const image = await pdf.embedJpg(jpeg);
  const page = pdf.addPage([width * 0.75, height * 0.75]);
  page.drawImage(image, { x: 0, y: 0, width: width * 0.75, height: height * 0.75 });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The size of composed pixels, px. */
interface Size {
  width: number;
  height: number;
}

/**
 * One encoding of a still: JPEG at `step.quality` (the design's other settings), PNG (lossless,
 * or a 256-colour palette with `step.palette`), WebP or AVIF at `step.quality`, or the PDF of
 * the JPEG with a page of `page` px.
 */
async function encodeOnce(
  pixels: Buffer,
  size: Size,
  format: RenderFormat,
  quality: RenderQuality,
  step: EncodeStep,
  page: Size,
): Promise<RenderOutput> {
  const image = sharp(pixels, { raw: { width: size.width, height: size.height, channels: 3 } });
  if (format === 'png' || format === 'gif') {
    const png = step.palette
      ? image.png({ palette: true, quality: 90, compressionLevel: 9 })
      : image.png({ compressionLevel: step.compressionLevel ?? 6 });
    return { body: await png.toBuffer(), contentType: 'image/png' };
  }
  if (format === 'webp')
    return {
      body: await image.webp({ ...WEBP_OPTIONS, quality: step.quality }).toBuffer(),
      contentType: 'image/webp',
    };
  if (format === 'avif')
    return {
      body: await image.avif({ ...AVIF_OPTIONS, quality: step.quality }).toBuffer(),
      contentType: 'image/avif',
    };
  const jpeg = await image.jpeg(jpegOptions({ ...quality, quality: step.quality })).toBuffer();
  return format === 'pdf'
    ? { body: await jpegToPdf(jpeg, page.width, page.height), contentType: 'application/pdf' }
    : { body: jpeg, contentType: 'image/jpeg' };
}

/** One try of the byte-budget ladder: a quality (JPEG, WebP, AVIF) or a PNG setting. */
export interface EncodeStep {
  quality: number;
  compressionLevel?: number;
  palette?: boolean;
}

/** The lowest quality a dense JPEG, WebP or AVIF steps down to (docs/export.md "Density"). */
export const DENSE_QUALITY_FLOOR = { jpeg: 50, webp: 55, avif: 40 } as const;
/** How far each step of the ladder lowers the quality. */
const QUALITY_STEP = 8;

/**
 * The encodings a dense image tries in turn until one is within its byte budget
 * (docs/export.md "Density"): JPEG (and PDF) from the design's quality down by 8 to 50, WebP
 * from 85 to 55, AVIF from 70 to 40, always at least the first; PNG lossless (zlib level 9),
 * then a 256-colour palette. At most 7 steps.
 */
export function budgetLadder(format: RenderFormat, quality: RenderQuality): EncodeStep[] {
  if (format === 'png' || format === 'gif')
    return [
      { quality: 100, compressionLevel: 9 },
      { quality: 90, palette: true },
    ];
  const [start, floor] =
    format === 'webp'
      ? [WEBP_OPTIONS.quality, DENSE_QUALITY_FLOOR.webp]
      : format === 'avif'
        ? [AVIF_OPTIONS.quality, DENSE_QUALITY_FLOOR.avif]
        : [quality.quality, DENSE_QUALITY_FLOOR.jpeg];
  const steps: EncodeStep[] = [{ quality: start }];
  for (let q = start - QUALITY_STEP; q >= floor && steps.length < 7; q -= QUALITY_STEP)
    steps.push({ quality: q });
  return steps;
}

/**
 * Encodes composed RGB pixels of `size` px as JPEG (the design's `quality`), lossless PNG (also
 * for `gif` without timers: nothing moves), WebP or AVIF (the bench's settings) or a one-page
 * PDF holding the JPEG (docs/performance.md "Output quality").
 *
 * At a density above 1× (docs/export.md "Density") the image is `size` px, its PDF page the
 * canvas (`size` / density), and it must fit its byte budget (shared/render-limits.ts
 * `denseByteBudget`): the encodings of {@link budgetLadder} are tried in turn, the first within
 * the budget answered.
 * @throws Error (cause `over-budget`) when even the last step is over the budget: the render
 *   service answers the fallback, uncached.
 */
export async function encodeStill(
  pixels: Buffer,
  size: Size,
  format: RenderFormat,
  quality: RenderQuality,
  density: 1 | 2 | 3 = 1,
): Promise<RenderOutput> {
  if (density === 1)
    return encodeOnce(
      pixels,
      size,
      format,
      quality,
      format === 'webp'
        ? WEBP_OPTIONS
        : format === 'avif'
          ? AVIF_OPTIONS
          : { quality: quality.quality },
      size,
    );
  const page = { width: size.width / density, height: size.height / density };
  const budget = denseByteBudget(
    format === 'gif' ? 'png' : format === 'pdf' ? 'pdf' : format,
    density,
  );
  let last = 0;
  for (const step of budgetLadder(format, quality)) {
    const output = await encodeOnce(pixels, size, format, quality, step, page);
    if (output.body.length <= budget) return output;
    last = output.body.length;
  }
  throw Object.assign(
    new Error(`dense ${format} image over its budget: ${last} bytes > ${budget} bytes`),
    { cause: 'over-budget' },
  );
}
