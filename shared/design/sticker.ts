/**
 * Stickers: images, QR codes and dynamic stickers on the canvas, their filters, geometry in
 * canvas px with a top-left origin, and scale
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore").
 */
import { z } from 'zod';
import { MAX_VALUE_LENGTH } from '../scene/resolve.ts';
import { CountdownSchema } from '../scene/countdown.ts';
import { PollSchema } from '../scene/poll.ts';
import { WeatherStickerSchema } from '../scene/weather-sticker.ts';
import { WebCropSchema } from '../scene/web-crop.ts';
import { MAX_GIF_FRAMES } from '../gif.ts';
import { DESIGN_BOUNDS, tooBig } from './bounds.ts';

/** Dynamic sticker kinds (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore") and their parameter-name prefixes (docs/editor.md "Editing rules"). */
export const DYNAMIC_STICKER_PREFIX = {
  qrCode: 'qrCode',
  gravatar: 'Gravatar',
  hostedImage: 'hostedIcon',
  screenShot: 'screenIcon',
  countdown: 'countdown',
  poll: 'poll',
  weather: 'weather',
} as const;
export type DynamicStickerType = keyof typeof DYNAMIC_STICKER_PREFIX;

/** A fabric image filter saved on a sticker (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": the first has a colour, mode screen). */
export const StickerFilterSchema = z.looseObject({
  type: z.string().optional(),
  color: z.string().optional(),
  mode: z.string().optional(),
  alpha: z.number().optional(),
});

/** A sticker's intrinsic size in px within the design bounds. */
const stickerSize = (field: string) =>
  z.number().positive().max(DESIGN_BOUNDS.stickerSize, tooBig(field, DESIGN_BOUNDS.stickerSize));
/** A sticker's scale within the design bounds. */
const stickerScale = (field: string) =>
  z.number().positive().max(DESIGN_BOUNDS.stickerScale, tooBig(field, DESIGN_BOUNDS.stickerScale));

/**
 * A sticker on the canvas (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore" `graphics_data`). Geometry in canvas px with a top-left origin:
 * the intrinsic size (512 by default; 910x512 for screenshots, docs/editor.md "Constants") times
 * the scale, rotated by `angle` degrees around the top-left corner (fabric's origin).
 * `restoreDesign` converts a sticker saved with another origin to the top-left one.
 *
 * Dynamic stickers take their value from the parameter `dynamicStickerParamName`, else from the
 * fallback `dynamicStickerUrl` (a URL, an e-mail for gravatar, any text for QR).
 */
export const StickerSchema = z
  .object({
    uuid: z.string().min(1),
    type: z.literal('stickers').default('stickers'),
    stickerType: z.enum(['plain', 'upload', 'dynamicSticker']).default('plain'),
    /** Image of a plain or uploaded sticker: an assets-bucket key or an https URL. */
    url: z.string().default(''),
    dynamicStickerType: z
      .enum(['qrCode', 'hostedImage', 'screenShot', 'gravatar', 'countdown', 'poll', 'weather'])
      .nullable()
      .default(null),
    dynamicStickerParamName: z.string().nullable().default(null),
    /** The dynamic sticker's fallback value, at most 255 characters (docs/editor.md "Editing rules" validations). */
    dynamicStickerUrl: z.string().max(MAX_VALUE_LENGTH).default(''),
    /** The image the editor last generated for the dynamic sticker (a URL), if any. */
    dynamicStickerNewUrl: z.string().nullable().default(null),
    /** The QR code image the editor last generated, if any. */
    newQrDataUrl: z.string().nullable().default(null),
    /** Screenshot device: mobile 910x512, else desktop. */
    isMobile: z.boolean().default(false),
    /**
     * A screenshot sticker's live web crop (shared/scene/web-crop.ts; docs/web-crops.md): one
     * element of the page, from a URL template per recipient, refreshed at an interval; null:
     * the whole page's top, as before.
     */
    crop: WebCropSchema.nullable().default(null),
    /** QR colour; #111111 (docs/editor.md "Constants", the reading that serves users: near-black scans well). */
    qrCodeColor: z.string().default('#111111'),
    /** QR quiet zone in modules, 0–20 (docs/editor.md "Editing rules"), default 0. */
    marginSize: z.number().int().min(0).max(20).default(0),
    isTransparent: z.boolean().default(false),
    /**
     * The frame of an animated GIF sticker (a `.gif` url) the design shows and the render draws,
     * 0-based; absent = the first frame, so older documents need no migration
     * (docs/adr/0062-gif-stickers.md "GIF stickers"). Ignored for other images; past the GIF's last
     * frame the render draws its last.
     */
    gif_frame: z
      .number()
      .int()
      .min(0)
      .max(MAX_GIF_FRAMES - 1)
      .optional(),
    /**
     * A countdown sticker's settings (shared/scene/countdown.ts `CountdownSchema`); null for
     * every other sticker. Its parameter, if any, is an evergreen timer's start moment.
     */
    countdown: CountdownSchema.nullable().default(null),
    /**
     * A poll sticker's settings (shared/scene/poll.ts `PollSchema`; docs/polls.md); null for
     * every other sticker. Its parameter, if any, is unused: the voter is named by
     * `poll.voter_parameter`.
     */
    poll: PollSchema.nullable().default(null),
    /**
     * A weather sticker's settings (shared/scene/weather-sticker.ts; docs/weather.md "The weather
     * sticker"); null for every other sticker. Its parameter's value is the recipient's place;
     * the fallback (`dynamicStickerUrl`) a place for everyone else.
     */
    weather: WeatherStickerSchema.nullable().default(null),
    /** Colour filters of the sticker image (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"). */
    filters: z.array(StickerFilterSchema).default([]),
    left: z.number(),
    top: z.number(),
    /** Always the top-left corner once restored (see above). */
    originX: z.enum(['left', 'center', 'right']).default('left'),
    originY: z.enum(['top', 'center', 'bottom']).default('top'),
    /** Intrinsic size, px, at most 4096 (design bounds). */
    width: stickerSize('width').default(512),
    height: stickerSize('height').default(512),
    /** At most 100, and the drawn size (size × scale) at most 4096 px (design bounds). */
    scaleX: stickerScale('scale x').default(0.1),
    scaleY: stickerScale('scale y').default(0.1),
    /** Degrees, 0–360. */
    angle: z.number().min(0).max(360).default(0),
  })
  .superRefine((sticker, ctx) => {
    // Reported on the scale, as a maximum, so that restoreDesign clamps the scale.
    const max = DESIGN_BOUNDS.stickerDrawnSize;
    for (const [size, scale] of [
      ['width', 'scaleX'],
      ['height', 'scaleY'],
    ] as const) {
      const intrinsic = sticker[size];
      if (!(intrinsic > 0) || !(intrinsic * sticker[scale] > max)) continue;
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: max / intrinsic,
        inclusive: true,
        path: [scale],
        input: sticker[scale],
        message: `The sticker may not be drawn ${size === 'width' ? 'wider' : 'taller'} than ${max} px.`,
      });
    }
  });
export type Sticker = z.output<typeof StickerSchema>;

/** How many of the stickers are dynamic (the design bounds count them apart). */
export const dynamicStickerCount = (stickers: Array<{ stickerType: string }>): number =>
  stickers.filter((s) => s.stickerType === 'dynamicSticker').length;
