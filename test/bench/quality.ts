/**
 * Output size of the reference scene (test/bench/reference.ts) by JPEG encoder settings
 * (docs/performance.md "Output quality"), written to bench-results/quality.json.
 *
 * The service draws the scene once as PNG (lossless: the exact pixels it would encode) and once
 * as JPEG at the design's default `quality` setting (shared/design.ts `DEFAULT_RENDER_QUALITY`,
 * "today"). The PNG's pixels are then encoded in-process with sharp: today's options (the baseline
 * every row is compared with), and mozjpeg (`mozjpeg: true`: trellis quantisation, progressive
 * scans, quantisation table 3) at each of `MOZJPEG_QUALITIES`. Each is compared with today's
 * decoded output by SSIM (ssim.js, its default 'weber' method with 11x11 Gaussian windows, at
 * full resolution: `downsample: false`, stricter than the reference method's 2x downsampling
 * for this size, which is reported too); the pick is the smallest mozjpeg output with
 * full-resolution SSIM ≥ `SSIM_FLOOR`.
 * SSIM against the lossless pixels is reported alongside, for scale. Sizes in bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import sharp, { type JpegOptions } from 'sharp';
import { ssim } from 'ssim.js';
import type { LocalStack } from '#infra/local/stack.ts';
import { DEFAULT_RENDER_QUALITY } from '#shared/design.ts';
import { AVIF_OPTIONS, jpegOptions, WEBP_OPTIONS } from '#functions/render/renderer.ts';
import { insertReferenceDesign, referencePath, referenceValues } from './reference.ts';
import { formatTable } from './table.ts';
import { RESULTS_DIR } from './scale.ts';

/**
 * How much less faithful than today's JPEG a WebP or AVIF setting may be (full-resolution SSIM
 * against the lossless pixels): 0.001, below what the eye tells apart.
 */
export const MODERN_SSIM_TOLERANCE = 0.001;

/** WebP and AVIF qualities tried (sharp's 1–100 scale), at the renderer's efforts. */
export const WEBP_QUALITIES = [60, 70, 75, 80, 85, 90] as const;
export const AVIF_QUALITIES = [45, 55, 60, 65, 70, 72, 75] as const;

/** mozjpeg qualities tried (sharp's 1–100 scale). */
export const MOZJPEG_QUALITIES = [70, 78, 82, 86, 88, 90, 92, 94, 96] as const;
/** The least SSIM against today's output for a setting to be chosen (the task's rule). */
export const SSIM_FLOOR = 0.99;

interface Rgba {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** An encoded image decoded to RGBA, as ssim.js reads it. */
async function rgba(image: Buffer): Promise<Rgba> {
  const { data, info } = await sharp(image)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
}

const round4 = (n: number) => Math.round(n * 10000) / 10000;
/** Mean SSIM at full resolution (the pick's measure). */
const ssimOf = (a: Rgba, b: Rgba): number => round4(ssim(a, b, { downsample: false }).mssim);
/** Mean SSIM as Wang et al.'s reference code computes it (downsampled 2x at this size). */
const ssimReference = (a: Rgba, b: Rgba): number =>
  round4(ssim(a, b, { downsample: 'original' }).mssim);

export interface QualityRow {
  setting: string;
  bytes: number;
  /** Size against today's output, 1 = the same. */
  ratio: number;
  /** Full-resolution SSIM against today's output: the pick's measure. */
  ssim_vs_today: number;
  /** The same by the reference method (2x downsampled), for comparison with other reports. */
  ssim_vs_today_ref: number;
  /** Full-resolution SSIM against the lossless pixels. */
  ssim_vs_lossless: number;
  /** The encode's time, ms (WebP and AVIF rows). */
  encode_ms?: number;
}

export interface QualityResult {
  scene: string;
  /**
   * Today's options on the PNG's pixels; `service_bytes` is the service's own JPEG of the same
   * URL, a separate draw whose pixels may differ slightly (`service_mean_difference`, levels
   * 0–255 per channel, against today's re-encode).
   */
  today: {
    options: JpegOptions;
    bytes: number;
    service_bytes: number;
    service_mean_difference: number;
  };
  rows: QualityRow[];
  ssim_floor: number;
  /** The smallest mozjpeg setting with full-resolution SSIM ≥ the floor, or null if none is. */
  chosen: QualityRow | null;
  /** The same by the reference-method SSIM (`ssim_vs_today_ref`). */
  chosen_ref: QualityRow | null;
  /**
   * WebP and AVIF (docs/export.md "Image formats"): the smallest setting as faithful to the
   * lossless pixels (`ssim_vs_lossless`) as today's JPEG, within `MODERN_SSIM_TOLERANCE`, or
   * null if none is.
   */
  chosen_webp: QualityRow | null;
  chosen_avif: QualityRow | null;
  machine: { cpus: number; node: string; sharp: string; libvips: string };
  measured_at: string;
}

/** Mean absolute difference of the RGB channels, levels 0–255, rounded to 4 places. */
function meanDifference(a: Rgba, b: Rgba): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += Math.abs(a.data[i]! - b.data[i]!);
  return round4(sum / ((a.data.length / 4) * 3));
}

