/**
 * The dynamic sticker rules both the editor and the design API apply (docs/editor.md "Editing
 * rules"): the fallback value checks with their messages and the parameter name of a new dynamic
 * sticker. Pure; no fabric, no server code. Used by functions/designs/stickers.ts and
 * web/src/features/editor/document/stickers.ts.
 */
import { z } from 'zod';
import { DYNAMIC_STICKER_PREFIX, type DesignDocument, type DynamicStickerType } from './design.ts';
import { PARAMETER_MESSAGES } from './parameter-rules.ts';
import { takenParameterNames } from './parameters.ts';
import { MAX_VALUE_LENGTH } from './scene/resolve.ts';

/** The spec's messages for dynamic sticker fallbacks (docs/editor.md "Editing rules", docs/editor.md "Messages"). */
/** A screenshot sticker's picture, px (docs/editor.md "Constants": 910x512, mobile or desktop). */
export const SCREENSHOT_SIZE = { width: 910, height: 512 } as const;

/**
 * A countdown timer's intrinsic box, px, and the scale a new one is added at: 1, or less so that
 * it takes at most 90% of the canvas width (docs/editor.md "Countdown timer"). Its digits' and
 * labels' font sizes are px at this intrinsic size.
 */
export const COUNTDOWN_SIZE = { width: 600, height: 200 } as const;
export const countdownStartScale = (canvas: { width: number; height: number }): number =>
  fittedStartScale(COUNTDOWN_SIZE, canvas);

/**
 * The scale a sticker of intrinsic `size` (px) starts at so that it is legible: 1, or less so
 * that it takes at most 90% of the canvas's width and height, never below 0.05 (countdown
 * timers, docs/editor.md "Countdown timer"; polls, docs/editor.md "Poll").
 */
export const fittedStartScale = (
  size: { width: number; height: number },
  canvas: { width: number; height: number },
): number =>
  Math.max(
    0.05,
    Math.min(1, (canvas.width * 0.9) / size.width, (canvas.height * 0.9) / size.height),
  );

export const FALLBACK_MESSAGES = {
  invalidEmail: 'Invalid email',
  invalidStart: 'Invalid start time. Use an ISO 8601 date and time, such as 2030-01-01T09:00:00Z',
  invalidUrl: 'Invalid URL',
  imageType: 'Image not found. We support jpg, jpeg, png, gif and svg',
  valueTooLong: PARAMETER_MESSAGES.valueTooLong,
} as const;

/** Whether a value is an absolute http(s) URL. */
export const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * The message for a dynamic sticker's fallback value, or null when it is allowed (docs/editor.md
 * "Editing rules"): at most 255 characters; a gravatar's is an e-mail; a hosted image's an http(s)
 * URL ending in gif, jpg, jpeg, svg or png; a screenshot's a URL; a countdown's an ISO 8601
 * date-time (the start of an evergreen timer). An empty value is allowed: the sticker then shows
 * its default (QR) or nothing. Whether a hosted image loads is the editor's check.
 */
export function fallbackProblem(type: DynamicStickerType | null, value: string): string | null {
  if (value.length > MAX_VALUE_LENGTH) return FALLBACK_MESSAGES.valueTooLong;
  if (value === '') return null;
  switch (type) {
    case 'gravatar':
      return z.email().safeParse(value).success ? null : FALLBACK_MESSAGES.invalidEmail;
    case 'hostedImage':
      if (!isHttpUrl(value)) return FALLBACK_MESSAGES.invalidUrl;
      return /\.(gif|jpe?g|svg|png)$/i.test(new URL(value).pathname)
        ? null
        : FALLBACK_MESSAGES.imageType;
    case 'screenShot':
      return isHttpUrl(value) ? null : FALLBACK_MESSAGES.invalidUrl;
    case 'countdown':
      // An evergreen timer's start (shared/scene/countdown.ts `countdownEnd` reads it).
      return /^\d{4}-\d{2}-\d{2}/.test(value.trim()) && Number.isFinite(Date.parse(value.trim()))
        ? null
        : FALLBACK_MESSAGES.invalidStart;
    default:
      return null;
  }
}

/**
 * The parameter name of a new dynamic sticker: its type's prefix plus the first free counter,
 * `qrCode1`, `qrCode2`, … (docs/editor.md "Editing rules": "type prefix plus counter"), unique
 * among all the design's parameter names.
 */
export function dynamicStickerParamName(
  document: DesignDocument,
  type: DynamicStickerType,
): string {
  const taken = new Set(takenParameterNames(document));
  const prefix = DYNAMIC_STICKER_PREFIX[type];
  let n = 1;
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
