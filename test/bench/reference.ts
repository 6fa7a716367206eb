/**
 * The benchmark's reference scene (docs/performance.md "The reference scene"): `autumn.jpg` fitted
 * to a 1000x625 canvas, three text layers with one parameter each and one QR code, rendered as
 * JPEG. The renderer draws it from this design document; the satori and page-per-render comparisons
 * draw the same layout from the same constants, so all three draw the same thing.
 *
 * Geometry is in canvas px (top-left origin), font sizes in px.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { DesignDocumentSchema, type DesignDocumentInput } from '#shared/design.ts';

/** The public render id: `/r/bench-reference.jpg`. */
export const REFERENCE_PUBLIC_ID = 'bench-reference';
export const REFERENCE_DESIGN_ID = 'design-bench-reference';
/** The seeded demo team (infra/local/seed.ts), on the Pro plan. */
export const REFERENCE_TEAM_ID = 'team-demo';

/** The base photo on disk (1600x1000) and its key in the seeded assets bucket. */
export const PHOTO_PATH = join(
  import.meta.dirname,
  '..',
  '..',
  'infra',
  'seed',
  'photos',
  'autumn.jpg',
);
export const PHOTO_KEY = 'files/library/global/library-autumn.jpg';

/** Canvas size, px. */
export const CANVAS = { width: 1000, height: 625 } as const;
/** The renderer's JPEG quality (functions/render/renderer.ts), used by every comparison. */
export const JPEG_QUALITY = 86;

/** One text layer of the reference scene; `{{name}}` is its single parameter. */
export interface ReferenceText {
  id: string;
  text: string;
  param: ReferenceParam;
  fallback: string;
  /** px */
  fontSize: number;
  fontWeight: 'normal' | 'bold';
  textAlign: 'left' | 'center';
  fill: string;
  stroke: string;
  /** Outline width, px. */
  strokeWidth: number;
  /** Box position and width, px. */
  left: number;
  top: number;
  width: number;
}

/** The parameters a reference render takes: three for the texts, one for the QR code. */
export type ReferenceParam = 'first_name' | 'company' | 'code' | 'qr_url';
export type ReferenceValues = Record<ReferenceParam, string>;

export const REFERENCE_TEXTS: readonly ReferenceText[] = [
  {
    id: 'snippet-hello',
    text: 'Hello {{first_name}}!',
    param: 'first_name',
    fallback: 'there',
    fontSize: 64,
    fontWeight: 'bold',
    textAlign: 'center',
    fill: '#ffffff',
    stroke: '#1f2937',
    strokeWidth: 4,
    left: 50,
    top: 120,
    width: 900,
  },
  {
    id: 'snippet-company',
    text: '{{company}}',
    param: 'company',
    fallback: 'your team',
    fontSize: 40,
    fontWeight: 'bold',
    textAlign: 'center',
    fill: '#ffffff',
    stroke: '#1f2937',
    strokeWidth: 3,
    left: 50,
    top: 230,
    width: 900,
  },
  {
    id: 'snippet-code',
    text: 'Your code: {{code}}',
    param: 'code',
    fallback: 'WELCOME',
    fontSize: 32,
    fontWeight: 'bold',
    textAlign: 'left',
    fill: '#ffffff',
    stroke: '#1f2937',
    strokeWidth: 2,
    left: 40,
    top: 545,
    width: 700,
  },
];

/** The QR sticker: 512 px intrinsic, scaled by 0.3, so 153.6 px square at (820, 445). */
export const REFERENCE_QR = {
  uuid: 'qr-1',
  stickerType: 'dynamicSticker',
  dynamicStickerType: 'qrCode',
  dynamicStickerParamName: 'qr_url',
  dynamicStickerUrl: 'https://example.com/',
  left: 820,
  top: 445,
  width: 512,
  height: 512,
  scaleX: 0.3,
  scaleY: 0.3,
} as const;
/** The QR code's drawn side, px. */
export const QR_SIDE_PX = REFERENCE_QR.width * REFERENCE_QR.scaleX;
/** The QR colour: the sticker schema's default (shared/design.ts). */
export const QR_COLOR = '#111111';

/** The reference design document (not yet parsed: the schema fills the defaults). */
export function referenceDocument(): DesignDocumentInput {
  return {
    schemaVersion: 1,
    image_id: 'library-autumn',
    base_image_key: PHOTO_KEY,
    canvas_width: CANVAS.width,
    canvas_height: CANVAS.height,
    render_format: 'jpeg',
    text_snippets: REFERENCE_TEXTS.map((t) => ({
      id: t.id,
      text: t.text,
      fontFamily: 'Noto Sans',
      fontWeight: t.fontWeight,
      fontSize: t.fontSize,
      fill: t.fill,
      stroke: t.stroke,
      strokeWidth: t.strokeWidth,
      textAlign: t.textAlign,
      left: t.left,
      top: t.top,
      width: t.width,
      parameters: [
        {
          id: `param-${t.param}`,
          param_name: t.param,
          param_default_value: t.fallback,
          text_transform: { checkFormating: false, formatOptionKey: null, formatOptionName: null },
        },
      ],
    })),
    graphics_data: [{ ...REFERENCE_QR }],
  };
}

/**
 * Puts the reference design into the local stack's table (call after `startLocalStack`, which
 * sets the endpoints the db client reads).
 */
export async function insertReferenceDesign(): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  await db()
    .Design.put({
      designId: REFERENCE_DESIGN_ID,
      teamId: REFERENCE_TEAM_ID,
      publicId: REFERENCE_PUBLIC_ID,
      title: 'Benchmark reference',
      status: 'active',
      version: 1,
      document: DesignDocumentSchema.parse(referenceDocument()),
    })
    .go();
}

const NAMES = [
  'Ana',
  'Bruno',
  'Chloé',
  'Dmitri',
  'Esra',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
];
const COMPANIES = ['Acme Bakery', 'Northwind', 'Blue Harbor', 'Kestrel Labs', 'Maple & Co'];

/**
 * Distinct values for request `i` of a series: no two (series, i) pairs give the same values,
 * so every request is a cache miss. Use a different series per phase and per run.
 */
export function referenceValues(series: string, i: number): ReferenceValues {
  return {
    first_name: `${NAMES[i % NAMES.length]!} ${i}`,
    company: `${COMPANIES[i % COMPANIES.length]!} ${series}`,
    code: `${series.toUpperCase()}-${(i + 1) * 7919}`,
    qr_url: `https://example.com/offer/${series}/${i}`,
  };
}

/** The render path and query for a set of values: `/r/bench-reference.jpg?first_name=…`. */
export function referencePath(values: ReferenceValues): string {
  return `/r/${REFERENCE_PUBLIC_ID}.jpg?${new URLSearchParams(values).toString()}`;
}

/** The text a layer shows for the values (a single `{{param}}` replaced). */
export function layerText(layer: ReferenceText, values: ReferenceValues): string {
  const value = values[layer.param].trim() === '' ? layer.fallback : values[layer.param];
  return layer.text.replace(`{{${layer.param}}}`, value);
}

/**
 * The base photo fitted to the canvas (cover, as the renderer's base layer) as a JPEG, made once
 * outside any timing, for the comparisons that embed it as a data URL.
 */
export async function fittedPhotoJpeg(): Promise<Buffer> {
  return sharp(PHOTO_PATH)
    .resize(CANVAS.width, CANVAS.height, { fit: 'cover' })
    .jpeg({ quality: 92 })
    .toBuffer();
}
