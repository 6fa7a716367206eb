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
