/**
 * Signed render URLs on the server (docs/developer-api.md "Signed render URLs";
 * docs/adr/0054-signed-render-urls.md "Signed render URLs"; test/unit/render-signature.test.ts):
 * the HMAC of the text shared/render-signature.ts builds, the check the render makes for a design
 * that requires signatures, and the signer behind `POST /api/pic-snippet/{id}/sign`.
 *
 * The check is constant-time (`timingSafeEqual` over the 32 bytes), bounded (a query longer than
 * `MAX_SIGNED_QUERY_LENGTH` or with more than `MAX_SIGNED_PARAMS` parameters is refused before
 * any hashing) and cheap: the team's opened secrets are kept in this process for
 * `KEYS_TTL_MS`, so a render reads and decrypts them at most once a minute per team.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { logger } from '#lib/logger.ts';
import type { SigningKeys } from '#domain/signing-secrets.ts';
import {
  MAX_SIGNED_PARAMS,
  MAX_SIGNED_QUERY_LENGTH,
  SIGNATURE_PARAMS,
  encodeRfc3986,
  stringToSign,
  withAbsentNames,
  type SignatureForm,
  type SignatureRefusal,
} from '#shared/render-signature.ts';
import { parseRenderQuery } from '#shared/render-url.ts';

/** The signature of a text: HMAC-SHA256 under the secret (its UTF-8 bytes), base64url. */
export const signatureOf = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text, 'utf8').digest('base64url');

/** The outcome of a check: accepted (with the URL's expiry, ms since the epoch), or why not. */
export type SignatureCheck =
  { ok: true; expiresAt?: number } | { ok: false; reason: SignatureRefusal };

const SIGNATURE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES_SHAPE = /^\d{1,12}$/;

/**
 * Checks a render URL's signature against the team's secrets.
 * @param secrets the secrets that verify now (current first).
 * @param now ms since the epoch.
 * @param known the design's parameter names: a bare segment naming one is that parameter with
 *   an empty value; in the names form a URL lacking some of them is also checked as if they
 *   were sent empty (`withAbsentNames`: a `#` in a value cut the query).
 *   Docs/docs/adr/0054-signed-render-urls.md "Signed render URLs".
 * @returns `signature-missing` without `__sig`; `signature-invalid` for a malformed or
 *   non-matching signature, an unknown form, a bad `__exp`, an over-long query, or no secret;
 *   `signature-expired` for a genuine signature past its `__exp`.
 */
export function checkSignature(
  rawPath: string,
  rawQuery: string,
  secrets: readonly string[],
  now = Date.now(),
  known: ReadonlySet<string> = new Set(),
): SignatureCheck {
  const invalid = { ok: false, reason: 'signature-invalid' } as const;
  if (rawQuery.length > MAX_SIGNED_QUERY_LENGTH) return invalid;
  if (rawQuery.split('&').length > MAX_SIGNED_PARAMS) return invalid;
  const query = parseRenderQuery(rawQuery, known);
  const sent = query[SIGNATURE_PARAMS.signature];
  if (sent === undefined || sent === '') return { ok: false, reason: 'signature-missing' };
  const form = query[SIGNATURE_PARAMS.form];
  const expires = query[SIGNATURE_PARAMS.expires];
  if (!SIGNATURE_SHAPE.test(sent) || (form !== 'names' && form !== 'values')) return invalid;
  if (expires !== undefined && !EXPIRES_SHAPE.test(expires)) return invalid;
  const texts: string[] = [];
  try {
    texts.push(stringToSign(form, rawPath, rawQuery, expires, known));
    const completed = form === 'names' ? withAbsentNames(rawQuery, known) : undefined;
    if (completed !== undefined) texts.push(stringToSign(form, rawPath, completed, expires, known));
  } catch {
    return invalid; // a lone surrogate: no UTF-8 form, nobody signed it
  }
  const given = Buffer.from(sent, 'base64url');
  // Every secret and reading is tried, so the time taken does not tell which one matched.
  let matched = false;
  for (const secret of secrets)
    for (const text of texts) {
      const expected = Buffer.from(signatureOf(secret, text), 'base64url');
      if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
    }
  if (!matched) return invalid;
  if (expires === undefined) return { ok: true };
  const expiresAt = Number(expires) * 1000;
  return expiresAt <= now ? { ok: false, reason: 'signature-expired' } : { ok: true, expiresAt };
}

/** One parameter of a URL to sign: its name and value (a placeholder in the `names` form). */
export interface SignedParameter {
  name: string;
  value: string;
}

