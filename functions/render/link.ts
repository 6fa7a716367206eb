/**
 * The link stage of the render service: `/l/` rule and poll links (docs/rules.md "Links"),
 * evaluated with the image's own load and open-time stages, so a link goes where the image it
 * sits under shows.
 */
import type { ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { parseRenderPath, parseRenderQuery } from '#shared/render-url.ts';
import { ruleLinkUrl } from '#shared/scene/rules.ts';
import { noLink } from './answer.ts';
import { knownNames, type createDesignLoader } from './load-design.ts';
import type { createOpenTime } from './open-time.ts';
import type { RenderRequest, RenderServiceDeps } from './service-types.ts';

/**
 * The link stage of one render service, from `deps.findDesign` and the load and open-time
 * stages of the same service.
 * @returns `link(request)`, which never throws (see below).
 */
export function createLink(
  deps: Pick<RenderServiceDeps, 'findDesign'>,
  loader: Pick<ReturnType<typeof createDesignLoader>, 'pinned' | 'checkSigned'>,
  openTime: Pick<ReturnType<typeof createOpenTime>, 'openTimeValues'>,
) {
  const { pinned, checkSigned } = loader;
  const { openTimeValues } = openTime;

  /**
   * `GET /l/{publicId}[/{cacheId}]?{the image's query}` (docs/rules.md "Links"): evaluates the
   * design's rules as the image does for the same request (same design version, values, clock,
   * headers and split bucket) and answers 302 to the matching rule's link, else the design's
   * own. The target is only ever an http(s) URL stored in the design: nothing in the request
   * names one. A design that requires signed URLs requires them here too, checked as the image's
   * `/r/` URL with the same query (the export's rule link is the signed render URL with `/l/`),
   * before any lookup or rule runs: 403 otherwise, so an unsigned link neither spends the team's
   * lookups nor tells which rule a value matches (docs/security.md "Open-time content"). 404
   * when the design is unknown or has no link for the match; 503 when the design cannot be read.
   * Never cached: every click is evaluated.
   */
  async function link(request: RenderRequest): Promise<ApiResult> {
    const path = request.rawPath.startsWith('/l/')
      ? parseRenderPath(`/r/${request.rawPath.slice(3)}`)
      : undefined;
    const missing = 'This link goes nowhere: the design is unknown or has no link.';
    if (!path) return noLink(404, missing);
    // A poll's option link opens the vote page, which votes on a click (docs/polls.md
    // "Scanners"): nothing is read or counted here, so a scanner's fetch changes nothing.
    if (/(?:^|&)__vote=/.test(request.rawQueryString)) {
      const link = `${request.rawPath}?${request.rawQueryString}`;
      return {
        statusCode: 302,
        headers: {
          location: `/poll?link=${encodeURIComponent(link)}`,
          'cache-control': 'private, no-store',
          'content-type': 'text/plain; charset=utf-8',
          'referrer-policy': 'no-referrer',
        },
        body: '',
      };
    }
    try {
      const current = await deps.findDesign(path.publicId);
      if (!current) return noLink(404, missing);
      const asImage = { ...request, rawPath: `/r/${request.rawPath.slice(3)}` };
      const signed = await checkSigned(current, asImage, knownNames(current));
      if (!signed.ok)
        return noLink(403, 'This link is not valid: it was changed, or it has expired.');
      const { design } = await pinned(current, path.cacheId);
      const doc = parseDesignDocument(design.document);
      const { ruled } = await openTimeValues(
        path.publicId,
        design,
        doc,
        parseRenderQuery(request.rawQueryString, knownNames(current)),
        request,
        false,
      );
      const url = ruleLinkUrl(doc, ruled?.rule);
      if (!url) return noLink(404, missing);
      return {
        statusCode: 302,
        headers: {
          location: new URL(url).href,
          'cache-control': 'private, no-store',
          'content-type': 'text/plain; charset=utf-8',
        },
        body: '',
      };
    } catch (error) {
      logger.warn('link failed', { error: error as Error });
      return noLink(503, 'This link is not available right now. Please try again in a minute.');
    }
  }

  return link;
}
