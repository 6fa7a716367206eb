/**
 * Pure sticker operations of the editor (docs/adr/0014-the-design-document-versions-and-restore.md
 * "The design document: versions and restore" Sticker, docs/editor.md "Editing rules" QR and
 * fallback rules, docs/editor.md "Constants" sticker constants): where a new sticker goes and at
 * what scale, the QR code's limits and its image, the dynamic stickers' parameter names and
 * fallback checks. No fabric, no DOM (the QR image is an SVG data URL built from `qrcode`'s
 * matrix), so the unit tests run them in node.
 *
 * Units: canvas px; a sticker's drawn size is its intrinsic `width`/`height` times its scale.
 */
import QRCode from 'qrcode';
import {
  StickerSchema,
  type DesignDocument,
  type DynamicStickerType,
  type Sticker,
} from '#shared/design.ts';
import {
  COUNTDOWN_SIZE,
  countdownStartScale,
  fittedStartScale,
  dynamicStickerParamName,
  fallbackProblem,
  SCREENSHOT_SIZE,
} from '#shared/dynamic-stickers.ts';
import { localTimeZone, newCountdown } from './countdown.ts';
import { newPoll, POLL_SIZE } from '#shared/scene/poll.ts';
import { pollImage } from './pollPreview.ts';
import { newWeather, weatherImage } from './weather.ts';
import { WEATHER_SIZE } from '#shared/scene/weather-sticker.ts';
import { clampBox, snippetHeight, takenBoxes, type CanvasSize } from './snippets.ts';
import { largestFreePlacement } from './freeArea.ts';
import { longHexColour } from '#shared/colour.ts';

/** A new sticker's scale and top, px (docs/editor.md "Constants": "added at scale 0.1 … top 10 px"). */
export const NEW_STICKER_SCALE = 0.1;
export const NEW_STICKER_TOP_PX = 10;
/** Intrinsic sizes, px (docs/editor.md "Constants": 512; 910x512 for screenshots). */
export const STICKER_SIZE = 512;
export { SCREENSHOT_SIZE };
/** An image is large over these, px (docs/editor.md "Constants": "over 500 high or 950 wide", read in
 * docs/adr/0028-editor-image-tools-and-stickers.md "Editor image tools and stickers": the 512 px
 * library size is not large). */
export const LARGE_IMAGE = { height: STICKER_SIZE, width: 950 } as const;
/** The smallest a QR code is drawn, px a side (docs/editor.md "Editing rules", docs/editor.md "Constants": "QR minimum size 60x60"). */
export const QR_MIN_SIZE_PX = 60;
/** QR margin limits, modules (docs/editor.md "Editing rules": "QR margin 0 to 20"). */
export const QR_MARGIN = { min: 0, max: 20 } as const;
/** Debounces of the QR toolbar, ms (docs/editor.md "Constants": colour 300 ms, margin/transparency 200 ms). */
export const QR_COLOUR_DEBOUNCE_MS = 300;
export const QR_MARGIN_DEBOUNCE_MS = 200;
/** The QR colour of a new QR sticker (docs/editor.md "Constants": "#111111", shared/design.ts default). */
export const DEFAULT_QR_COLOUR = '#111111';

export {
  dynamicStickerParamName,
  fallbackProblem,
  FALLBACK_MESSAGES,
} from '#shared/dynamic-stickers.ts';

/** The text of a QR code without a value (docs/editor.md "Editing rules", docs/editor.md "Constants": the product's address). */
export const defaultQrValue = (): string =>
  typeof window !== 'undefined' && window.location
    ? window.location.origin
    : 'https://picsnippets.app';

/**
 * The divisor for a large image's fit scale (docs/editor.md "Constants": "divided by 2 (under
 * 0.25), 3 (to 0.5), 4 (to 0.75), 5 (under 1), otherwise 6").
 * @param fit the scale at which the image would fill the canvas.
 */
export function largeImageDivisor(fit: number): number {
  if (fit < 0.25) return 2;
  if (fit <= 0.5) return 3;
  if (fit <= 0.75) return 4;
  if (fit < 1) return 5;
  return 6;
}

/**
 * A new sticker's scale (docs/editor.md "Constants"): 0.1; a large image (over 512 px high or 950
 * px wide) gets the scale at which it would fill the canvas divided by `largeImageDivisor`. A QR
 * code is never drawn under 60x60 px (docs/editor.md "Editing rules").
 * @param image the sticker's intrinsic size, px.
 */
