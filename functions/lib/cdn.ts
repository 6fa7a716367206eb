/**
 * CDN invalidations (docs/infra.md "What the stack creates", docs/security.md "Deleted uploads").
 * - A design's render URLs when the design is saved: renders without a cacheId are cached by
 *   CloudFront for a short max-age; a save invalidates `/r/{publicId}*` so recipients see the
 *   new version at once. The origin caches need nothing: they are keyed by design version.
 * - A deleted user file's `/files/…` path, so the edge stops serving it.
 * Locally (no DISTRIBUTION_ID) both are no-ops.
 */
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { randomUUID } from 'node:crypto';
import { config } from './config.ts';
import { logger } from './logger.ts';
import { traced } from './tracing.ts';

let client: CloudFrontClient | undefined;
const cloudFront = () => (client ??= traced(new CloudFrontClient({ region: 'us-east-1' })));

/**
 * Invalidates every cached render of a design (all extensions, cache ids and query strings:
 * CloudFront's `*` covers them).
 * @param publicId the design's public render id.
 * @param deps the client and distribution, injectable for tests.
 * @returns the invalidation id, or undefined when there is no distribution (local) or the
 *   call failed (logged; a save never fails because the CDN did).
 */
export async function invalidateDesignRenders(
  publicId: string,
  deps: InvalidationDeps = {},
): Promise<string | undefined> {
  return invalidatePaths([`/r/${publicId}*`], publicId, deps);
}

/** The CloudFront client and distribution id, injectable for tests. */
export interface InvalidationDeps {
  client?: CloudFrontClient;
  distributionId?: string | undefined;
}

/** What calls without their own deps use (tests: a recording client); empty in production. */
let defaults: InvalidationDeps = {};

/**
 * Sets the client and distribution every invalidation without its own `deps` uses, so a test
 * of a flow (a watermark upload, a Stripe webhook) records what CloudFront is asked for.
 * @param deps the test's client and distribution id; `{}` restores the configured ones.
 */
export function setDefaultInvalidationDeps(deps: InvalidationDeps): void {
  defaults = deps;
}

/**
 * Invalidates the given paths on the product's distribution.
 * @param paths absolute paths (`/files/teams/….jpg`, `/r/{publicId}*`), at most 15 (one call's
 *   wildcard limit; callers pass one to three).
 * @param reference a readable prefix of the caller reference (a design or file id).
 * @returns the invalidation id, or undefined when there is no distribution (local) or the call
 *   failed (logged, never thrown: the change that asked for it has already happened).
 */
export async function invalidatePaths(
  paths: readonly string[],
  reference: string,
  deps: InvalidationDeps = {},
): Promise<string | undefined> {
  try {
    return await createInvalidation(paths, reference, deps);
  } catch (error) {
    logger.warn('CDN invalidation failed', { paths: paths.slice(0, 15), error: error as Error });
    return undefined;
  }
}

/**
 * {@link invalidatePaths} for a queue worker, which retries a failed call: the same request,
 * and CloudFront's error is thrown.
 * @returns the invalidation id, or undefined when there is no distribution (local) or no path.
 * @throws CloudFront's error (`TooManyInvalidationsInProgress`, throttling, access).
 */
export async function createInvalidation(
  paths: readonly string[],
  reference: string,
  deps: InvalidationDeps = {},
): Promise<string | undefined> {
  const distributionId = deps.distributionId ?? defaults.distributionId ?? config().DISTRIBUTION_ID;
  if (!distributionId || paths.length === 0) return undefined;
  const items = paths.slice(0, 15);
  const out = await (deps.client ?? defaults.client ?? cloudFront()).send(
    new CreateInvalidationCommand({
      DistributionId: distributionId,
      InvalidationBatch: {
        CallerReference: `${reference.slice(0, 64)}-${Date.now()}-${randomUUID().slice(0, 8)}`,
        Paths: { Quantity: items.length, Items: [...items] },
      },
    }),
  );
  return out.Invalidation?.Id;
}