async function get(stack: LocalStack, path: string): Promise<Buffer> {
  const res = await fetch(`${stack.url}${path}`);
  if (res.status !== 200) throw new Error(`quality bench: ${path} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export async function runQualityBench(stack: LocalStack): Promise<QualityResult> {
  await insertReferenceDesign();
  const jpegPath = referencePath(referenceValues('quality', 0));
  const service = await get(stack, jpegPath);
  const png = await get(stack, jpegPath.replace('.jpg?', '.png?'));
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const encode = (options: JpegOptions) =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .jpeg(options)
      .toBuffer();

  const todayOptions = jpegOptions(DEFAULT_RENDER_QUALITY);
  const today = await encode(todayOptions);
  const todayPixels = await rgba(today);
  const lossless = await rgba(png);
  const row = async (setting: string, body: Buffer): Promise<QualityRow> => {
    const pixels = await rgba(body);
    return {
      setting,
      bytes: body.length,
      ratio: Math.round((body.length / today.length) * 1000) / 1000,
      ssim_vs_today: ssimOf(todayPixels, pixels),
      ssim_vs_today_ref: ssimReference(todayPixels, pixels),
      ssim_vs_lossless: ssimOf(lossless, pixels),
    };
  };
  const rows = [await row(`today: q${todayOptions.quality}, baseline, 4:2:0`, today)];
  for (const quality of MOZJPEG_QUALITIES)
    rows.push(await row(`mozjpeg q${quality}`, await encode({ quality, mozjpeg: true })));
  const timed = async (setting: string, make: () => Promise<Buffer>): Promise<QualityRow> => {
    const started = performance.now();
    const body = await make();
    const encodeMs = Math.round((performance.now() - started) * 10) / 10;
    return { ...(await row(setting, body)), encode_ms: encodeMs };
  };
  const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  const modern: QualityRow[] = [];
  for (const quality of WEBP_QUALITIES)
    modern.push(
      await timed(`webp q${quality}`, () =>
        raw()
          .webp({ ...WEBP_OPTIONS, quality })
          .toBuffer(),
      ),
    );
  for (const quality of AVIF_QUALITIES)
    modern.push(
      await timed(`avif q${quality}`, () =>
        raw()
          .avif({ ...AVIF_OPTIONS, quality })
          .toBuffer(),
      ),
    );
  const floor = round4(rows[0]!.ssim_vs_lossless - MODERN_SSIM_TOLERANCE);
  const faithful = (prefix: string) =>
    modern
      .filter((r) => r.setting.startsWith(prefix) && r.ssim_vs_lossless >= floor)
      .sort((a, b) => a.bytes - b.bytes)[0] ?? null;
  const smallest = (ssimOfRow: (r: QualityRow) => number) =>
    rows
      .slice(1)
      .filter((r) => ssimOfRow(r) >= SSIM_FLOOR)
      .sort((a, b) => a.bytes - b.bytes)[0] ?? null;
  const chosen = smallest((r) => r.ssim_vs_today);
  const chosenRef = smallest((r) => r.ssim_vs_today_ref);

  const result: QualityResult = {
    scene: `${jpegPath} (${info.width}x${info.height})`,
    today: {
      options: todayOptions,
      bytes: today.length,
      service_bytes: service.length,
      service_mean_difference: meanDifference(await rgba(service), todayPixels),
    },
    rows: [...rows, ...modern],
    ssim_floor: SSIM_FLOOR,
    chosen,
    chosen_ref: chosenRef,
    chosen_webp: faithful('webp'),
    chosen_avif: faithful('avif'),
    machine: {
      cpus: cpus().length,
      node: process.version,
      sharp: sharp.versions.sharp ?? '',
      libvips: sharp.versions.vips,
    },
    measured_at: new Date().toISOString(),
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'quality.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${formatTable(
      [
        'setting',
        'bytes',
        'ratio',
        'ssim_vs_today',
        'ssim_vs_today_ref',
        'ssim_vs_lossless',
        'encode_ms',
      ],
      [...rows, ...modern].map((r) => ({ ...r, encode_ms: r.encode_ms ?? '' })),
    )}\n`,
  );
  console.log(
    `service JPEG ${service.length} bytes (mean difference ${result.today.service_mean_difference}); chosen (SSIM ≥ ${SSIM_FLOOR}): ${chosen?.setting ?? 'none'}, by the reference method: ${chosenRef?.setting ?? 'none'}`,
  );
  console.log(
    `as faithful as today's JPEG (SSIM vs lossless ≥ ${floor}, today's less ${MODERN_SSIM_TOLERANCE}): WebP ${result.chosen_webp?.setting ?? 'none'} (${result.chosen_webp?.bytes ?? '–'} bytes), AVIF ${result.chosen_avif?.setting ?? 'none'} (${result.chosen_avif?.bytes ?? '–'} bytes)`,
  );
  console.log('wrote bench-results/quality.json');
  return result;
}
