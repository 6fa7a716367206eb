/**
 * The process's entities over the configured table and client, built once.
 */
import { config } from '../config.ts';
import { documentClient } from '../clients.ts';
import { createEntities, type Entities } from './entities.ts';

let entities: Entities | undefined;

/** Entities bound to `TABLE_NAME` and the document client (lazy, once per process). */
export function db(): Entities {
  entities ??= createEntities(config().TABLE_NAME, documentClient());
  return entities;
}

/** For the local stack and tests, after the endpoint or table changes. */
export function resetDb(): void {
  entities = undefined;
}

/** True for DynamoDB's conditional-check failure, as ElectroDB wraps it. */
export function isConditionFailure(error: unknown): boolean {
  const e = error as { name?: string; cause?: { name?: string }; message?: string };
  return (
    e?.name === 'ConditionalCheckFailedException' ||
    e?.cause?.name === 'ConditionalCheckFailedException' ||
    /conditional request failed/i.test(e?.message ?? '')
  );
}