export function newStickerScale(
  image: { width: number; height: number },
  canvas: CanvasSize,
  dynamicType: DynamicStickerType | null = null,
): number {
  let scale = NEW_STICKER_SCALE;
  if (image.height > LARGE_IMAGE.height || image.width > LARGE_IMAGE.width) {
    const fit = Math.min(canvas.width / image.width, canvas.height / image.height);
    scale = fit / largeImageDivisor(fit);
  }
  if (dynamicType === 'qrCode') scale = Math.max(scale, qrMinScale(image));
  return scale;
}

/** The scale that draws a QR code of intrinsic `image` size at 60x60 px. */
export const qrMinScale = (image: { width: number; height: number }): number =>
  QR_MIN_SIZE_PX / Math.min(image.width, image.height);

/**
 * Where a new sticker goes (docs/editor.md "Constants": "horizontally centred, top 10 px"), kept
 * inside the canvas by the docs/editor.md "Editing rules" clamps.
 * @returns the top-left corner, px.
 */
export function newStickerPosition(
  image: { width: number; height: number },
  scale: number,
  canvas: CanvasSize,
): { left: number; top: number } {
  const width = image.width * scale;
  const height = image.height * scale;
  const box = clampBox(
    { left: (canvas.width - width) / 2, top: NEW_STICKER_TOP_PX, width, height },
    canvas,
  );
  return { left: box.left, top: box.top };
}

/** How far a new sticker moves when another one already sits at its spot, px. */
const CASCADE_PX = 10;

/**
 * The spot itself, or, while it overlaps a sticker or a text snippet already there, 10 px further
 * down and right (inside the canvas, at most 50 times): a new sticker is not dropped on top of an
 * earlier one, nor over the design's text (test/unit/editor-image-rules.test.ts).
 */
function freeSpot(
  design: DesignDocument,
  spot: { left: number; top: number },
  image: { width: number; height: number },
  scale: number,
): { left: number; top: number } {
  const canvas = { width: design.canvas_width, height: design.canvas_height };
  const width = image.width * scale;
  const height = image.height * scale;
  const boxes = takenBoxes(design);
  const taken = (p: { left: number; top: number }) =>
    boxes.some(
      (b) =>
        p.left < b.left + b.width &&
        b.left < p.left + width &&
        p.top < b.top + b.height &&
        b.top < p.top + height,
    );
  let at = spot;
  for (let i = 0; i < 50 && taken(at); i++) {
    const box = clampBox(
      { left: at.left + CASCADE_PX, top: at.top + CASCADE_PX, width, height },
      canvas,
    );
    if (box.left === at.left && box.top === at.top) break;
    at = box;
  }
  return at;
}

/** A new poll or weather sticker is never drawn smaller than this share of its start scale. */
const MIN_FREE_SPACE_SHARE = 0.3;

/**
 * Where a new poll or weather sticker goes and how big (docs/editor.md "Poll", "Weather"): the
 * usual spot at its start scale when that overlaps no text or sticker; else the largest free
 * space clear of them (freeArea.ts), the box scaled down to fit it; when even that would be under
 * 30 % of the start scale, the start scale at the usual cascading spot, as other stickers.
 */
function placedInFreeSpace(
  design: DesignDocument,
  image: { width: number; height: number },
  startScale: number,
): { left: number; top: number; scale: number } {
  const canvas = { width: design.canvas_width, height: design.canvas_height };
  const usual = newStickerPosition(image, startScale, canvas);
  // A text the canvas has not measured yet takes one line (its stored height is then null).
  const boxes = [
    ...design.text_snippets.map((t) => ({ ...t, height: snippetHeight(t) })),
    ...takenBoxes({ ...design, text_snippets: [] }),
  ];
  const width = image.width * startScale;
  const height = image.height * startScale;
  const clear = !boxes.some(
    (b) =>
      usual.left < b.left + b.width &&
      b.left < usual.left + width &&
      usual.top < b.top + b.height &&
      b.top < usual.top + height,
  );
  if (clear) return { ...usual, scale: startScale };
  const free = largestFreePlacement(boxes, canvas, image, startScale, usual);
  if (free && free.scale >= startScale * MIN_FREE_SPACE_SHARE) return free;
  return { ...freeSpot(design, usual, image, startScale), scale: startScale };
}

/** What the panel hands over to add a sticker (functions/stickers/views.ts item shapes). */
export type StickerSource =
  | { kind: 'image'; url: string; stickerType: 'plain' | 'upload'; width: number; height: number }
  | { kind: 'dynamic'; dynamicType: DynamicStickerType };

/**
 * An SVG placeholder for a dynamic sticker the editor cannot fetch itself: its name on grey (a
 * screenshot with a live crop says so: docs/editor.md "Live web crop").
 */
