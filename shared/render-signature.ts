/**
 * Signed render URLs: what a signature covers (docs/developer-api.md "Signed render URLs";
 * test/unit/render-signature.test.ts). Pure string work, no crypto, so the server's signer and
 * verifier (functions/render/signature.ts) and the documentation's examples agree on one text.
 *
 * A signed URL carries three reserved query parameters:
 * - `__sf`: the form, `names` (e-mail platforms fill the values in later: the names are
 *   signed) or `values` (the names and values are signed);
 * - `__exp`: optional, when the URL stops working, whole seconds since the Unix epoch;
 * - `__sig`: the signature, HMAC-SHA256 of {@link stringToSign} under the team's signing secret,
 *   base64url without padding (43 characters).
 */
import { decodeComponent, parseRenderQuery } from './render-url.ts';

/** The reserved query parameter names of a signed URL. */
export const SIGNATURE_PARAMS = { signature: '__sig', form: '__sf', expires: '__exp' } as const;

/** What a signature covers: parameter names only, or names and values. */
export const SIGNATURE_FORMS = ['names', 'values'] as const;
export type SignatureForm = (typeof SIGNATURE_FORMS)[number];

/** The first line of every string to sign: the scheme and its version. */
export const SIGNATURE_SCHEME = 'PICSNIPPETS-HMAC-SHA256';

/**
 * Longest query string a signature is checked for, characters: CloudFront refuses longer URLs
 * (8,192 bytes) before they reach the render, so a longer one here is made up.
 */
export const MAX_SIGNED_QUERY_LENGTH = 8192;

/** Most parameters a signed URL may carry (a design has far fewer: docs/developer-api.md). */
export const MAX_SIGNED_PARAMS = 200;

/** Why a render answered the fallback image instead of the signed render (`X-Render-Reason`). */
export type SignatureRefusal =
  'signature-missing' | 'signature-invalid' | 'signature-expired' | 'signature-unverified';

/** The answer header that names a {@link SignatureRefusal}. */
export const RENDER_REASON_HEADER = 'x-render-reason';

/**
 * RFC 3986 percent-encoding of UTF-8: every byte but `A–Z a–z 0–9 - . _ ~` as `%XX` (upper-case
 * hex), as Python's `urllib.parse.quote(s, safe='')` and jq's `@uri` write it.
 * @throws URIError for a string with a lone surrogate (no UTF-8 form).
 */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The path a signature covers: the URL's path with empty segments dropped (`//`, a trailing `/`),
 * exactly as written otherwise (`/r/k3f9a2.jpg`, `/r/k3f9a2/v7/pdf`).
 */
export function canonicalPath(rawPath: string): string {
  return `/${rawPath
    .split('/')
    .filter((s) => s !== '')
    .join('/')}`;
}

/**
 * Parameters no signature covers: its own, and `__format` (ManyChat's `manychat_json` answers a
 * JSON pointing at the same URL without it, which must verify too; it changes nothing drawn).
 */
const RESERVED: ReadonlySet<string> = new Set([...Object.values(SIGNATURE_PARAMS), '__format']);

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The parameter names of a raw query in the order they appear, duplicates kept, the parameters
 * no signature covers left out (`__sig`, `__sf`, `__exp`, `__format`). A segment is read as
 * `parseRenderQuery` reads it (decoded, the name trimmed; a segment without `=` is part of the
 * previous value, not a name, unless it is one of the design's `known` parameter names: then it is
 * that name with an empty value).
 */
export function queryNames(rawQuery: string, known: ReadonlySet<string> = NO_NAMES): string[] {
  const names: string[] = [];
  for (const segment of rawQuery.replace(/^\?/, '').split('&')) {
    const eq = segment.indexOf('=');
    const name =
      eq > 0
        ? decodeComponent(segment.slice(0, eq)).trim()
        : eq < 0 && known.size > 0 && known.has(decodeComponent(segment).trim())
          ? decodeComponent(segment).trim()
          : '';
    if (name !== '' && !RESERVED.has(name)) names.push(name);
  }
  return names;
}

/**
 * The names form's second reading of a query (docs/adr/0054-signed-render-urls.md "Signed render
 * URLs"): the query with each of the design's `known` names it lacks added with an empty value, so
 * a URL signed over all the design's names still verifies when a `#` in a recipient's value cut the
 * rest of the query off (a browser never sends what follows `#`). An absent parameter draws its
 * fallback, as the empty value the platform could have written does.
 * @returns undefined when nothing is missing (the first reading is the same).
 */
export function withAbsentNames(rawQuery: string, known: ReadonlySet<string>): string | undefined {
  const present = new Set(queryNames(rawQuery, known));
  const absent = [...known].filter((name) => !present.has(name) && !RESERVED.has(name));
  if (absent.length === 0) return undefined;
  return [rawQuery, ...absent.map((name) => `${encodeRfc3986(name)}=`)].join('&');
}

/**
 * The query line a signature covers (never `__sig`, `__sf`, `__exp` or `__format`).
 * - `names`: the encoded names sorted (byte order), duplicates kept, joined by `&`
 *   (`city&first_name`). Sorted, not in URL order: CloudFront sorts the query by name before the
 *   render sees it (infra/constructs/render.ts `RENDER_QUERY_NORMALISER_CODE`), and the order
 *   changes nothing drawn (docs/adr/0054-signed-render-urls.md "Signed render URLs");
 * - `values`: `name=value` pairs, both encoded, sorted by encoded name, joined by `&`; each name
 *   once, with the value the render uses (a later duplicate wins, as in `parseRenderQuery`).
 * @param known the design's parameter names: a bare segment naming one is that parameter, empty.
 * @throws URIError for a name or value with a lone surrogate.
 */
export function canonicalQuery(
  form: SignatureForm,
  rawQuery: string,
  known: ReadonlySet<string> = NO_NAMES,
): string {
  if (form === 'names') return queryNames(rawQuery, known).map(encodeRfc3986).sort().join('&');
  const parsed = parseRenderQuery(rawQuery, known);
  return Object.keys(parsed)
    .filter((name) => !RESERVED.has(name))
    .map((name) => [encodeRfc3986(name), encodeRfc3986(parsed[name]!)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * The text a signature is the HMAC of: five lines joined by `\n` (no newline at the end):
 * the scheme, the form, the canonical path, the expiry (`__exp` as sent, or empty) and the
 * canonical query (docs/developer-api.md "Signed render URLs").
 * @param known the design's parameter names (see {@link canonicalQuery}).
 * @throws URIError for a name or value with a lone surrogate.
 */
export function stringToSign(
  form: SignatureForm,
  rawPath: string,
  rawQuery: string,
  expires: string | undefined,
  known: ReadonlySet<string> = NO_NAMES,
): string {
  return [
    SIGNATURE_SCHEME,
    form,
    canonicalPath(rawPath),
    expires ?? '',
    canonicalQuery(form, rawQuery, known),
  ].join('\n');
}
