/**
 * The Athena engine of the analytics roll-up at the SDK's boundary (docs/analytics.md "The
 * roll-up"): the commands it sends (the statement with the hours' partitions, the workgroup),
 * how it waits, how it reads result pages, and how it fails. The SDK's `send` is answered here
 * as Athena answers.
 */
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { describe, expect, it } from 'vitest';
import { athenaLogEngine, athenaSource } from '#functions/analytics-rollup/athena-engine.ts';
import { breakdownSql } from '#functions/analytics/rollup-sql.ts';

/** A sender that answers each command kind from a queue, and records what was sent. */
function recorder(answers: { start?: unknown; states: string[]; pages?: unknown[] }) {
  const sent: object[] = [];
  const states = [...answers.states];
  const pages = [...(answers.pages ?? [])];
  return {
    sent,
    client: {
      async send(command: object): Promise<unknown> {
        sent.push(command);
        if (command instanceof StartQueryExecutionCommand)
          return answers.start ?? { QueryExecutionId: 'q1' };
        if (command instanceof GetQueryExecutionCommand)
          return {
            QueryExecution: {
              Status: { State: states.shift() ?? 'RUNNING', StateChangeReason: 'bad column' },
            },
          };
        if (command instanceof GetQueryResultsCommand) return pages.shift();
        throw new Error('unexpected command');
      },
    },
  };
}

const column = (Name: string, Type: string) => ({ Name, Type });
const row = (...values: string[]) => ({ Data: values.map((VarCharValue) => ({ VarCharValue })) });

describe('athenaLogEngine', () => {
  it('runs the statement over the hours’ partitions in its workgroup and reads every page', async () => {
    const { client, sent } = recorder({
      states: ['QUEUED', 'RUNNING', 'SUCCEEDED'],
      pages: [
        {
          ResultSet: {
            ResultSetMetadata: {
              ColumnInfo: [column('public_id', 'varchar'), column('requests', 'bigint')],
            },
            Rows: [row('public_id', 'requests'), row('pub1', '12')],
          },
          NextToken: 'next',
        },
        { ResultSet: { Rows: [row('pub2', '3')] } },
      ],
    });
    const engine = athenaLogEngine({
      workGroup: 'wg',
      database: 'db_analytics',
      table: 'cdn_log',
      client,
      pollMs: 1,
    });
    const rows = await engine.run<{ public_id: string; requests: number }>(
      (source) => breakdownSql(source, { hour: '2026-11-28T10' }),
      ['2026-11-28T10'],
    );
    expect(rows).toEqual([
      { public_id: 'pub1', requests: 12 },
      { public_id: 'pub2', requests: 3 },
    ]);
    const start = sent[0] as StartQueryExecutionCommand;
    expect(start.input.WorkGroup).toBe('wg');
    expect(start.input.QueryString).toContain(
      `FROM (SELECT * FROM "db_analytics"."cdn_log" WHERE (year = '2026' AND month = '11' AND day = '28' AND hour = '10')) AS logs`,
    );
    expect(sent.filter((c) => c instanceof GetQueryExecutionCommand)).toHaveLength(3);
    expect(sent.filter((c) => c instanceof GetQueryResultsCommand)).toHaveLength(2);
  });

  it('fails with Athena’s reason, and past its time', async () => {
    const failing = athenaLogEngine({
      workGroup: 'wg',
      database: 'd',
      table: 't',
      client: recorder({ states: ['FAILED'] }).client,
      pollMs: 1,
    });
    await expect(failing.run(() => 'SELECT 1', ['2026-11-28T10'])).rejects.toThrow(
      'Athena query q1 FAILED: bad column',
    );
    const slow = athenaLogEngine({
      workGroup: 'wg',
      database: 'd',
      table: 't',
      client: recorder({ states: [] }).client,
      pollMs: 5,
      timeoutMs: 20,
    });
    await expect(slow.run(() => 'SELECT 1', ['2026-11-28T10'])).rejects.toThrow('ran past 20 ms');
  });

  it('writes no hour or name it has not checked into the statement', () => {
    expect(() => athenaSource('db', 't', ["2026-11-28T10' OR 1=1"])).toThrow(RangeError);
    expect(() => athenaSource('db"; DROP', 't', ['2026-11-28T10'])).toThrow(RangeError);
    expect(athenaSource('db', 't', ['2026-11-28T09', '2026-11-28T10'])).toContain(
      "hour = '09') OR (year = '2026'",
    );
  });
});
