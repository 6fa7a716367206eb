/**
 * CDN invalidation of a design's render URLs when the design is saved (issue: render §7).
 * Renders without a cacheId are cached by CloudFront for a short max-age; a save invalidates
 * `/r/{publicId}*` so recipients see the new version at once. The origin caches need nothing:
 * they are keyed by design version. Locally (no DISTRIBUTION_ID) this is a no-op.
 */
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { randomUUID } from 'node:crypto';
import { config } from './config.ts';
import { logger } from './logger.ts';

let client: CloudFrontClient | undefined;
const cloudFront = () => (client ??= new CloudFrontClient({ region: 'us-east-1' }));

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
  deps: { client?: CloudFrontClient; distributionId?: string | undefined } = {},
): Promise<string | undefined> {
  const distributionId = deps.distributionId ?? config().DISTRIBUTION_ID;
  if (!distributionId) return undefined;
  try {
    const out = await (deps.client ?? cloudFront()).send(
      new CreateInvalidationCommand({
        DistributionId: distributionId,
        InvalidationBatch: {
          CallerReference: `${publicId}-${Date.now()}-${randomUUID().slice(0, 8)}`,
          Paths: { Quantity: 1, Items: [`/r/${publicId}*`] },
        },
      }),
    );
    return out.Invalidation?.Id;
  } catch (error) {
    logger.warn('render invalidation failed', { publicId, error: error as Error });
    return undefined;
  }
}
