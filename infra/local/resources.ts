/**
 * Creates the table and the buckets from shared/resources.ts, the definitions the CDK stack uses.
 * Idempotent: existing resources are kept, and an older local table gets the GSIs added since it
 * was made (its data stays).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  PutBucketLifecycleConfigurationCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BUCKETS, TABLE, type BucketRole } from '#shared/resources.ts';

const gsiDefinition = (g: (typeof TABLE.globalSecondaryIndexes)[number]) => ({
  IndexName: g.indexName,
  KeySchema: [
    { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
});

/**
 * Creates the single table with its GSIs and TTL, if missing; adds the GSIs an existing table
 * lacks (one UpdateTable each, as DynamoDB allows; it backfills them from the items).
 * @returns the names of the GSIs added to an existing table.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<string[]> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    const added: string[] = [];
    for (const g of TABLE.globalSecondaryIndexes) {
      if (have.has(g.indexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: g.partitionKey, AttributeType: 'S' },
            { AttributeName: g.sortKey, AttributeType: 'S' },
          ],
          GlobalSecondaryIndexUpdates: [{ Create: gsiDefinition(g) }],
        }),
      );
      added.push(g.indexName);
    }
    return added;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const g of TABLE.globalSecondaryIndexes) {
    attributes.add(g.partitionKey);
    attributes.add(g.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({
        AttributeName: name,
        AttributeType: 'S',
      })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map(gsiDefinition),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
  return [];
}

/** Creates each bucket (and the render cache's lifecycle rule), if missing. */
export async function ensureBuckets(
  client: S3Client,
  names: Record<BucketRole, string>,
): Promise<void> {
  for (const role of Object.keys(BUCKETS) as BucketRole[]) {
    const Bucket = names[role];
    try {
      await client.send(new HeadBucketCommand({ Bucket }));
    } catch {
      await client.send(new CreateBucketCommand({ Bucket }));
    }
    const days = BUCKETS[role].expireAfterDays;
    if (days) {
      await client
        .send(
          new PutBucketLifecycleConfigurationCommand({
            Bucket,
            LifecycleConfiguration: {
              Rules: [
                {
                  ID: 'expire-renders',
                  Status: 'Enabled',
                  Filter: { Prefix: '' },
                  Expiration: { Days: days },
                },
              ],
            },
          }),
        )
        .catch(() => undefined); // s3rver keeps no lifecycle rules; S3 in AWS gets them from CDK.
    }
  }
}