export function dynamicPlaceholder(
  type: DynamicStickerType,
  isMobile = false,
  crop = false,
): string {
  const size = type === 'screenShot' ? SCREENSHOT_SIZE : { width: 512, height: 512 };
  const device = isMobile ? 'mobile' : 'desktop';
  const label = {
    qrCode: 'QR code',
    gravatar: 'Gravatar',
    hostedImage: 'Hosted image',
    screenShot: crop ? `Live crop (${device})` : `Screenshot (${device})`,
    countdown: 'Countdown timer',
    poll: 'Poll',
    weather: 'Weather',
  }[type];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">` +
    `<rect width="100%" height="100%" fill="#e5e7eb" stroke="#6b7280" stroke-width="8"/>` +
    `<text x="50%" y="50%" font-family="sans-serif" font-size="56" fill="#374151" ` +
    `text-anchor="middle" dominant-baseline="middle">${label}</text></svg>`;
  return svgDataUrl(svg);
}

/**
 * What a countdown sticker's own image is in the editor: its box, transparent, with a faint
 * dashed outline so a hidden (expired) timer can still be found and picked. The digits are the
 * live preview's (canvas/countdown.ts); the render draws no image for it.
 */
export function countdownFrameImage(sticker: Pick<Sticker, 'width' | 'height'>): string {
  const { width, height } = sticker;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect x="2" y="2" width="${width - 4}" height="${height - 4}" fill="none" ` +
    `stroke="#6b7280" stroke-opacity="0.6" stroke-width="3" stroke-dasharray="12 8"/></svg>`;
  return svgDataUrl(svg);
}

/** An SVG as a base64 data URL (the SVGs here are ASCII). */
const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;

/**
 * A QR code as an SVG data URL: the matrix `qrcode` makes (error correction M, as the render
 * service's, functions/render/stickers.ts), dark modules in the sticker's colour, a quiet zone
 * of `marginSize` modules, on white or transparent
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore", docs/editor.md "Editing rules").
 * @param value the text; empty = `defaultValue` (docs/editor.md "Editing rules": "a QR code with no value uses a
 *   default value": the product's address).
 */
export function qrImageUrl(
  sticker: Pick<Sticker, 'dynamicStickerUrl' | 'qrCodeColor' | 'marginSize' | 'isTransparent'>,
  defaultValue: string,
): string {
  const value = sticker.dynamicStickerUrl.trim() === '' ? defaultValue : sticker.dynamicStickerUrl;
  const qr = QRCode.create(value, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const m = Math.min(QR_MARGIN.max, Math.max(QR_MARGIN.min, Math.round(sticker.marginSize)));
  // As the render reads it (functions/render/stickers.ts qrColour): `#80` is the grey #808080.
  const colour = longHexColour(sticker.qrCodeColor) ?? DEFAULT_QR_COLOUR;
  // One path of horizontal runs of dark modules: small enough to keep in the document.
  let path = '';
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      if (!qr.modules.get(y, x) || (x > 0 && qr.modules.get(y, x - 1))) continue;
      let run = 1;
      while (x + run < n && qr.modules.get(y, x + run)) run++;
      path += `M${x + m} ${y + m}h${run}v1h-${run}z`;
    }
  const side = n + 2 * m;
  const background = sticker.isTransparent
    ? ''
    : `<rect width="${side}" height="${side}" fill="#ffffff"/>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `${background}<path fill="${colour}" d="${path}"/></svg>`;
  return svgDataUrl(svg);
}

/**
 * The image the editor shows for a dynamic sticker (`newQrDataUrl` for a QR code, else
 * `dynamicStickerNewUrl`): the QR code itself, a valid hosted image's address, or a placeholder.
 */
export function dynamicImage(
  sticker: Sticker,
  defaultQrValue: string,
): Pick<Sticker, 'newQrDataUrl' | 'dynamicStickerNewUrl'> {
  const type = sticker.dynamicStickerType;
  if (type === 'qrCode')
    return { newQrDataUrl: qrImageUrl(sticker, defaultQrValue), dynamicStickerNewUrl: null };
  if (type === 'countdown')
    return { newQrDataUrl: null, dynamicStickerNewUrl: countdownFrameImage(sticker) };
  if (type === 'poll' && sticker.poll)
    return { newQrDataUrl: null, dynamicStickerNewUrl: pollImage(sticker.poll) };
  if (type === 'weather' && sticker.weather)
    return { newQrDataUrl: null, dynamicStickerNewUrl: weatherImage(sticker.weather) };
  const value = sticker.dynamicStickerUrl.trim();
  const shown =
    type === 'hostedImage' && value !== '' && fallbackProblem(type, value) === null
      ? value
      : dynamicPlaceholder(type ?? 'hostedImage', sticker.isMobile, sticker.crop !== null);
  return { newQrDataUrl: null, dynamicStickerNewUrl: shown };
}

/**
 * A new sticker for the design (docs/editor.md "Constants" placement; docs/editor.md "Editing
 * rules" QR minimum and parameter names): centred at the top at the new-sticker scale; a dynamic
 * one gets its intrinsic size, its parameter name and its image.
 * @param uuid the new sticker's id.
 * @param defaultQrValue the text of a QR code without a value (the product's address).
 * @param nowMs the moment a new countdown timer counts from (its deadline is a week later).
 */
export function newSticker(
  design: DesignDocument,
  source: StickerSource,
  uuid: string,
  defaultQrValue: string,
  nowMs: number = Date.now(),
): Sticker {
  const canvas = { width: design.canvas_width, height: design.canvas_height };
  if (source.kind === 'image') {
    const image = { width: source.width || STICKER_SIZE, height: source.height || STICKER_SIZE };
    const scale = newStickerScale(image, canvas);
    return StickerSchema.parse({
      uuid,
      stickerType: source.stickerType,
      url: source.url,
      ...image,
      scaleX: scale,
      scaleY: scale,
      ...freeSpot(design, newStickerPosition(image, scale, canvas), image, scale),
    });
  }
  const type = source.dynamicType;
  const timer = type === 'countdown';
  const poll = type === 'poll';
  const weather = type === 'weather';
  const drawn = poll ? POLL_SIZE : weather ? WEATHER_SIZE : null;
  const image =
    type === 'screenShot'
      ? { ...SCREENSHOT_SIZE }
      : timer
        ? { ...COUNTDOWN_SIZE }
        : drawn
          ? { ...drawn }
          : { width: STICKER_SIZE, height: STICKER_SIZE };
  // A timer, a poll or a weather sticker starts legible: scale 1, or what fits 90% of the
  // canvas (docs/editor.md "Countdown timer", "Poll", "Weather").
  const startScale = timer
    ? countdownStartScale(canvas)
    : drawn
      ? fittedStartScale(drawn, canvas)
      : newStickerScale(image, canvas, type);
  const placed = drawn
    ? placedInFreeSpace(design, image, startScale)
    : {
        scale: startScale,
        ...freeSpot(design, newStickerPosition(image, startScale, canvas), image, startScale),
      };
  const sticker = StickerSchema.parse({
    countdown: timer ? newCountdown(nowMs, localTimeZone()) : null,
    // A new poll closes, once given a date, in the user's own zone (as a new timer counts).
    poll: poll ? { ...newPoll(), time_zone: localTimeZone() } : null,
    weather: weather ? newWeather() : null,
    uuid,
    stickerType: 'dynamicSticker',
    dynamicStickerType: type,
    dynamicStickerParamName: dynamicStickerParamName(design, type),
    qrCodeColor: DEFAULT_QR_COLOUR,
    ...image,
    scaleX: placed.scale,
    scaleY: placed.scale,
    left: placed.left,
    top: placed.top,
  });
  return { ...sticker, ...dynamicImage(sticker, defaultQrValue) };
}

/**
 * A copy of a sticker (the selection overlay's Clone, docs/editor.md "Commands"): a new id, moved
 * 10 px down and right inside the canvas. Dynamic stickers are not cloned (their overlay has Delete
 * only).
 */
export function clonedSticker(sticker: Sticker, uuid: string, canvas: CanvasSize): Sticker {
  const box = clampBox(
    {
      left: sticker.left + 10,
      top: sticker.top + 10,
      width: sticker.width * sticker.scaleX,
      height: sticker.height * sticker.scaleY,
    },
    canvas,
  );
  return { ...sticker, uuid, left: box.left, top: box.top };
}

/**
 * A sticker's new transform from a canvas gesture (move, scale, rotate), within the docs/editor.md
 * "Editing rules" rules: a uniform positive scale, a QR code at least 60x60 px, the angle brought
 * into 0–360, and an unrotated box kept 5 px inside the canvas (a rotated one was kept inside by
 * the canvas).
 */
export function transformedSticker(
  sticker: Sticker,
  next: { left: number; top: number; scale: number; angle: number },
  canvas: CanvasSize,
): Sticker {
  let scale = next.scale > 0 && Number.isFinite(next.scale) ? next.scale : sticker.scaleX;
  if (sticker.dynamicStickerType === 'qrCode') scale = Math.max(scale, qrMinScale(sticker));
  const angle = (((Math.round(next.angle * 100) / 100) % 360) + 360) % 360;
  let { left, top } = next;
  if (angle === 0) {
    const box = clampBox(
      { left, top, width: sticker.width * scale, height: sticker.height * scale },
      canvas,
    );
    left = box.left;
    top = box.top;
  }
  return { ...sticker, left, top, scaleX: scale, scaleY: scale, angle };
}
