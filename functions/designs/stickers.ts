/**
 * Sticker changes of the design calls (docs/adr/0019-design-api-shapes.md "Design API shapes":
 * "Design actions": qrCodeColor, qrCode, gravatarMail, saveGeneratedDynamicSticker,
 * saveScreenShotType). Pure: each takes the design document and returns a new one, or throws a 422
 * before anything is built, so the versioned write (store.ts) never writes half a change.
 *
 * Fallback rules (docs/editor.md "Editing rules"): at most 255 characters; a gravatar fallback is
 * an e-mail; a hosted image's is an http(s) URL ending in gif, jpg, jpeg, svg or png; a
 * screenshot's is a URL. Whether a hosted image loads is the editor's check (the server would fetch
 * through the SSRF guard for nothing: the render falls back anyway).
 */
import type { z } from 'zod';
import {
  GeneratedStickerSchema,
  HexColourSchema,
  STICKER_MESSAGES,
} from '#shared/contract/designs.ts';
import { validationFailed } from '#lib/errors.ts';
import { StickerSchema, type DesignDocument, type Sticker } from '#shared/design.ts';
import { newPoll, POLL_SIZE } from '#shared/scene/poll.ts';
import { WEATHER_SIZE } from '#shared/scene/weather-sticker.ts';
import {
  COUNTDOWN_SIZE,
  countdownStartScale,
  fittedStartScale,
  dynamicStickerParamName,
  fallbackProblem,
} from '#shared/dynamic-stickers.ts';

export { dynamicStickerParamName, fallbackProblem };

export { GeneratedStickerSchema, HexColourSchema, STICKER_MESSAGES };

/** Intrinsic sticker sizes, px (docs/editor.md "Constants": 512; 910x512 for screenshots). */
const SIZE = { square: 512, screenShot: { width: 910, height: 512 } } as const;
/** A new sticker's scale and top, px (docs/editor.md "Constants": "added at scale 0.1 … top 10 px"). */
const NEW_STICKER = { scale: 0.1, top: 10 } as const;

/**
 * The document with the sticker `stickerId` changed by `change`.
 * @param field the request field naming the sticker, for the 422 answer.
 * @throws AppError 422 `{ [field]: ['The selected sticker is invalid.'] }` when the design has
 *   no such sticker, or whatever `change` throws.
 */
export function changeSticker(
  document: DesignDocument,
  stickerId: string,
  change: (sticker: Sticker) => Sticker,
  field = 'stickerId',
): { document: DesignDocument; sticker: Sticker } {
  const index = document.graphics_data.findIndex((s) => s.uuid === stickerId);
  if (index < 0) throw validationFailed({ [field]: [STICKER_MESSAGES.notFound] });
  const sticker = StickerSchema.parse(change(document.graphics_data[index]!));
  const graphics = [...document.graphics_data];
  graphics[index] = sticker;
  return { document: { ...document, graphics_data: graphics }, sticker };
}

/**
 * Sets a dynamic sticker's fallback value after checking it (docs/editor.md "Editing rules").
 * @param field the request field of the value, for the 422 answer.
 * @throws AppError 422 with the spec's message.
 */
export function withFallback(sticker: Sticker, value: string, field: string): Sticker {
  const problem = fallbackProblem(sticker.dynamicStickerType, value);
  if (problem) throw validationFailed({ [field]: [problem] });
  return { ...sticker, dynamicStickerUrl: value };
}

/** Refuses a sticker that is not a QR code (for the QR calls). */
export function assertQrCode(sticker: Sticker, field = 'stickerId'): Sticker {
  if (sticker.dynamicStickerType !== 'qrCode') {
    throw validationFailed({ [field]: [STICKER_MESSAGES.notQrCode] });
  }
  return sticker;
}

/**
 * Adds a dynamic sticker the editor generated, or replaces the one with its uuid
 * (docs/adr/0019-design-api-shapes.md "Design API shapes" saveGeneratedDynamicSticker). A new one
 * gets its parameter name (`qrCode1`, …), the spec's size (512, or 910x512 for a screenshot), scale
 * 0.1 and, without a position, is centred at the top (docs/editor.md "Constants"). A countdown
 * timer is 600x200 at scale 1 (at most 90% of the canvas) with its settings (`countdown`, the
 * defaults when absent; docs/editor.md "Countdown timer"); a poll 600x400 likewise with its `poll`
 * (a new poll's when absent; docs/polls.md "The sticker"); a weather sticker 400x200 likewise
 * with its `weather` (the defaults when absent; docs/weather.md "The weather sticker"). A second
 * poll is refused by the document's schema (422).
 * @returns the new document and the sticker as stored (`data.currentSticker`).
 * @throws AppError 422 for an invalid fallback; ZodError (422) for an invalid sticker field.
 */
export function saveGeneratedSticker(
  document: DesignDocument,
  input: z.infer<typeof GeneratedStickerSchema>,
): { document: DesignDocument; sticker: Sticker } {
  const type = input.dynamicStickerType;
  const existing = document.graphics_data.find((s) => s.uuid === input.uuid);
  const timer = type === 'countdown';
  const poll = type === 'poll';
  const weather = type === 'weather';
  const size =
    type === 'screenShot'
      ? SIZE.screenShot
      : timer
        ? COUNTDOWN_SIZE
        : poll
          ? POLL_SIZE
          : weather
            ? WEATHER_SIZE
            : { width: SIZE.square, height: SIZE.square };
  const canvas = { width: document.canvas_width, height: document.canvas_height };
  const startScale = timer
    ? countdownStartScale(canvas)
    : poll || weather
      ? fittedStartScale(size, canvas)
      : NEW_STICKER.scale;
  const scale = Number(input.scaleX ?? startScale);
  // ZodError → 422 with field errors (functions/lib/http.ts); the countdown's settings were
  // checked by the body's schema (shared/contract/designs.ts).
  const parsed = StickerSchema.parse({
    width: size.width,
    height: size.height,
    scaleX: startScale,
    scaleY: startScale,
    ...input,
    countdown: timer ? (input.countdown ?? existing?.countdown ?? {}) : null,
    poll: poll ? (input.poll ?? existing?.poll ?? newPoll()) : null,
    weather: weather ? (input.weather ?? existing?.weather ?? {}) : null,
    stickerType: 'dynamicSticker',
    left: input.left ?? Math.max(0, (document.canvas_width - size.width * scale) / 2),
    top: input.top ?? NEW_STICKER.top,
    dynamicStickerParamName:
      existing?.dynamicStickerParamName ?? dynamicStickerParamName(document, type),
  });
  const sticker = withFallback(parsed, input.dynamicStickerUrl, 'dynamicStickerUrl');
  const graphics = existing
    ? document.graphics_data.map((s) => (s.uuid === sticker.uuid ? sticker : s))
    : [...document.graphics_data, sticker];
  return { document: { ...document, graphics_data: graphics }, sticker };
}
