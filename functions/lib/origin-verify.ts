/**
 * The edge cannot be skipped (docs/security.md "The edge cannot be skipped"): in AWS, CloudFront
 * adds `x-origin-verify: <secret>` to every request it sends to the HTTP API (infra/constructs
 * web.ts), and every API function refuses a request without that value with 403. A caller of the
 * `execute-api` endpoint itself therefore never reaches a handler, and cannot skip the WAF's rate
 * rules or forge the viewer-address and viewer-country headers that CloudFront sets.
 *
 * The value comes from Secrets Manager through the SSM reference path (ssm-secrets.ts loads
 * `ORIGIN_VERIFY_SECRET` from `ORIGIN_VERIFY_SECRET_PARAMETER` before this runs). Fails closed:
 * when the parameter is named but no value could be read, every request is refused. Locally
 * neither variable is set and nothing is checked.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { config } from './config.ts';
import { forbidden } from './errors.ts';
import { logger } from './logger.ts';

/** The header CloudFront adds to API origin requests (lower case, as the chain normalises). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** Constant-time comparison of two strings (different lengths compare unequal). */
function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The chain's check (functions/lib/http.ts registers it after the secrets loader).
 * @returns a middleware whose `before` throws 403 `This action is unauthorized.` when the
 *   request lacks the edge's value; none when the deployment does not use it (local, tests)
 */
export function originVerify(
  env: NodeJS.ProcessEnv = process.env,
): MiddlewareObj<{ headers?: Record<string, string | undefined> }>[] {
  if (!env.ORIGIN_VERIFY_SECRET_PARAMETER && !env.ORIGIN_VERIFY_SECRET) return [];
  return [
    {
      before: (request) => {
        const expected = config().ORIGIN_VERIFY_SECRET;
        if (!expected) {
          logger.error('origin-verify secret missing: refusing every request');
          throw forbidden();
        }
        const given = request.event.headers?.[ORIGIN_VERIFY_HEADER];
        if (!given || !same(given, expected)) throw forbidden();
        // Handlers never see it (nor could log it).
        delete request.event.headers![ORIGIN_VERIFY_HEADER];
      },
    },
  ];
}
