/**
 * The editor's design calls (docs/editor.md "Server sync": "Design actions": `GET
 * /api/pic-snippet/{id}`, `PUT /api/pic-snippet/{id}` with the full JSON): loading goes through the
 * one restore path (`restoreDesign`, docs/editor.md "Architecture"), saving sends the whole
 * document with the title and the version. The dashboard's calls stay in api/designs.ts.
 */
import { ApiError, call } from '../../api/client.ts';
import { restoreDesign } from '#shared/design.ts';
import type { DesignMeta, LoadedDesign } from './store/designSlice.ts';
import type { DesignServer, SaveRequest } from './sync.ts';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/** Shown when the answer is not a design this editor can open. */
const NOT_A_DESIGN = 'The server answered with a design this editor cannot open.';

/**
 * The browser's address for the base photo: `/files/…` on this origin (the API, the SPA and
 * the user files share one origin, docs/adr/0001-api-and-spa-on-one-origin.md "API and SPA on one
 * origin"), so the canvas is never tainted by another host; null when the design's photo is not
 * served.
 */
export function sameOriginFileUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  try {
    const parsed = new URL(url, 'http://origin.invalid');
    return parsed.pathname.startsWith('/files/') ? `${parsed.pathname}${parsed.search}` : null;
  } catch {
    return null;
  }
}

/** The record fields and the restored document of a design answer. */
function toLoaded(body: unknown): LoadedDesign {
  if (!isRecord(body) || typeof body.id !== 'string') throw new ApiError(200, NOT_A_DESIGN);
  let document;
  try {
    document = restoreDesign(body).document;
  } catch (error) {
    console.error(error);
    throw new ApiError(200, NOT_A_DESIGN);
  }
  const meta: DesignMeta = {
    id: body.id,
    title: text(body.title, 'Untitled'),
    version: typeof body.version === 'number' ? body.version : 0,
    publicId: text(body.public_id),
    baseImageUrl: sameOriginFileUrl(body.base_image_url),
    renderUrl: text(body.base_url),
  };
  return { meta, document };
}

/**
 * `GET /api/pic-snippet/{id}`: the design to edit.
 * @throws {ApiError} 404 when it is not the current team's (or does not exist); status 200 when
 *   the answer is not a design.
 */
export async function fetchEditorDesign(id: string, signal?: AbortSignal): Promise<LoadedDesign> {
  return toLoaded(await call('GET /api/pic-snippet/{id}', { params: { id }, signal }));
}

/**
 * `PUT /api/pic-snippet/{id}` with the document's fields at the top level, the title and the
 * version (docs/adr/0019-design-api-shapes.md "Design API shapes"); or, when the request says the
 * only change is one QR code's fields (`request.qrCode`, sync.ts), `PUT
 * /api/pic-snippet/{id}/qrCode` with `stickerId`, those fields and the version (docs/editor.md
 * "Server sync"). Both answer the new version.
 * @returns the new version and the saved title.
 * @throws {ApiError} 409 `{ message, version }` when the version is stale, 422 with field errors.
 *   The answer's shape is the contract's (`WrittenSchema`, shared/contract/designs.ts), which the
 *   server keeps (checked in the test stack).
 */
export async function saveEditorDesign(
  id: string,
  request: SaveRequest,
): Promise<{ version: number; title: string }> {
  const body = request.qrCode
    ? await call('PUT /api/pic-snippet/{id}/qrCode', {
        params: { id },
        body: {
          stickerId: request.qrCode.stickerId,
          ...request.qrCode.fields,
          version: request.version,
        },
      })
    : await call('PUT /api/pic-snippet/{id}', {
        params: { id },
        body: { ...request.document, title: request.title, version: request.version },
      });
  return { version: body.version, title: body.title };
}

/** The design API for the sync (sync.ts). */
export const designServer: DesignServer = {
  save: saveEditorDesign,
  load: (id) => fetchEditorDesign(id),
};
