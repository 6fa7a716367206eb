/**
 * `GET /api/health` (route table: "issue: foundation"): is the API up, and can it reach its
 * data stores?
 *
 * TODO: move these types to `shared/` beside the handler's own schema once the `system`
 * feature publishes one, so both sides read one definition.
 */
import { api, ApiError } from './client.ts';

/** One backing service as the health check saw it; `ms` is the probe's round trip. */
export interface ServiceHealth {
  ok: boolean;
  ms?: number;
  error?: string;
}

export interface Health {
  ok: boolean;
  services: { dynamodb: ServiceHealth; s3: ServiceHealth };
}

export type ServiceName = keyof Health['services'];

/** Display names and what each service holds, in display order. */
export const SERVICES: readonly { key: ServiceName; name: string; holds: string }[] = [
  { key: 'dynamodb', name: 'DynamoDB', holds: 'Designs, teams and sessions' },
  { key: 's3', name: 'S3', holds: 'Images, fonts and the render cache' },
];

/**
 * Fetches the health report. A 503 that carries a report is a report (some service is down),
 * not a failure.
 *
 * @throws {ApiError} when there is no usable report (network failure, other status, bad shape).
 */
export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  let body: unknown;
  try {
    body = await api<unknown>('GET', '/api/health', undefined, { signal });
  } catch (error) {
    if (error instanceof ApiError && isHealth(error.body)) return error.body;
    throw error;
  }
  if (!isHealth(body)) {
    throw new ApiError(200, 'The health check answered in a shape this page does not know.');
  }
  return body;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const isService = (v: unknown): v is ServiceHealth =>
  isObject(v) &&
  typeof v.ok === 'boolean' &&
  (v.ms === undefined || typeof v.ms === 'number') &&
  (v.error === undefined || typeof v.error === 'string');

function isHealth(v: unknown): v is Health {
  return (
    isObject(v) &&
    typeof v.ok === 'boolean' &&
    isObject(v.services) &&
    isService(v.services.dynamodb) &&
    isService(v.services.s3)
  );
}
