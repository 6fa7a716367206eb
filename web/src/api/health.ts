/**
 * `GET /api/health` (docs/operations.md "Health"): is the API up, and can it reach its data stores?
 * The report's shape is the route's contract (shared/contract/system.ts).
 */
import { HealthSchema, type Health } from '#shared/contract/system.ts';
import { ApiError, call } from './client.ts';

export type { Health } from '#shared/contract/system.ts';

export type ServiceName = keyof Health['services'];

/** Display names and what each service holds, in display order. */
export const SERVICES: readonly { key: ServiceName; name: string; holds: string }[] = [
  { key: 'dynamodb', name: 'DynamoDB', holds: 'Designs, teams and sessions' },
  { key: 's3', name: 'S3', holds: 'Images, fonts and the render cache' },
];

/**
 * Fetches the health report. A 503 that carries a report is a report (some service is down),
 * not a failure; a 503 of something in front of the API (no report) is one.
 *
 * @throws {ApiError} when there is no usable report (network failure, other status).
 */
export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  try {
    return await call('GET /api/health', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) {
      const report = HealthSchema.safeParse(error.body);
      if (report.success) return report.data;
    }
    throw error;
  }
}