/**
 * A signed render URL's path and query.
 * @param path the render path (`/r/{publicId}[/{cacheId}][/pdf][.ext]`).
 * @param parameters in URL order. `values`: each value percent-encoded (RFC 3986);
 *   `names`: each value written as given, for the e-mail platform to replace (a merge tag).
 * @param expires whole seconds since the epoch, or undefined for a URL that does not expire.
 * @returns `path?__sf=…[&__exp=…]&__sig=…&pairs`: the signature's own parameters first, so a
 *   `#` in a value the e-mail platform writes unencoded cannot cut them off
 *   (docs/adr/0054-signed-render-urls.md "Signed render URLs").
 */
export function signRenderPath(
  secret: string,
  form: SignatureForm,
  path: string,
  parameters: readonly SignedParameter[],
  expires?: number,
): string {
  const pairs = parameters.map(
    (p) => `${encodeRfc3986(p.name)}=${form === 'values' ? encodeRfc3986(p.value) : p.value}`,
  );
  const head = [`${SIGNATURE_PARAMS.form}=${form}`];
  if (expires !== undefined) head.push(`${SIGNATURE_PARAMS.expires}=${expires}`);
  const query = [...head, ...pairs].join('&');
  const signature = signatureOf(
    secret,
    stringToSign(form, path, query, expires === undefined ? undefined : String(expires)),
  );
  return `${path}?${[...head, `${SIGNATURE_PARAMS.signature}=${signature}`, ...pairs].join('&')}`;
}

/** How long a team's opened secrets are kept in this process, ms. */
const KEYS_TTL_MS = 60_000;
/**
 * A refused signature reads the secrets again when they are older than this, ms: a secret made
 * or rotated a moment ago works at once, and a flood of bad signatures reads at most this often.
 */
const KEYS_RECHECK_MS = 5_000;

/**
 * Keeps teams' opened signing secrets for `KEYS_TTL_MS` (at most 10,000 teams; concurrent reads
 * of a team share one load; a failed load is not kept).
 * @param load reads and opens a team's secrets (functions/domain/signing-secrets.ts).
 */
export function createSignatureVerifier(
  load: (teamId: string) => Promise<SigningKeys>,
  now: () => number = Date.now,
) {
  const cache = new Map<string, { at: number; keys: Promise<SigningKeys> }>();

  function keysOf(teamId: string, fresh: boolean): Promise<SigningKeys> {
    const cached = cache.get(teamId);
    const age = cached ? now() - cached.at : Infinity;
    if (cached && age < (fresh ? KEYS_RECHECK_MS : KEYS_TTL_MS)) return cached.keys;
    const keys = load(teamId);
    if (cache.size > 10_000) cache.clear();
    cache.set(teamId, { at: now(), keys });
    keys.catch(() => cache.delete(teamId));
    return keys;
  }

  const valid = (keys: SigningKeys): string[] =>
    keys.previousValidUntil !== undefined && keys.previousValidUntil <= now()
      ? keys.secrets.slice(0, 1)
      : keys.secrets;

  /**
   * Checks a request for a design of `teamId` that requires signatures. Never throws: secrets
   * that cannot be read refuse as `signature-unverified` (logged), never accept.
   * @param known the design's parameter names (see {@link checkSignature}).
   */
  async function verify(
    teamId: string,
    rawPath: string,
    rawQuery: string,
    known: ReadonlySet<string> = new Set(),
  ): Promise<SignatureCheck> {
    const check = (keys: SigningKeys) =>
      checkSignature(rawPath, rawQuery, valid(keys), now(), known);
    try {
      const first = check(await keysOf(teamId, false));
      if (first.ok || first.reason !== 'signature-invalid') return first;
      return check(await keysOf(teamId, true));
    } catch (error) {
      logger.warn('render signing secrets not read: refusing', { teamId, error: error as Error });
      return { ok: false, reason: 'signature-unverified' };
    }
  }

  return { verify, forget: () => cache.clear() };
}

/**
 * The Cache-Control of an accepted signed render: never past the URL's expiry (the CDN and mail
 * proxies must not keep answering it later), and not `immutable` then.
 * @param expiresAt ms since the epoch, or undefined (unchanged).
 */
export function cacheControlUntil(
  cacheControl: string,
  expiresAt: number | undefined,
  now = Date.now(),
): string {
  if (expiresAt === undefined || cacheControl === 'no-store') return cacheControl;
  const maxAge = /max-age=(\d+)/.exec(cacheControl)?.[1];
  const left = Math.max(0, Math.floor((expiresAt - now) / 1000));
  return `public, max-age=${Math.min(left, maxAge === undefined ? left : Number(maxAge))}`;
}
