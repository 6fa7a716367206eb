/**
 * Renders a design for one recipient (docs/adr/0004-render-slice.md "Render slice", "Draw only what changes"):
 * - the base layer (the photo fitted to the canvas, flipped) is made once per design version
 *   with sharp and kept in memory as raw pixels;
 * - per request the warm page draws only the personalised text layers on a transparent canvas;
 * - sharp composes the two and encodes JPEG or PNG.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Page } from 'puppeteer-core';
import type { BaseImageLayer } from '#shared/scene/draw.ts';
import { logger } from '#lib/logger.ts';
import sharp from 'sharp';
import { parseDesignDocument, type DesignDocument } from '#shared/design.ts';
import { glyphFilter } from '#shared/scene/glyphs.ts';
import type { DrawnLayer } from '#shared/scene/pixel-runs.ts';
import { blendOver, layerPixels } from './blend.ts';
import { blendInto, blendLayerInto, releaseFrame, takeFrame, type BaseLayer } from './frames.ts';
import { resolveScene, type ResolvedScene } from '#shared/scene/resolve.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { getRenderPage, resetRenderPage } from './browser.ts';
import { stickerImages, type DirectLayer } from './stickers.ts';
import { pollStickerDrawing } from '#shared/scene/poll.ts';
import { weatherStickerDrawing } from '#shared/scene/weather-sticker.ts';
import { logUndrawable, sceneFonts, uploadedFamilies } from './fonts.ts';
import { teamCustomFonts } from '#functions/fonts/list.ts';
import type { FontFaceRule } from '#shared/fonts/types.ts';
import { encodeGif, timerFrames, timerStickers } from './countdown-gif.ts';
import type { WatermarkSettings } from '#shared/scene/watermark.ts';
import { renderWatermarks } from './watermark.ts';
import { gifFrameInput } from './gif-frame.ts';
import { animatedFrames, designAnimation, encodeAnimated } from './animated-gif.ts';
import { encodeStill, type RenderFormat, type RenderOutput } from './encode.ts';
import type { RenderDensity } from '#shared/render-url.ts';

export interface DesignForRender {
  designId: string;
  version: number;
  document: unknown;
  /** The design's team: its uploaded fonts can draw the design's text (fonts.ts). */
  teamId?: string;
  /** The team's watermark and its plan's product mark (watermark.ts); absent: none. */
  watermark?: WatermarkSettings;
  /**
   * Set for a design with rules (service.ts): the document is the matched variant, whose base
   * photo may be another one (docs/rules.md "Variants"), so its static layer is keyed by photo.
   */
  ruleKey?: string;
}

/**
 * Base layers by `designId:version` (and `@{density}x` above 1×); a new version makes a new key,
 * so no invalidation.
 */
const baseLayers = new Map<string, Promise<BaseLayer>>();
const MAX_BASE_LAYERS = 64;
/**
 * Dense base layers (docs/export.md "Density"), kept apart and fewer: each is up to 24 MB of
 * RGB (shared/render-limits.ts `MAX_DENSE_PIXELS`), so at most 8 (192 MB) beside the 1× ones.
 */
const denseBaseLayers = new Map<string, Promise<BaseLayer>>();
const MAX_DENSE_BASE_LAYERS = 8;

/**
 * S3 key of a design version's static layer (assets bucket: it lives as long as the design).
 * @param photo `photoOfLayer`: '' for a design without rules.
 * @param density the layer's device px per canvas px (docs/export.md "Density"); 1× keys are
 *   the ones they always were.
 */
export const staticLayerKey = (
  designId: string,
  version: number,
  photo = '',
  density: RenderDensity = 1,
): string =>
  `static-layers/${designId}/v${version}${photo}${density === 1 ? '' : `@${density}x`}.png`;

/**
 * Which static layer a render draws on: the design version's, and for a design with rules also
 * its photo (a variant may show another one, docs/rules.md "Variants"; variants with the same
 * photo share one layer). `-` and 16 hex digits of the photo key's SHA-1, or '' without rules.
 */
const photoOfLayer = (design: DesignForRender, doc: DesignDocument): string =>
  design.ruleKey === undefined
    ? ''
    : `-${createHash('sha1').update(doc.base_image_key).digest('hex').slice(0, 16)}`;

