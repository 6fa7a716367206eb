/**
 * Creates the table and the buckets from infra/definitions.ts, the definitions the CDK stack
 * uses (issue: foundation §3). Idempotent: existing resources are left as they are.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  PutBucketLifecycleConfigurationCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BUCKETS, TABLE, type BucketRole } from '../definitions.ts';

/** Creates the single table with its GSIs and TTL, if missing. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
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
      GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
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
