/**
 * Renders a design for one recipient (DESIGN.md §5, "Draw only what changes"):
 * - the base layer (the photo fitted to the canvas, flipped) is made once per design version
 *   with sharp and kept in memory as raw pixels;
 * - per request the warm page draws only the personalised text layers on a transparent canvas;
 * - sharp composes the two and encodes JPEG or PNG.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { DesignDocumentSchema, type DesignDocument } from '#shared/design.ts';
import { resolveScene, type ResolvedScene } from '#shared/scene/resolve.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { getRenderPage, resetRenderPage } from './browser.ts';
import { stickerImages } from './stickers.ts';

export interface DesignForRender {
  designId: string;
  version: number;
  document: unknown;
}

interface BaseLayer {
  raw: Buffer;
  width: number;
  height: number;
}

/** Base layers by `designId:version`; a new version makes a new key, so no invalidation. */
const baseLayers = new Map<string, Promise<BaseLayer>>();
const MAX_BASE_LAYERS = 64;

async function loadBaseLayer(doc: DesignDocument): Promise<BaseLayer> {
  const object = await s3Client().send(
    new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: doc.base_image_key }),
  );
  const bytes = Buffer.from(await object.Body!.transformToByteArray());
  let image = sharp(bytes, { limitInputPixels: 40_000_000 })
    .rotate()
    .resize(doc.canvas_width, doc.canvas_height, { fit: 'cover' });
  if (doc.flip_x) image = image.flop();
  if (doc.flip_y) image = image.flip();
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { raw: data, width: info.width, height: info.height };
}

function baseLayer(design: DesignForRender, doc: DesignDocument): Promise<BaseLayer> {
  const key = `${design.designId}:${design.version}`;
  let layer = baseLayers.get(key);
  if (!layer) {
    if (baseLayers.size >= MAX_BASE_LAYERS) baseLayers.delete(baseLayers.keys().next().value!);
    layer = loadBaseLayer(doc);
    layer.catch(() => baseLayers.delete(key));
    baseLayers.set(key, layer);
  }
  return layer;
}

/** What the render page bundle (page/src/main.ts) puts on `window`. */
interface RenderPageGlobals {
  picsnippetsRender(scene: ResolvedScene): Promise<DrawnLayer | null>;
}

/** The page's hand-off: straight RGBA pixels of the drawn rectangle, base64 (page/src/main.ts). */
interface DrawnLayer {
  left: number;
  top: number;
  width: number;
  height: number;
  rgba: string;
}

/** One draw at a time on the warm page: the canvas is shared, and draws await font loads. */
let queue: Promise<unknown> = Promise.resolve();

/** Errors that mean the page or browser went away; the draw is retried once on a new one. */
const GONE = /Target closed|Session closed|detached|disconnected|Protocol error|crash/i;

async function drawPersonalisedLayers(scene: ResolvedScene): Promise<DrawnLayer | null> {
  const draw = async () => {
    const page = await getRenderPage();
    return page.evaluate(
      (s) => (globalThis as unknown as RenderPageGlobals).picsnippetsRender(s),
      scene,
    );
  };
  // A crashed Chromium is relaunched (browser.ts) and the request in flight is drawn again,
  // not failed (issue: render §8).
  const run = queue.then(() =>
    draw().catch((error: unknown) => {
      if (!GONE.test(String((error as Error)?.message))) throw error;
      return resetRenderPage().then(draw);
    }),
  );
  queue = run.catch(() => undefined);
  return run;
}

export type RenderFormat = 'jpeg' | 'png' | 'pdf';

export interface RenderOutput {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'application/pdf';
}

/** A JPEG as a one-page PDF at the image's size (1 px = 0.75 pt, i.e. 96 dpi). */
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

/**
 * Draws the design with the recipient's values: the static layer (cached per design version)
 * with the personalised layers composed over it by sharp, encoded as JPEG (quality 86), PNG or
 * a one-page PDF.
 * @param values parameter values by name, already decoded and normalised; undeclared names are
 *   ignored by scene resolution.
 * @throws ZodError if the stored document is invalid; S3 or browser errors as they come.
 */
export async function renderDesign(
  design: DesignForRender,
  values: Record<string, string>,
  format: RenderFormat = 'jpeg',
): Promise<RenderOutput> {
  const doc = DesignDocumentSchema.parse(design.document);
  const basePromise = baseLayer(design, doc);
  const scene = resolveScene(doc, values, await stickerImages(doc, values));
  const [base, drawn] = await Promise.all([basePromise, drawPersonalisedLayers(scene)]);
  let image = sharp(base.raw, { raw: { width: base.width, height: base.height, channels: 3 } });
  if (drawn) {
    image = image.composite([
      {
        input: Buffer.from(drawn.rgba, 'base64'),
        raw: { width: drawn.width, height: drawn.height, channels: 4 },
        left: drawn.left,
        top: drawn.top,
      },
    ]);
  }
  if (format === 'png') {
    return { body: await image.png({ compressionLevel: 6 }).toBuffer(), contentType: 'image/png' };
  }
  const jpeg = await image.jpeg({ quality: 86 }).toBuffer();
  if (format === 'pdf') {
    return { body: await jpegToPdf(jpeg, base.width, base.height), contentType: 'application/pdf' };
  }
  return { body: jpeg, contentType: 'image/jpeg' };
}

let placeholder: Promise<Buffer> | undefined;

/** A neutral light-grey image (600x400 JPEG), served when no design image can be drawn. */
export function placeholderImage(): Promise<Buffer> {
  placeholder ??= sharp({ create: { width: 600, height: 400, channels: 3, background: '#e7e9ee' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return placeholder;
}
