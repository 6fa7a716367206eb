/**
 * Where a screenshot sticker's page is opened (docs/security.md "Screenshot pages"): in AWS the
 * screenshot function (`SCREENSHOT_FUNCTION_NAME`, invoked with the render role's one
 * `lambda:InvokeFunction` grant); locally a separate Chromium process of this process
 * (functions/screenshot/capture.ts). Never the render browser.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '#lib/config.ts';
import {
  captureScreenshot,
  SCREENSHOT_BUDGET_MS,
  type ScreenshotResponse,
} from '#functions/screenshot/capture.ts';
import type { UrlGuard } from '#lib/ssrf.ts';

let lambda: LambdaClient | undefined;

/**
 * A JPEG screenshot of `url` (910x512), or with `selector` a PNG of that element (a live web
 * crop, docs/web-crops.md).
 * @param guard the SSRF guard (used locally; the screenshot function has the same one)
 * @throws Error with the screenshot function's reason (`address`, `timeout`, `failed`, …) or the
 *   local capture's error; the caller draws the sticker's fallback
 */
export async function takeScreenshot(
  guard: UrlGuard,
  url: string,
  isMobile: boolean,
  selector?: string,
): Promise<Buffer> {
  const functionName = config().SCREENSHOT_FUNCTION_NAME;
  if (!functionName) return captureScreenshot(guard, url, isMobile, undefined, selector);
  lambda ??= new LambdaClient({});
  const answer = await lambda.send(
    new InvokeCommand({
      FunctionName: functionName,
      Payload: Buffer.from(JSON.stringify({ url, isMobile, ...(selector ? { selector } : {}) })),
    }),
    { abortSignal: AbortSignal.timeout(SCREENSHOT_BUDGET_MS + 3000) },
  );
  if (answer.FunctionError || !answer.Payload) {
    throw new Error(`screenshot function failed: ${answer.FunctionError ?? 'no payload'}`);
  }
  const result = JSON.parse(Buffer.from(answer.Payload).toString('utf8')) as ScreenshotResponse;
  if ('error' in result) throw new Error(`screenshot refused: ${result.error}`);
  return Buffer.from(result.jpeg, 'base64');
}
