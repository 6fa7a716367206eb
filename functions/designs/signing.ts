/**
 * Signed render URLs of a design (docs/developer-api.md "Signed render URLs"):
 * - `PUT /api/pic-snippet/{id}/signing`: whether only signed URLs draw it (a document field,
 *   `require_signed_urls`). A versioned write that invalidates the CDN's copies of the design's
 *   URLs, so an unsigned URL answered before the change is not answered from the edge after it.
 * - `POST /api/pic-snippet/{id}/sign`: a signed URL for given parameters, under the team's
 *   current signing secret (an API token needs the `sign` ability: shared/routes.ts).
 *
 * Both read the design through the caller's current team (404 for another team's id).
 */
import { SignBody, SigningBody } from '#shared/contract/signing.ts';
import { conflict, validationFailed } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { loadSigningKeys } from '#domain/signing-secrets.ts';
import { signRenderPath } from '#functions/render/signature.ts';
import { currentTeam, loadDesign, updateDesign } from './store.ts';
import { renderUrlOf } from './views.ts';
import { densePath } from '#shared/render-url.ts';

/** The 409 of signing before the team made a secret. */
const NO_SECRET = 'Your team has no signing secret yet. Make one in the team settings (Developer).';

/**
 * `PUT …/signing`.
 * @returns 200 `{ success, version, title, updated_at, require_signed_urls }`.
 * @throws AppError 404, 409 for a stale `version`, 422 for a body that is not a boolean.
 */
const signingRoute = route({
  body: SigningBody,
  handle: async ({ auth, params, body }) => {
    const record = await updateDesign(currentTeam(auth), params.id!, body.version, (r) =>
      r.document.require_signed_urls === body.require_signed_urls
        ? null
        : { document: { ...r.document, require_signed_urls: body.require_signed_urls } },
    );
    return json(200, {
      success: true,
      version: record.version,
      title: record.title,
      updated_at: record.updatedAt,
      require_signed_urls: body.require_signed_urls,
    });
  },
});

/**
 * `POST …/sign`: `{ form, parameters, expires_in?, cache_id?, format?, density? }`.
 * @returns 200 `{ success, url, form, expires_at }`: the absolute render URL, signed.
 * @throws AppError 404 for another team's design, 409 when the team has no secret, 422 for a bad
 *   body (shared/contract/signing.ts `SignBody`) or a name or value with a lone surrogate.
 */
const signRoute = route({
  body: SignBody,
  handle: async ({ auth, params, body }) => {
    const teamId = currentTeam(auth);
    const record = await loadDesign(teamId, params.id!);
    const [secret] = (await loadSigningKeys(record.teamId)).secrets;
    if (!secret) throw conflict(NO_SECRET);
    const base = renderUrlOf(record.publicId);
    const origin = base.slice(0, base.indexOf('/r/'));
    // PDF as the `/pdf` segment, as the export screen writes it (shared/export-url.ts); a
    // density goes before the extension (docs/export.md "Density": `densePath`).
    const ending = body.format === 'pdf' ? '/pdf' : body.format ? `.${body.format}` : '';
    const path = densePath(
      `${base.slice(origin.length)}${body.cache_id ? `/${body.cache_id}` : ''}${ending}`,
      body.density ?? 1,
    );
    const expires =
      body.expires_in === undefined ? undefined : Math.floor(Date.now() / 1000) + body.expires_in;
    let signed: string;
    try {
      signed = signRenderPath(secret, body.form, path, body.parameters, expires);
    } catch {
      // A lone surrogate has no UTF-8 form: no URL can carry it.
      throw validationFailed({ parameters: ['A name or value is not valid text.'] });
    }
    return json(200, {
      success: true,
      url: `${origin}${signed}`,
      form: body.form,
      expires_at: expires === undefined ? null : new Date(expires * 1000).toISOString(),
    });
  },
});

/** The routes, keyed as the route table names them. */
export const signingRoutes: Record<string, RouteDefinition> = {
  'PUT /api/pic-snippet/{id}/signing': signingRoute,
  'POST /api/pic-snippet/{id}/sign': signRoute,
};
