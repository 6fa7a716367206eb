/**
 * The `merge-tags` feature (docs/adr/0022-export-and-merge-tags.md "Export and merge tags";
 * docs/export.md):
 * - `GET /api/merge-tag/providers`: the providers, `{ value, label, url }`;
 * - `GET /api/merge-tag/storeFront`: Klaviyo's storefronts, `{ value, label }`;
 * - `POST /api/merge-tag`: a provider's merge tags (merge-tags.ts);
 * - `GET /js/{file}`: the web-tracking script (web-tracking.ts);
 * - `GET /api/merge-tag/infusionsoft/authorize` and `/callback`: Keap's OAuth flow
 *   (keap-oauth.ts);
 * - `/settings/companies/{id}/data-stores…` and `/web-apis…`: a team's data sources
 *   (functions/data-sources/routes.ts).
 *
 * No XSRF cookie is issued here: the script's answer is public and cached by the CDN, and the
 * SPA has the cookie from its other calls.
 */
import type { Context } from 'aws-lambda';
import { unauthenticated } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiEvent, type ApiResult } from '#lib/http.ts';
import { MergeTagBody, type MergeTagList } from '#shared/contract/merge-tags.ts';
import { KLAVIYO_STOREFRONTS, providerList } from '#shared/providers/index.ts';
import { DATA_SOURCE_ROUTES } from '#functions/data-sources/routes.ts';
import { dynamoCredentials } from './credentials.ts';
import { KEAP_AUTHORIZE_PATH, keapAuthorize, keapCallback, keapDeps } from './keap-oauth.ts';
import { configuredDeps, listMergeTags } from './merge-tags.ts';
import { webTrackingScript } from './web-tracking.ts';

/** Keap's token calls with the deployment's settings; undefined when not configured or offline. */
function keapSettings() {
  const deps = configuredDeps();
  return keapDeps(deps.guard, deps.baseUrls, deps.mode === 'online');
}

const routed = featureHandler(
  'merge-tags',
  {
    'GET /api/merge-tag/providers': route({
      handle: async () => json(200, providerList()),
    }),

    'GET /api/merge-tag/storeFront': route({
      handle: async () => json(200, KLAVIYO_STOREFRONTS),
    }),

    'POST /api/merge-tag': route({
      body: MergeTagBody,
      handle: async ({ auth, body }) => {
        if (!auth.user) throw unauthenticated();
        const answer = await listMergeTags(
          {
            provider: body.provider,
            accessToken: body.access_token ?? undefined,
            storeFront: body.storeFront ?? undefined,
            teamId: auth.user.currentTeamId,
            userId: auth.user.userId,
          },
          configuredDeps(),
        );
        // Keap without a connection: where the screen opens its authorisation window.
        const keap = body.provider === 'infusionsoft' && keapSettings() !== undefined;
        const list: MergeTagList = keap
          ? { ...answer, authorize_url: KEAP_AUTHORIZE_PATH }
          : answer;
        return json(200, list);
      },
    }),

    'GET /api/merge-tag/infusionsoft/authorize': route({
      handle: async ({ auth, event }) =>
        keapAuthorize(auth, event.queryStringParameters?.design, keapSettings()),
    }),

    'GET /api/merge-tag/infusionsoft/callback': route({
      handle: async ({ auth, event }) =>
        keapCallback(auth, event.queryStringParameters ?? {}, keapSettings(), dynamoCredentials),
    }),

    // A team's data sources (docs/data-sources.md; docs/adr/0063-data-sources.md "Data sources").
    ...DATA_SOURCE_ROUTES,

    'GET /js/{file}': route({
      handle: async ({ event, params }) =>
        webTrackingScript(
          params.file ?? '',
          event.queryStringParameters?.v,
          event.headers?.['if-none-match'],
        ),
    }),
  },
  { issueXsrf: false },
);

/**
 * The script is loaded by other sites' pages: the chain's `Cross-Origin-Resource-Policy:
 * same-origin` would make browsers refuse it, so its answers say `cross-origin`.
 */
async function crossOriginScripts(event: ApiEvent, context: Context): Promise<ApiResult> {
  const result = (await routed(event, context)) as ApiResult;
  if (event.rawPath?.startsWith('/js/') && result.headers) {
    for (const name of Object.keys(result.headers)) {
      if (name.toLowerCase() === 'cross-origin-resource-policy') delete result.headers[name];
    }
    result.headers['cross-origin-resource-policy'] = 'cross-origin';
  }
  return result;
}

export const handler = Object.assign(crossOriginScripts, {
  feature: routed.feature,
  routeKeys: routed.routeKeys,
  implemented: routed.implemented,
  schemas: routed.schemas,
});
