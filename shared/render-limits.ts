/**
 * What the edge tells the render origin (docs/security.md "Render limits"): the WebACL's rate
 * rule on `/r/*` counts instead of blocking and inserts this header into the request it forwards
 * (AWS WAF prefixes inserted headers with `x-amzn-waf-`). infra/constructs/render.ts writes it,
 * functions/render/handler.ts reads it.
 */

/** The name the WAF rule inserts (without AWS's prefix). */
export const EDGE_RATE_HEADER_NAME = 'picsnippets-rate';

/** The header as the origin receives it (lower case, with AWS's prefix). */
export const EDGE_RATE_HEADER = `x-amzn-waf-${EDGE_RATE_HEADER_NAME}`;

/** Its value when the address went over its 5-minute budget. */
export const EDGE_RATE_EXCEEDED = 'exceeded';

/**
 * The name of the header the edge's proxy rule inserts (without AWS's prefix): the address went
 * over a mail proxy's 5-minute budget ({@link PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN}). Its value is
 * {@link EDGE_RATE_EXCEEDED}.
 */
export const EDGE_PROXY_RATE_HEADER_NAME = 'picsnippets-proxy-rate';

/** The proxy rule's header as the origin receives it. */
export const EDGE_PROXY_RATE_HEADER = `x-amzn-waf-${EDGE_PROXY_RATE_HEADER_NAME}`;

/**
 * Draws a second one recognised mail-proxy address may have in one render container
 * (functions/render/budgets.ts `DEFAULT_LIMITS.perProxyAddress`; docs/security.md "Render
 * limits").
 */
export const MAIL_PROXY_DRAWS_PER_SECOND = 400;

/**
 * Requests one mail-proxy address may make to `/r/*` and `/l/*` in 5 minutes before every
 * container refuses it draws and open-time work: a proxy's per-container rate
 * ({@link MAIL_PROXY_DRAWS_PER_SECOND}) over the 300-second window, counted at the edge where
 * all containers see it (docs/security.md "Render limits").
 */
export const PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN = MAIL_PROXY_DRAWS_PER_SECOND * 300;

/**
 * The most pixels a dense render (`@2x`, `@3x`) may have, width × height of the drawn image
 * (docs/export.md "Density"): 8 million, what its byte budget ({@link denseByteBudget}) can
 * hold as a photo at the lowest JPEG quality of the ladder (about 1 bit a pixel at q50), and
 * 32 MB as the RGBA frame the render composes. A 900×600 canvas fits at 3× (4.9 Mpx), the widest
 * canvas (1056 px) at 2× up to 1,893 px tall. A design past it answers the fallback, uncached.
 */
export const MAX_DENSE_PIXELS = 8_000_000;

/**
 * Whether a canvas of `width` × `height` px may be drawn at `density` (docs/export.md
 * "Density"): always at 1×, else within {@link MAX_DENSE_PIXELS}. The render service refuses the
 * rest; the export screen offers the 2× image only when it fits.
 */
export function densityFits(width: number, height: number, density: number): boolean {
  return density === 1 || width * density * height * density <= MAX_DENSE_PIXELS;
}

/**
 * The byte budget of a dense image at 2×, bytes, by format (docs/export.md "Density"): JPEG
 * (and the PDF that holds one) 1 MB, what an e-mail's one image may weigh on a phone's data;
 * PNG 1.5 MB, lossless for flat artwork (a photo falls to a 256-colour palette); WebP and AVIF,
 * for web pages, in proportion to their bytes beside the JPEG at the same fidelity
 * (docs/performance.md "Output quality": about ¾ and ½). At 3× each is half as much again.
 */
export const DENSE_BYTE_BUDGETS = {
  jpeg: 1_000_000,
  pdf: 1_000_000,
  png: 1_500_000,
  webp: 750_000,
  avif: 500_000,
} as const;

/** The byte budget of a dense image of `format` at `density` (2 or 3), bytes. */
export function denseByteBudget(format: keyof typeof DENSE_BYTE_BUDGETS, density: 2 | 3): number {
  return density === 2 ? DENSE_BYTE_BUDGETS[format] : DENSE_BYTE_BUDGETS[format] * 1.5;
}
