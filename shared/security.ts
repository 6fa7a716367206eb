/**
 * The Content-Security-Policy of the SPA's documents (`object-src 'none'`, `frame-ancestors`;
 * test/unit/security-csp.test.ts), set by CloudFront's response headers policy in AWS and by the
 * local gateway when it serves the built SPA. API answers carry their own stricter policy
 * (functions/lib/http.ts). Images may come from https sources (stock photos, avatars, hosted images
 * in the editor); scripts only from the product's origin and Stripe.js.
 *
 * Stripe (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA"; Stripe's "Content Security
 * Policy" guide for Stripe.js and the Payment Element): the script from js.stripe.com, its frames
 * from js.stripe.com and hooks.stripe.com (3-D Secure), and its calls to api.stripe.com. Stripe.js
 * is only loaded once the server hands out a publishable key, so an offline server never contacts
 * Stripe.
 *
 * Fonts: the product's own origin and `data:`, plus the fontsource CDN's path when
 * `FONT_CDN_URL` is configured (docs/fonts.md; the editor registers CDN families as FontFace
 * objects, fetched under `font-src`). The render page never fetches the CDN itself: its font
 * URLs are paths on its own origin that the render function answers (functions/render/fonts.ts).
 */
import { trimEndChar } from './strings.ts';

export const STRIPE_CSP = {
  script: 'https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
} as const;

/**
 * The public fontsource CDN's font files base (docs/fonts.md
 * "Configuration: the fontsource CDN"): `{base}/{id}@latest/{subset}-{weight}-{style}.woff2`, the
 * URL shape of shared/fonts/catalogue.ts `resolveFont`. The CDK stack's default for `FONT_CDN_URL`
 * (context `fontCdnUrl`, docs/fonts.md "Configuration").
 */
export const FONTSOURCE_CDN_URL = 'https://cdn.jsdelivr.net/fontsource/fonts';

/**
 * The CSP source that lets a document load fonts from a font CDN base: its https origin and its
 * path with a trailing slash (a CSP path ending in `/` matches every file below it), e.g.
 * `https://cdn.jsdelivr.net/fontsource/fonts/`. The base comes from configuration and lands in
 * a header, so anything that could break out of a source expression is refused.
 * @param url an https URL without credentials, query or fragment.
 * @throws Error naming the problem, for anything else (read at synth: a deploy never starts
 *   with a broken policy).
 */
export function fontCdnSource(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The font CDN URL is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:') throw new Error(`The font CDN URL must be https: ${url}`);
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new Error(`The font CDN URL may not carry credentials, a query or a fragment: ${url}`);
  }
  const path = `${trimEndChar(parsed.pathname, '/')}/`;
  if (!/^[A-Za-z0-9._~%@/-]+$/.test(path)) {
    throw new Error(`The font CDN URL's path has characters a policy cannot hold: ${url}`);
  }
  return `${parsed.origin}${path}`;
}

/** What the SPA's policy depends on. */
export interface SpaPolicyOptions {
  /**
   * `FONT_CDN_URL`, when the editor may load catalogue families from the fontsource CDN
   * (FontFace objects fetch under `font-src`); unset, fonts come from the product's origin only.
   */
  fontCdnUrl?: string | undefined;
  /**
   * The origin the SPA uploads send lists to (a presigned PUT to the assets bucket,
   * docs/send-lists.md): `https://{bucket}.s3.{region}.amazonaws.com` in AWS, the S3 emulator
   * locally. Added to `connect-src`; unset, uploads go to the SPA's origin only.
   */
  uploadOrigin?: string | undefined;
}

/**
 * The upload origin as a `connect-src` source (with its leading space), or '' when unset.
 * @throws Error when it is not a bare http(s) origin.
 */
function uploadSource(origin: string | undefined): string {
  if (!origin) return '';
  const parsed = URL.parse(origin);
  if (
    !parsed ||
    !['https:', 'http:'].includes(parsed.protocol) ||
    parsed.origin !== origin.replace(/\/$/, '')
  )
    throw new Error(`The upload origin must be a bare http(s) origin: ${origin}`);
  return ` ${parsed.origin}`;
}

/**
 * The SPA documents' policy (see the module comment).
 * @throws Error when `fontCdnUrl` is not a usable https base ({@link fontCdnSource}).
 */
export function spaContentSecurityPolicy(options: SpaPolicyOptions = {}): string {
  const fonts = options.fontCdnUrl ? ` ${fontCdnSource(options.fontCdnUrl)}` : '';
  return [
    "default-src 'self'",
    `script-src 'self' ${STRIPE_CSP.script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    `font-src 'self' data:${fonts}`,
    `connect-src 'self' ${STRIPE_CSP.connect}${uploadSource(options.uploadOrigin)}`,
    `frame-src 'self' ${STRIPE_CSP.frame}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The SPA's policy without a font CDN (the product's own fonts only). */
export const SPA_CONTENT_SECURITY_POLICY = spaContentSecurityPolicy();

/**
 * The Content-Security-Policy of user files (`/files/*`: photos and uploads). An uploaded file
 * is only ever an image for `<img>`; `sandbox` and `default-src 'none'` stop it from running
 * script or loading anything even if a browser is persuaded to open it as a document.
 */
export const USER_FILES_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

/**
 * The object tag that withdraws a user file from the web (docs/security.md "Deleted uploads"):
 * `/files/{key}` answers 404 for it (the local gateway reads the tag; in AWS the assets bucket's
 * policy denies CloudFront `s3:GetObject` on objects carrying it), while the render service,
 * which reads the bucket with its own role, still draws it for designs and snapshots that use it.
 * Set by functions/lib/uploads.ts `withdrawUserFile`.
 */
export const WITHDRAWN_TAG = { Key: 'withdrawn', Value: 'true' } as const;