/**
 * Draws the static layer in the warm page: the base photo fitted to the canvas by sharp (so the
 * page decodes a small image), then rotated, flipped, filtered and enhanced by fabric exactly as
 * the editor does (shared/scene/draw.ts, drawBaseImage). At a density above 1× (docs/export.md
 * "Density") the photo is fitted to that many times the canvas from the stored original, and the
 * page draws it at that density: the layer is `density` times the canvas on each side.
 */
async function drawStaticLayer(doc: DesignDocument, density: RenderDensity): Promise<BaseLayer> {
  const object = await s3Client().send(
    new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: doc.base_image_key }),
  );
  const bytes = Buffer.from(await object.Body!.transformToByteArray());
  const quarter = ((Math.round(doc.image_angle / 90) % 4) + 4) % 4;
  const [w, h] =
    quarter % 2 === 1
      ? [doc.canvas_height, doc.canvas_width]
      : [doc.canvas_width, doc.canvas_height];
  // A legacy design's photo is 500 px wide, uncropped (docs/security.md "Render limits"; shared/scene/resolve.ts
  // `placeBasePhoto`, whose fitted size this is for both cases).
  const legacyWidth = doc.legacy_base_image_width;
  // An animated GIF draws the frame the design saved (gif-frame.ts).
  const fitted = await sharp(bytes, await gifFrameInput(bytes, doc.base_image_gif_frame))
    .rotate() // EXIF orientation only
    .resize(
      legacyWidth === null
        ? { width: w * density, height: h * density, fit: 'cover' }
        : { width: legacyWidth * density },
    )
    .jpeg({ quality: 95 })
    .toBuffer();
  const base: BaseImageLayer = {
    src: `data:image/jpeg;base64,${fitted.toString('base64')}`,
    width: doc.canvas_width,
    height: doc.canvas_height,
    angle: doc.image_angle,
    flipX: doc.flip_x,
    flipY: doc.flip_y,
    filters: doc.filters,
    enhance: doc.enhance,
    legacyWidth,
  };
  const drawn = await onPage((page) =>
    page.evaluate(
      (b, d) => (globalThis as unknown as RenderPageGlobals).picsnippetsRenderBase(b, d),
      base,
      density,
    ),
  );
  const { data, info } = await sharp(layerPixels(drawn), {
    raw: { width: drawn.width, height: drawn.height, channels: 4 },
  })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { raw: data, width: info.width, height: info.height };
}

/**
 * The static layer of a design version (docs/adr/0004-render-slice.md "Render slice"): from S3 if an earlier
 * container drew it, else drawn now and written to S3 in the background.
 */
