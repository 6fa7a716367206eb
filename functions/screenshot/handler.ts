/**
 * The screenshot function (AWS): takes web-page screenshots for screenshot stickers in a Lambda
 * of its own, invoked by the render function (functions/render/screenshots.ts), so a hostile
 * page never runs beside the render page or with the render role. Its role reaches nothing but
 * its logs: it answers the JPEG in the invocation's response and stores nothing
 * (docs/security.md "Screenshot pages"). Not an HTTP route.
 */
import { z } from 'zod';
import { UrlRefused } from '#lib/ssrf.ts';
import { logger } from '#lib/logger.ts';
import { renderGuard } from '#functions/render/dynamic.ts';
import { captureScreenshot, type ScreenshotResponse } from './capture.ts';

/** The invocation's payload: at most 8 KiB of URL (the guard's own limit). */
export const ScreenshotRequestSchema = z.object({
  url: z.string().min(1).max(8192),
  isMobile: z.boolean(),
  /** A live web crop's element (docs/web-crops.md); absent: the page. */
  selector: z.string().min(1).max(200).optional(),
});

/**
 * Lambda entry: a screenshot of the payload's URL.
 * @param event `{ url, isMobile, selector? }`
 * @returns `{ jpeg }` (base64 of the JPEG, or of the PNG of a crop) or `{ error }`; never
 *   throws (the render function draws the fallback)
 */
export async function handler(event: unknown): Promise<ScreenshotResponse> {
  const parsed = ScreenshotRequestSchema.safeParse(event);
  if (!parsed.success) return { error: 'invalid' };
  try {
    const { url, isMobile, selector } = parsed.data;
    const image = await captureScreenshot(renderGuard(), url, isMobile, undefined, selector);
    return { jpeg: image.toString('base64') };
  } catch (error) {
    const reason = error instanceof UrlRefused ? error.reason : 'failed';
    // The error's name only: puppeteer's messages carry the URL, whose query may hold secrets.
    logger.warn('screenshot failed', { reason, error: (error as Error).name });
    return { error: reason };
  }
}
