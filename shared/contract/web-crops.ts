/**
 * The editor's preview of a live web crop (docs/web-crops.md "In the editor"):
 * `POST /api/pic-snippet/{id}/web-crop-preview` `{ url, selector, is_mobile }` takes the element
 * through the screenshot browser, under the render's SSRF guard and budget, and answers it as a
 * PNG data URL.
 */
import { z } from 'zod';
import { WebCropSchema } from '../scene/web-crop.ts';
import { defineContract, IdParams } from './core.ts';

/** The longest page address a preview takes, characters (a crop's URL template's own limit). */
const MAX_PREVIEW_URL = 2048;

/** The messages of a preview that cannot be shown (docs/web-crops.md "In the editor"). */
export const WEB_CROP_PREVIEW_MESSAGES = {
  refused: 'This page cannot be opened: its address is not a public web address.',
  nothing:
    'Nothing was captured: no element matched the selector in 6 seconds, or the page did not load.',
} as const;

/** The page (the sticker's own; a template's fields are not filled in the editor), element and device. */
export const WebCropPreviewBody = z.object({
  url: z.string().trim().min(1).max(MAX_PREVIEW_URL),
  selector: WebCropSchema.shape.selector,
  is_mobile: z.boolean(),
});

/** The element as the render draws it: a PNG data URL, fitted within 910x512. */
const WebCropPreviewSchema = z.object({ image: z.string().startsWith('data:image/png;base64,') });

export const WEB_CROPS_CONTRACT = {
  'POST /api/pic-snippet/{id}/web-crop-preview': defineContract({
    params: IdParams,
    body: WebCropPreviewBody,
    answer: WebCropPreviewSchema,
  }),
} as const;
