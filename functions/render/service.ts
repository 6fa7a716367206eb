/**
 * The render service behind `/r/*` and `/l/*` (docs/adr/0004-render-slice.md "Render slice";
 * test/integration/render.test.ts): a composition of stages, each in its own module, in the
 * order a request meets them (docs/features.md "render"):
 *
 * 1. parse the path (shared/render-url.ts), load the design, check its signature and pin the
 *    version its cache id names (load-design.ts);
 * 2. open-time work within its budgets (budgets.ts): values, lookups, the matched rule, first
 *    opens, weather and poll results (open-time.ts);
 * 3. the format and density drawn (format.ts);
 * 4. the cache key (cache-key.ts), memory then the renders bucket, else a draw within the draw
 *    budgets (cached-draw.ts);
 * 5. the answer's headers, or a 304 (answer.ts); a view counted (view-counter.ts);
 * 6. on any failure the fallback (fallback.ts): never anything but an image (or the 402 of a
 *    PDF a plan does not include).
 *
 * The stages receive their collaborators through `createRenderService`
 * (docs/adr/0004-render-slice.md "Render slice": "thin handlers, injected clients"); handler.ts
 * wires the real ones. `/l/` links run the same load and open-time stages (link.ts).
 */
import type { ApiResult } from '#lib/http.ts';
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { parseRenderPath, parseRenderQuery, type RenderPath } from '#shared/render-url.ts';
import {
  cacheControlOf,
  cropRefreshS,
  imageAnswer,
  manychatJson,
  pdfNotIncluded,
  shortestDefined,
} from './answer.ts';
import { createBudgets } from './budgets.ts';
import { etagOf } from './cache-key.ts';
import { createCachedDraw } from './cached-draw.ts';
import { drawingOf } from './format.ts';
import { createFallbacks } from './fallback.ts';
import { createDesignLoader, knownNames } from './load-design.ts';
import { createLink } from './link.ts';
import { createOpenTime } from './open-time.ts';
import { rulesScope } from './rule-context.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';

export type { DesignRecord, RenderServiceDeps } from './service-types.ts';
// The render feature's public surface for the other features (docs/features.md "render"): the
// cache id of a design version, and values as the render reads them.
export { cacheIdOf } from './cache-key.ts';
export { normaliseValues } from './open-time.ts';

/**
 * Builds the render service from its stages (one set of caches and budgets per container).
 * @returns `handle(request)` (`/r/`) and `link(request)` (`/l/`, link.ts). `handle` never
 *   throws: every failure answers 200 with the design's all-fallback render or a neutral
 *   placeholder, `Cache-Control: no-store`, cause logged.
 */
export function createRenderService(deps: RenderServiceDeps) {
  const budgets = createBudgets(deps);
  const openTime = createOpenTime(deps, budgets);
  const { openTimeValues, withFirstOpen, withWeatherStickers, withPollResults } = openTime;
  const cachedRender = createCachedDraw(deps, budgets);
  const loader = createDesignLoader(deps);
  const { pinned, checkSigned } = loader;
  const { fallback, refused, failed } = createFallbacks(deps, cachedRender);
  const link = createLink(deps, loader, openTime);

  async function handle(request: RenderRequest): Promise<ApiResult> {
    const path: RenderPath | undefined = parseRenderPath(request.rawPath);
    if (!path) return fallback('not a render path');
    let design: DesignRecord | undefined;
    try {
      const current = await deps.findDesign(path.publicId);
      if (!current) return await fallback('unknown design');
      // Asked of the current design, never of a snapshot a cache id names
      // (docs/adr/0054-signed-render-urls.md "Signed render URLs").
      const known = knownNames(current);
      const signed = await checkSigned(current, request, known);
      if (!signed.ok) return await refused(signed.reason, current, request.nowMs);
      const { design: named, immutable } = await pinned(current, path.cacheId);
      design = named;
      let doc = parseDesignDocument(design.document);
      const query = parseRenderQuery(request.rawQueryString, known);

      if (query.__format === 'manychat_json') return manychatJson(request, deps.publicUrl);

      // Looked up before the rules, so a rule can test a looked-up value; a design with data
      // bindings is never answered immutable: a re-upload must reach the CDN.
      const bound = doc.data_bindings.length > 0;
      const { values, proxy, ruled, lookupFailed, openWorkAllowed, countedAtOpen } =
        await openTimeValues(path.publicId, design, doc, query, request, true);
      if (ruled) {
        design = { ...design, document: ruled.document, ruleKey: ruled.ruleKey };
        doc = ruled.document;
      }
      const scope = ruled ? rulesScope(doc.rules) : 'url';
      const { format, density, timed } = drawingOf(path, request.rawPath, doc);
      if (format === 'pdf' && !(await deps.teamCanExportPdf(design.teamId)))
        return pdfNotIncluded();
      const started = performance.now();
      const opened = await withFirstOpen(
        design,
        doc,
        values,
        request.nowMs ?? Date.now(),
        query.__preview === '1' || request.prerender === true,
        openWorkAllowed,
      );
      const weathered = await withWeatherStickers(doc, opened.values, request, openWorkAllowed);
      const poll = await withPollResults(design, doc, weathered.values);
      const drawn = await cachedRender(
        design,
        poll.values,
        format,
        {
          ip: request.sourceIp,
          ...(proxy ? { proxy } : {}),
          ...(request.edgeLimited ? { edgeLimited: true } : {}),
          ...(request.edgeProxyLimited ? { edgeProxyLimited: true } : {}),
          ...(request.prerender ? { prerender: true } : {}),
          ...(countedAtOpen ? { countedAtOpen: true } : {}),
        },
        request.nowMs,
        density,
      );
      const { body, hit, timings } = drawn;
      // A failed lookup drew the fallback where a value should be: no cache may keep it.
      const partial =
        drawn.partial === true || opened.failed || lookupFailed || poll.failed || weathered.failed;
      // The product's own previews (dashboard cards, `?__preview=1`) and send lists' pre-renders
      // are not recipients' views.
      if (query.__preview !== '1' && !request.prerender)
        deps.countView(design.designId, proxy ? 'proxy' : 'open');
      const etag = etagOf(body);
      // Live content (poll results, weather, web crops) is kept no longer than it stays true.
      const cacheControl = cacheControlOf({
        viewer: scope === 'viewer' || weathered.viewer,
        partial,
        stale: design.stale === true,
        timed,
        liveS: shortestDefined(poll.ttlS, weathered.ttlS, cropRefreshS(doc)),
        moment: scope === 'moment',
        immutable: immutable && !bound,
        expiresAt: signed.expiresAt,
      });
      if (request.ifNoneMatch === etag) {
        return { statusCode: 304, headers: { etag, 'cache-control': cacheControl } };
      }
      const total = performance.now() - started;
      recordMetric(METRIC.render, 1, ['outcome', hit]);
      recordMetric(METRIC.renderMs, total);
      return imageAnswer({
        body,
        format,
        cacheControl,
        etag,
        hit,
        ruleKey: design.ruleKey,
        timings: { ...timings, total },
      });
    } catch (error) {
      return failed(error, design, request.nowMs);
    }
  }

  return { handle, link };
}
