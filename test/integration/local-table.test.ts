/**
 * An older local table (made before gsi4/gsi5 existed) gets the missing GSIs when the stack
 * starts, keeping its items (infra/local/resources.ts `ensureTable`).
 *
 * @own-stack: a table made before the stack starts, and no seed.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { TABLE } from '#shared/resources.ts';
import { ensureTable } from '#infra/local/resources.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false, seed: false });

describe('ensureTable on an older local table', () => {
  it('adds the GSIs it lacks and keeps the data', async () => {
    const client = new DynamoDBClient({
      endpoint: stack().dynamoEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const TableName = 'older-table';
    const old = TABLE.globalSecondaryIndexes.slice(0, 3);
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', ...old.flatMap((g) => [g.partitionKey, g.sortKey])].map(
          (AttributeName) => ({ AttributeName, AttributeType: 'S' }),
        ),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: old.map((g) => ({
          IndexName: g.indexName,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    const item = { pk: { S: 'keep' }, sk: { S: 'me' } };
    await client.send(new PutItemCommand({ TableName, Item: item }));

    const added = await ensureTable(client, TableName);
    expect(added).toEqual(TABLE.globalSecondaryIndexes.slice(3).map((g) => g.indexName));
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    expect(Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual(
      TABLE.globalSecondaryIndexes.map((g) => g.indexName).sort(),
    );
    expect((await client.send(new GetItemCommand({ TableName, Key: item }))).Item).toEqual(item);
    expect(await ensureTable(client, TableName)).toEqual([]);
  });
});
