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
 * (functions/render/service.ts `DEFAULT_LIMITS.perProxyAddress`; docs/security.md "Render
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