async function loadBaseLayer(
  design: DesignForRender,
  doc: DesignDocument,
  density: RenderDensity,
): Promise<BaseLayer> {
  const Bucket = config().ASSETS_BUCKET;
  const Key = staticLayerKey(design.designId, design.version, photoOfLayer(design, doc), density);
  try {
    const object = await s3Client().send(new GetObjectCommand({ Bucket, Key }));
    const png = Buffer.from(await object.Body!.transformToByteArray());
    const { data, info } = await sharp(png)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { raw: data, width: info.width, height: info.height };
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchKey') throw error;
  }
  const layer = await drawStaticLayer(doc, density);
  void sharp(layer.raw, { raw: { width: layer.width, height: layer.height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer()
    .then((Body) =>
      s3Client().send(new PutObjectCommand({ Bucket, Key, Body, ContentType: 'image/png' })),
    )
    .catch((e: unknown) => logger.warn('static layer write failed', { error: e as Error }));
  return layer;
}

function baseLayer(
  design: DesignForRender,
  doc: DesignDocument,
  density: RenderDensity,
): Promise<BaseLayer> {
  const dense = density === 1 ? '' : `@${density}x`;
  const key = `${design.designId}:${design.version}${photoOfLayer(design, doc)}${dense}`;
  const [layers, max] =
    density === 1 ? [baseLayers, MAX_BASE_LAYERS] : [denseBaseLayers, MAX_DENSE_BASE_LAYERS];
  let layer = layers.get(key);
  if (!layer) {
    if (layers.size >= max) layers.delete(layers.keys().next().value!);
    layer = loadBaseLayer(design, doc, density);
    layer.catch(() => layers.delete(key));
    layers.set(key, layer);
  }
  return layer;
}

/** What the render page bundle (page/src/main.ts) puts on `window`. */
interface RenderPageGlobals {
  picsnippetsRender(
    scene: ResolvedScene,
    faces: FontFaceRule[],
    density: RenderDensity,
  ): Promise<DrawnScene>;
  picsnippetsRenderBase(base: BaseImageLayer, density: RenderDensity): Promise<DrawnLayer>;
  picsnippetsRenderFrames(scenes: ResolvedScene[], faces: FontFaceRule[]): Promise<DrawnLayer[][]>;
}

/**
 * The page's hand-off: the drawn regions and the page's stage times, ms (page/src/main.ts), with
 * `queue`, the time the draw waited for the warm page behind other requests' draws (renderer.ts
 * `onPage`).
 */
interface DrawnScene {
  regions: DrawnLayer[];
  ms: { fonts: number; draw: number; read: number; queue?: number };
}

/** One draw at a time on the warm page: the canvas is shared, and draws await font loads. */
let queue: Promise<unknown> = Promise.resolve();

/** Errors that mean the page or browser went away; the draw is retried once on a new one. */
const GONE = /Target closed|Session closed|detached|disconnected|Protocol error|crash/i;

/**
 * Runs work on the warm page, one at a time, retried once on a relaunched browser.
 * @param onStart told when the work starts, i.e. when the draws queued before it are done.
 */
function onPage<T>(work: (page: Page) => Promise<T>, onStart?: () => void): Promise<T> {
  let page: Page | undefined;
  const draw = async () => {
    onStart?.();
    page = await getRenderPage();
    return work(page);
  };
  // A crashed Chromium is relaunched (browser.ts) and the request in flight is drawn again,
  // not failed (test/integration/render-faults.test.ts).
  const run = queue.then(() =>
    draw().catch((error: unknown) => {
      if (!GONE.test(String((error as Error)?.message))) throw error;
      return resetRenderPage(page).then(draw);
    }),
  );
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Draws the scene's personalised layers on the warm page, with the faces it needs beyond the
 * page's own (a team's uploaded font, a CDN family; fonts.ts `sceneFonts`), at `density`
 * device px per canvas px (docs/export.md "Density"): the regions come back in device px.
 */
async function drawPersonalisedLayers(
  scene: ResolvedScene,
  teamId: string | undefined,
  density: RenderDensity,
): Promise<DrawnScene> {
  const fonts = await sceneFonts(scene, teamId, teamCustomFonts);
  const queued = performance.now();
  let started = queued;
  const drawn = await onPage(
    (page) =>
      page.evaluate(
        (s, f, d) => (globalThis as unknown as RenderPageGlobals).picsnippetsRender(s, f, d),
        fonts.scene,
        fonts.faces,
        density,
      ),
    () => (started = performance.now()),
  );
  return { ...drawn, ms: { ...drawn.ms, queue: started - queued } };
}

/**
 * A QR code's pixels (stickers.ts `qrPixels`, drawn at 1×) at `density`: each pixel repeated
 * `density` times each way, and the place scaled. The code's modules are whole squares, so this
 * is the code drawn at that density, edge for edge.
 */
export function denseDirect(layer: DirectLayer, density: RenderDensity): DirectLayer {
  if (density === 1) return layer;
  const width = layer.width * density;
  const height = layer.height * density;
  const rgba = new Uint8Array(width * height * 4);
  const source = new Uint32Array(
    layer.rgba.buffer,
    layer.rgba.byteOffset,
    layer.width * layer.height,
  );
  const target = new Uint32Array(rgba.buffer);
  for (let y = 0; y < height; y++) {
    const from = Math.floor(y / density) * layer.width;
    for (let x = 0; x < width; x++) target[y * width + x] = source[from + Math.floor(x / density)]!;
  }
  return { left: layer.left * density, top: layer.top * density, width, height, rgba };
}

/**
 * Draws a timer design's scenes (its layers cut at the timers, and each timer's frames:
 * countdown-gif.ts `timerFrames`) on the warm page in one call, with the faces their families
 * need (fonts.ts `sceneFonts`).
 */
async function drawTimerScenes(
  scenes: ResolvedScene[],
  teamId: string | undefined,
): Promise<DrawnLayer[][]> {
  const texts = scenes.flatMap((s) => s.texts);
  const fonts = await sceneFonts({ ...scenes[0]!, texts }, teamId, teamCustomFonts);
  const family = new Map(texts.map((t, i) => [t.fontFamily, fonts.scene.texts[i]!.fontFamily]));
  const named = scenes.map((s) => ({
    ...s,
    texts: s.texts.map((t) => ({ ...t, fontFamily: family.get(t.fontFamily) ?? t.fontFamily })),
  }));
  return onPage((page) =>
    page.evaluate(
      (all, faces) =>
        (globalThis as unknown as RenderPageGlobals).picsnippetsRenderFrames(all, faces),
      named,
      fonts.faces,
    ),
  );
}

/** A draw of nothing: a timer design's layers are drawn with its frames (countdown-gif.ts). */
const NOTHING_DRAWN: Promise<DrawnScene> = Promise.resolve({
  regions: [],
  ms: { fonts: 0, draw: 0, read: 0 },
});

export {
  AVIF_OPTIONS,
  jpegOptions,
  WEBP_OPTIONS,
  type RenderFormat,
  type RenderOutput,
} from './encode.ts';

/**
 * Draws the design with the recipient's values: the static layer (cached per design version)
 * with the personalised layers composed over it by sharp, encoded as JPEG with the design's
 * `quality` setting (default quality 86, baseline, 4:2:0), lossless PNG (which ignores the
 * setting: docs/performance.md "Output quality") or a one-page PDF holding that same JPEG.
 * A design with countdown timers (countdown-gif.ts) draws them at `options.nowMs`: as an
 * animated GIF (`gif`, one frame a second), or their first frame in a still format.
 * At `options.density` 2 or 3 (docs/export.md "Density") the image is that many times the
 * canvas on each side: the photo fitted from the stored original, text and vector stickers drawn
 * at that density, encoded within the format's byte budget (encode.ts `encodeStill`). A timer
 * design draws at 1× whatever the density (the service keys it so).
 * @param values parameter values by name, already decoded and normalised; undeclared names are
 *   ignored by scene resolution.
 * @param options.nowMs the moment the timers show, ms since the epoch (default: now).
 * @param options.density device px per canvas px, 1 (default), 2 or 3.
 * @throws ZodError if the stored document is invalid; S3 or browser errors as they come; Error
 *   (cause `over-budget`) when a dense image cannot be encoded within its byte budget.
 */
export async function renderDesign(
  design: DesignForRender,
  values: Record<string, string>,
  format: RenderFormat = 'jpeg',
  options: { nowMs?: number; density?: RenderDensity } = {},
): Promise<RenderOutput> {
  const t0 = performance.now();
  const doc = parseDesignDocument(design.document);
  const timed = timerStickers(doc).length > 0;
  // An animated design's GIF plays its GIFs' frames (animated-gif.ts), at 1× as a timer's.
  const animation = format === 'gif' && !timed ? await designAnimation(doc) : null;
  const density: RenderDensity = timed || animation ? 1 : (options.density ?? 1);
  const basePromise = baseLayer(design, doc, density);
  const { images, direct, complete } = await stickerImages(doc, values, undefined, density);
  const t1 = performance.now();
  // Never tofu (docs/fonts.md): characters no shipped face draws are left out, logged once per
  // design; a team's uploaded font keeps its text whole.
  const uploaded = await uploadedFamilies(
    doc.text_snippets.map((s) => s.fontFamily),
    design.teamId,
    teamCustomFonts,
  );
  const dropped = new Set<number>();
  const glyphs = glyphFilter({
    ownCoverage: (family) => uploaded.has(family.trim().toLowerCase()),
    onDropped: (codes) => codes.forEach((code) => dropped.add(code)),
  });
  const scene = resolveScene(doc, values, images, { glyphs });
  // A poll's and a weather sticker's texts are drawn with the design's, above their images
  // (docs/polls.md "Drawing"; docs/weather.md "The weather sticker").
  for (const sticker of doc.graphics_data) {
    const drawn =
      sticker.dynamicStickerType === 'poll'
        ? pollStickerDrawing(sticker, values)
        : sticker.dynamicStickerType === 'weather'
          ? weatherStickerDrawing(sticker, values)
          : undefined;
    if (drawn)
      scene.texts.push(...drawn.texts.map((t) => ({ ...t, text: glyphs(t.text, t.fontFamily) })));
  }
  if (dropped.size > 0) logUndrawable(design.designId, dropped);
  const watermarks = await renderWatermarks(doc, design.watermark);
  scene.watermarks = watermarks.layers;
  if (animation) scene.images = scene.images.filter((i) => !animation.stickerIds.has(i.id));
  // A timer design's layers are drawn with its frames, cut at the timers (countdown-gif.ts).
  const [base, drawn] = await Promise.all([
    basePromise,
    timed ? NOTHING_DRAWN : drawPersonalisedLayers(scene, design.teamId, density),
  ]);
  const t2 = performance.now();
  // Blend the regions into a copy of the static layer here: for a few small regions this is far
  // cheaper than libvips' general composite (which works in float), then one JPEG encode.
  const frame = takeFrame(base);
  const pixels = frame.pixels;
  for (const layer of direct) {
    const d = denseDirect(layer, density);
    blendInto(frame, d.left, d.top, d.width, d.height, d.rgba);
  }
  for (const r of drawn.regions) blendLayerInto(frame, r);
  let output: RenderOutput;
  let timerMs: number | undefined;
  if (timed) {
    const timers = await timerFrames(
      doc,
      values,
      options.nowMs ?? Date.now(),
      { pixels, width: base.width, height: base.height },
      scene,
      (scenes) => drawTimerScenes(scenes, design.teamId),
      blendOver,
      format === 'gif' ? undefined : 1,
      (layer) => glyphs(layer.text, layer.fontFamily),
    );
    timerMs = performance.now() - t2;
    output =
      format === 'gif'
        ? { body: await encodeGif(timers), contentType: 'image/gif' }
        : await encodeStill(timers.first, base, format, doc.quality);
  } else if (animation) {
    const below = Buffer.from(base.raw);
    for (const d of direct)
      blendOver(below, base.width, base.height, d.left, d.top, d.width, d.height, d.rgba);
    const above = drawn.regions.map((r) => ({ ...r, rgba: layerPixels(r) }));
    const moving = animatedFrames(
      animation,
      { pixels: below, width: base.width, height: base.height },
      above,
    );
    output = { body: await encodeAnimated(moving), contentType: 'image/gif' };
    releaseFrame(frame);
  } else if (format === 'gif') {
    // A GIF file that does not move: its one frame, as a GIF (animated-gif.ts `hasGifSource`).
    const one = { left: 0, top: 0, width: 1, height: 1 };
    const still = { first: pixels, width: base.width, height: base.height, count: 1 };
    output = {
      body: await encodeGif({ ...still, patch: one, patches: pixels }),
      contentType: 'image/gif',
    };
    releaseFrame(frame);
  } else {
    output = await encodeStill(pixels, base, format, doc.quality, density);
    // The encode is done with the frame (sharp has returned its output); a timer render's frame
    // is not reused, as its frames may still refer to it, nor a dense one, which would push the
    // 1× renders' frames out of the few kept.
    if (density === 1) releaseFrame(frame);
  }
  const t3 = performance.now();
  if (!complete || !watermarks.complete) output.partial = true;
  output.timings = {
    stickers: t1 - t0,
    fonts: drawn.ms.fonts,
    draw: drawn.ms.draw,
    read: drawn.ms.read,
    page: t2 - t1,
    ...(drawn.ms.queue === undefined ? {} : { queue: drawn.ms.queue }),
    encode: t3 - t2 - (timerMs ?? 0),
    ...(timerMs === undefined ? {} : { timer: timerMs }),
  };
  return output;
}

let placeholder: Promise<Buffer> | undefined;

/** A neutral light-grey image (600x400 JPEG), served when no design image can be drawn. */
export function placeholderImage(): Promise<Buffer> {
  placeholder ??= sharp({ create: { width: 600, height: 400, channels: 3, background: '#e7e9ee' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return placeholder;
}
