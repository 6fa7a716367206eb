/**
 * `npm start`'s DynamoDB Local, when its process dies (infra/local/services.ts
 * `superviseDynamo`; docs/operations.md "First start"): it is started again on the same port
 * with its data on disk, one line saying so; after three restarts within ten minutes the next
 * death is fatal, and the caller stops the stack.
 *
 * @own-stack: kills DynamoDB Local processes of its own; no stack.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startDynamo, superviseDynamo } from '#infra/local/services.ts';
import { pollUntil } from '../support/stack.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A supervised DynamoDB Local on disk, and the lines it reported. */
async function supervised(stopping?: () => boolean) {
  const path = await mkdtemp(join(tmpdir(), 'dynamo-supervisor-'));
  dirs.push(path);
  const port = await freePort();
  const lines: Array<{ line: string; fatal: boolean }> = [];
  const first = await startDynamo({ path, port });
  const watch = superviseDynamo(first, { path, port, stopping }, (line, fatal) =>
    lines.push({ line, fatal }),
  );
  const client = new DynamoDBClient({
    endpoint: first.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return { watch, lines, client, endpoint: first.endpoint };
}

/** Kills the current DynamoDB Local as a crash would, and waits for the report of it. */
async function crash(s: Awaited<ReturnType<typeof supervised>>, reports: number) {
  process.kill(s.watch.current().pid!, 'SIGKILL');
  await pollUntil(
    `report ${reports}`,
    async () => s.lines.length,
    (n) => n >= reports,
    { timeoutMs: 60_000 },
  );
}

describe('a DynamoDB Local that dies under npm start', () => {
  it('is started again on the same port, its tables kept, with a line for each step', async () => {
    const s = await supervised();
    try {
      await s.client.send(
        new CreateTableCommand({
          TableName: 'kept',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
      );
      await crash(s, 2);
      expect(s.lines).toEqual([
        { line: 'DynamoDB Local stopped (signal SIGKILL); starting it again…', fatal: false },
        { line: 'DynamoDB Local is running again; the data on disk is kept.', fatal: false },
      ]);
      expect(s.watch.current().endpoint).toBe(s.endpoint);
      const tables = await s.client.send(new ListTablesCommand({}));
      expect(tables.TableNames).toEqual(['kept']);
    } finally {
      await s.watch.stop();
    }
    // Stopped on purpose: no line.
    expect(s.lines).toHaveLength(2);
  });

  it('takes a Ctrl-C that reaches it and the stack together for the stop: no line, no restart', async () => {
    // The terminal signals DynamoDB Local first; the stack's own stop begins a moment later.
    let stopping = false;
    const s = await supervised(() => stopping);
    try {
      const first = s.watch.current();
      process.kill(first.pid!, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 50));
      stopping = true;
      await first.died;
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(s.lines).toEqual([]);
      expect(s.watch.current()).toBe(first);
    } finally {
      await s.watch.stop();
    }
  });

  it('gives up, fatally, on the fourth death within ten minutes', async () => {
    const s = await supervised();
    try {
      for (let death = 1; death <= 3; death++) await crash(s, death * 2);
      expect(s.lines.every((l) => !l.fatal)).toBe(true);
      await crash(s, 7);
      expect(s.lines[6]).toEqual({
        line: 'DynamoDB Local stopped (signal SIGKILL), 4 times in 10 minutes: stopping.',
        fatal: true,
      });
    } finally {
      await s.watch.stop();
    }
  });
});

describe('two stacks given the same port', () => {
  // Mutation check: without the tables check in startDynamo, the second start returned the
  // first one's endpoint as its own, and the two stacks shared one database.
  it('does not take another in-memory database for its own', async () => {
    const first = await startDynamo();
    try {
      const client = new DynamoDBClient({
        endpoint: first.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 1,
      });
      await client.send(
        new CreateTableCommand({
          TableName: 'theirs',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
      );
      client.destroy();
      const port = Number(new URL(first.endpoint).port);
      await expect(startDynamo({ port })).rejects.toThrow(
        'another database answered on each port tried (1)',
      );
    } finally {
      await first.stop();
    }
  });
});
