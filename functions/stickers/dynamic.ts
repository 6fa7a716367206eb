/**
 * The dynamic stickers the Stickers panel offers (docs/adr/0021-sticker-library.md "Sticker
 * library": "Dynamic sticker": sticker_name, description, sticker_type, icon_url; the four kinds of
 * docs/editor.md "Architecture" and docs/adr/0021-sticker-library.md "Sticker library"). They are
 * product features, not library content, so they are constants here rather than seeded data, and
 * their icons are inline SVG data URLs (the SPA's CSP allows `data:` images) that work in every
 * stage.
 *
 * Icons: paths of Tabler Icons (MIT, Paweł Kuna; https://tabler.io/icons): qrcode, user-circle,
 * photo, screenshot, alarm, chart-bar, sun.
 */
import type { DynamicSticker } from '#shared/contract/stickers.ts';
import { COUNTDOWN_SIZE } from '#shared/dynamic-stickers.ts';
import { POLL_SIZE } from '#shared/scene/poll.ts';
import { WEATHER_SIZE } from '#shared/scene/weather-sticker.ts';

/** A dynamic sticker as the panel lists it (shared/contract/stickers.ts `DynamicStickerSchema`). */
export type DynamicStickerView = DynamicSticker;

const icon = (d: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 24 24" fill="none" stroke="#1f2937" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path d="${d}"/></svg>`,
  ).toString('base64')}`;

/**
 * The seven dynamic stickers, in panel order. Sizes from docs/editor.md "Constants": 512 px, and
 * 910x512 for a screenshot; a countdown timer's box is 600x200 (docs/editor.md "Countdown timer"),
 * a poll's 600x400 (docs/polls.md "The sticker"), a weather sticker's 400x200 (docs/weather.md "The
 * weather sticker").
 */
export const DYNAMIC_STICKERS: readonly DynamicStickerView[] = [
  {
    id: 'dynamic-qrCode',
    type: 'dynamic sticker',
    sticker_name: 'QR code',
    description: "A QR code of each recipient's own link or text.",
    sticker_type: 'qrCode',
    icon_url: icon(
      'M4 5a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1l0 -4M7 17l0 .01' +
        'M14 5a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1l0 -4M7 7l0 .01' +
        'M4 15a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v4a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1l0 -4M17 7l0 .01' +
        'M14 14l3 0M20 14l0 .01M14 14l0 3M14 20l3 0M17 17l3 0M20 17l0 3',
    ),
    width: 512,
    height: 512,
  },
  {
    id: 'dynamic-gravatar',
    type: 'dynamic sticker',
    sticker_name: 'Gravatar',
    description: "The recipient's Gravatar picture, found by their e-mail address.",
    sticker_type: 'gravatar',
    icon_url: icon(
      'M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0M9 10a3 3 0 1 0 6 0a3 3 0 1 0 -6 0' +
        'M6.168 18.849a4 4 0 0 1 3.832 -2.849h4a4 4 0 0 1 3.834 2.855',
    ),
    width: 512,
    height: 512,
  },
  {
    id: 'dynamic-hostedImage',
    type: 'dynamic sticker',
    sticker_name: 'Hosted image',
    description: 'An image from a web address (jpg, jpeg, png, gif or svg) for each recipient.',
    sticker_type: 'hostedImage',
    icon_url: icon(
      'M15 8h.01M3 6a3 3 0 0 1 3 -3h12a3 3 0 0 1 3 3v12a3 3 0 0 1 -3 3h-12a3 3 0 0 1 -3 -3v-12' +
        'M3 16l5 -5c.928 -.893 2.072 -.893 3 0l5 5M14 14l1 -1c.928 -.893 2.072 -.893 3 0l3 3',
    ),
    width: 512,
    height: 512,
  },
  {
    id: 'dynamic-screenShot',
    type: 'dynamic sticker',
    sticker_name: 'Screenshot',
    description: "A screenshot of each recipient's web page, as seen on a desktop or a phone.",
    sticker_type: 'screenShot',
    icon_url: icon(
      'M7 19a2 2 0 0 1 -2 -2M5 13v-2M5 7a2 2 0 0 1 2 -2M11 5h2M17 5a2 2 0 0 1 2 2M19 11v2' +
        'M19 17v4M21 19h-4M13 19h-2',
    ),
    width: 910,
    height: 512,
  },
  {
    id: 'dynamic-countdown',
    type: 'dynamic sticker',
    sticker_name: 'Countdown timer',
    description: 'A timer counting down to a deadline, live at every open (an animated GIF).',
    sticker_type: 'countdown',
    icon_url: icon('M5 13a7 7 0 1 0 14 0a7 7 0 1 0 -14 0M12 10l0 3l2 0M7 4l-2.75 2M17 4l2.75 2'),
    width: COUNTDOWN_SIZE.width,
    height: COUNTDOWN_SIZE.height,
  },
  {
    id: 'dynamic-poll',
    type: 'dynamic sticker',
    sticker_name: 'Poll',
    description: 'A question with 2 to 6 answers to vote for, with the live results.',
    sticker_type: 'poll',
    icon_url: icon(
      'M3 13a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v6a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z' +
        'M15 9a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v10a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1z' +
        'M9 5a1 1 0 0 1 1 -1h4a1 1 0 0 1 1 1v14a1 1 0 0 1 -1 1h-4a1 1 0 0 1 -1 -1zM4 20h14',
    ),
    width: POLL_SIZE.width,
    height: POLL_SIZE.height,
  },
  {
    id: 'dynamic-weather',
    type: 'dynamic sticker',
    sticker_name: 'Weather',
    description: "The weather now at each recipient's place: an icon and the temperature.",
    sticker_type: 'weather',
    icon_url: icon(
      'M8 12a4 4 0 1 0 8 0a4 4 0 1 0 -8 0M3 12h1m8 -9v1m8 8h1m-9 8v1' +
        'm-6.4 -15.4l.7 .7m12.1 -.7l-.7 .7m0 11.4l.7 .7m-12.1 -.7l-.7 .7',
    ),
    width: WEATHER_SIZE.width,
    height: WEATHER_SIZE.height,
  },
];
