/**
 * Renders a design for one recipient (DESIGN.md §5, "Draw only what changes"):
 * - the base layer (the photo fitted to the canvas, flipped) is made once per design version
 *   with sharp and kept in memory as raw pixels;
 * - per request the warm page draws only the personalised text layers on a transparent canvas;
 * - sharp composes the two and encodes JPEG or PNG.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { DesignDocumentSchema, type DesignDocument } from '#shared/design.ts';
import { resolveScene, type ResolvedScene } from '#shared/scene/resolve.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { getRenderPage } from './browser.ts';

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
  picsnippetsRender(scene: ResolvedScene): Promise<string>;
}

/** One draw at a time on the warm page: the canvas is shared, and draws await font loads. */
let queue: Promise<unknown> = Promise.resolve();

async function drawTextLayers(scene: ResolvedScene): Promise<Buffer> {
  const run = queue.then(async () => {
    const page = await getRenderPage();
    const dataUrl = await page.evaluate(
      (s) => (globalThis as unknown as RenderPageGlobals).picsnippetsRender(s),
      scene,
    );
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  });
  queue = run.catch(() => undefined);
  return run;
}

export interface RenderOutput {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/png';
}

/**
 * Draws the design with the recipient's values.
 * @param values parameter values by name, already decoded; undeclared names are ignored.
 * @throws ZodError if the stored document is invalid; S3 or browser errors as they come.
 */
export async function renderDesign(
  design: DesignForRender,
  values: Record<string, string>,
  format: 'jpeg' | 'png' = 'jpeg',
): Promise<RenderOutput> {
  const doc = DesignDocumentSchema.parse(design.document);
  const scene = resolveScene(doc, values);
  const [base, text] = await Promise.all([baseLayer(design, doc), drawTextLayers(scene)]);
  const composed = sharp(base.raw, {
    raw: { width: base.width, height: base.height, channels: 3 },
  }).composite([{ input: text, top: 0, left: 0 }]);
  if (format === 'png') {
    return {
      body: await composed.png({ compressionLevel: 6 }).toBuffer(),
      contentType: 'image/png',
    };
  }
  return {
    body: await composed.jpeg({ quality: 86, mozjpeg: false }).toBuffer(),
    contentType: 'image/jpeg',
  };
}

let placeholder: Promise<Buffer> | undefined;

/** A neutral light-grey image (600x400 JPEG), served when no design image can be drawn. */
export function placeholderImage(): Promise<Buffer> {
  placeholder ??= sharp({ create: { width: 600, height: 400, channels: 3, background: '#e7e9ee' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return placeholder;
}
