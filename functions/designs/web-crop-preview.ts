/**
 * The editor's preview of a live web crop (docs/web-crops.md "In the editor"): the element the
 * render would draw for a recipient without values, taken the render's way (functions/render/
 * dynamic.ts `screenshot`): the screenshot browser or function, never this process's, the SSRF
 * guard on the page and each of its requests, the 6 s budget, and the same cache (a minute at
 * least, shared with the render's crops of that page).
 */
import { AppError, serviceUnavailable, tooManyRequests } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { config } from '#lib/config.ts';
import { takeAttempt } from '#lib/limits/attempts.ts';
import { UrlRefused } from '#lib/ssrf.ts';
import { WEB_CROP_REFRESH_S } from '#shared/scene/web-crop.ts';
import { WEB_CROP_PREVIEW_MESSAGES, WebCropPreviewBody } from '#shared/contract/web-crops.ts';
import { renderGuard, screenshot } from '#functions/render/dynamic.ts';
import { currentTeam, loadDesign } from './store.ts';

/** Previews one team may ask for in 15 minutes (a person typing a selector asks a few a minute). */
const WEB_CROP_PREVIEWS_PER_TEAM = 120;

export const webCropPreviewRoutes: Record<string, RouteDefinition> = {
  /**
   * The element of `url` matching `selector`, on a phone or a desktop, as a PNG data URL.
   * @throws AppError 404 for another team's design; 422 `refused` for an address the guard
   *   refuses (private, loopback, metadata), `nothing` when no element was captured in the
   *   budget; 429 past the team's allowance
   */
  'POST /api/pic-snippet/{id}/web-crop-preview': route({
    body: WebCropPreviewBody,
    handle: async ({ auth, params, body }) => {
      const team = currentTeam(auth);
      await loadDesign(team, params.id!);
      // In AWS the page must open in the screenshot function: never in this function, whose
      // role reaches the table (docs/security.md "Screenshot pages").
      if (config().STAGE === 'aws' && !config().SCREENSHOT_FUNCTION_NAME)
        throw serviceUnavailable();
      if (!(await takeAttempt(`web-crop-preview#team#${team}`, WEB_CROP_PREVIEWS_PER_TEAM)))
        throw tooManyRequests();
      // As the render reads a page without a scheme (docs/security.md "Render limits").
      const url = /^[a-z][a-z0-9+.-]*:/i.test(body.url) ? body.url : `https://${body.url}`;
      try {
        await renderGuard().check(url);
      } catch (error) {
        if (!(error instanceof UrlRefused)) throw error;
        throw refused('refused');
      }
      const image = await screenshot(url, body.is_mobile, undefined, {
        selector: body.selector,
        refresh_s: WEB_CROP_REFRESH_S.min,
      });
      if (!image?.startsWith('data:image/png;')) throw refused('nothing');
      return json(200, { image });
    },
  }),
};

const refused = (why: keyof typeof WEB_CROP_PREVIEW_MESSAGES) =>
  new AppError(422, 'web_crop_preview', WEB_CROP_PREVIEW_MESSAGES[why]);
