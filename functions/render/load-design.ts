/**
 * The load stage of the render service: the design a URL names, as the request may see it. The
 * signature check of a design that requires signed URLs (docs/adr/0054-signed-render-urls.md
 * "Signed render URLs"), asked of the current design, then the version its cache id pins
 * (docs/export.md "Cache id"). The design itself comes from `deps.findDesign` (handler.ts keeps
 * it, and the team's settings, in memory).
 */
import { logger } from '#lib/logger.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { declaredParameters } from '#shared/scene/resolve.ts';
import { cacheIdOf, versionOfCacheId } from './cache-key.ts';
import type { DesignRecord, RenderRequest, RenderServiceDeps } from './service-types.ts';
import type { SignatureCheck } from './signature.ts';

/**
 * The current design's parameter names: how the query is read, the same for the signature
 * check and the drawing (a bare `name` segment is that parameter, empty;
 * docs/adr/0054-signed-render-urls.md "Signed render URLs").
 */
export const knownNames = (current: DesignRecord): ReadonlySet<string> =>
  new Set(declaredParameters(parseDesignDocument(current.document)));

/**
 * The load stage of one render service, with `deps.findSnapshot` (absent: an earlier version's
 * cache id draws the current version) and `deps.verifySignature` (absent: designs that require
 * signatures are refused, `signature-unverified`).
 * @returns `pinned(current, cacheId)` (throws nothing: a failed snapshot read is logged and the
 *   current version drawn) and `checkSigned(design, request, known)` (the verifier's errors as
 *   they come).
 */
export function createDesignLoader(
  deps: Pick<RenderServiceDeps, 'findSnapshot' | 'verifySignature'>,
) {
  /**
   * The design a URL's cache id names (docs/export.md "Cache id"): the current version (answer
   * immutable), a kept snapshot of an earlier version (drawn as it was, immutable), else the
   * current version with a short cache (no snapshot: an old preview URL, or a made-up id).
   */
  async function pinned(
    current: DesignRecord,
    cacheId: string | undefined,
  ): Promise<{ design: DesignRecord; immutable: boolean }> {
    if (cacheId === undefined) return { design: current, immutable: false };
    if (cacheId === cacheIdOf(current.version)) return { design: current, immutable: true };
    const version = versionOfCacheId(cacheId);
    if (version === undefined || version > current.version || !deps.findSnapshot) {
      return { design: current, immutable: false };
    }
    const document = await deps.findSnapshot(current.designId, version).catch((error: unknown) => {
      logger.warn('design snapshot read failed', { error: error as Error });
      return undefined;
    });
    return document === undefined || document === null
      ? { design: current, immutable: false }
      : { design: { ...current, version, document }, immutable: true };
  }

  /** The signature check of a design that requires signed URLs; others pass unchecked. */
  async function checkSigned(
    design: DesignRecord,
    request: RenderRequest,
    known: ReadonlySet<string>,
  ): Promise<SignatureCheck> {
    if ((design.document as { require_signed_urls?: unknown })?.require_signed_urls !== true)
      return { ok: true };
    if (!deps.verifySignature) return { ok: false, reason: 'signature-unverified' };
    return deps.verifySignature(design.teamId, request.rawPath, request.rawQueryString, known);
  }

  return { pinned, checkSigned };
}
