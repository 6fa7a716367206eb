/**
 * What every entity module shares: the service name, the table's key fields and its GSIs
 * (shared/resources.ts), and the options that bind an entity to one table and client.
 * functions/lib/db/entities.ts builds the core entities; each feature's own entities live in
 * a module beside it (`entities-*.ts`) that takes an {@link EntityKit} and is spread into
 * {@link createEntities}' result.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '#shared/resources.ts';

export const SERVICE = 'picsnippets';

/** An ISO-8601 timestamp of now, the default of `createdAt` attributes. */
export const now = (): string => new Date().toISOString();

/** The table's nth global secondary index (1-based). */
export const gsi = (n: 1 | 2 | 3 | 4 | 5) => TABLE.globalSecondaryIndexes[n - 1]!;

/** The options and key fields an entity module builds its entities with. */
export interface EntityKit {
  opts: { table: string; client: DynamoDBDocumentClient };
  primary: { readonly pk: { readonly field: string }; readonly sk: { readonly field: string } };
}

/** The kit for one table and client. */
export function entityKit(table: string, client: DynamoDBDocumentClient): EntityKit {
  return {
    opts: { table, client },
    primary: { pk: { field: TABLE.partitionKey }, sk: { field: TABLE.sortKey } },
  };
}
