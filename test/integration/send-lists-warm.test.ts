/**
 * Warm capacity before a send through the running stack (docs/send-lists.md "Warm capacity
 * before a send"): a send list's campaign start (`starts_at`) is checked (422 in the past or
 * too far ahead), the worker that counts the rows schedules the capacity and the job records the
 * window; changing the start replaces the scheduled actions, clearing it or cancelling the list
 * deletes them; a scheduling that failed is done by the next delivery of the `prepare` message,
 * once. Offline (the local default) the plan is only recorded; online the calls reach
 * Application Auto Scaling, here a mock at the SDK boundary.
 */
import {
  ApplicationAutoScalingClient,
  DeleteScheduledActionCommand,
  PutScheduledActionCommand,
  RegisterScalableTargetCommand,
} from '@aws-sdk/client-application-auto-scaling';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { IDS } from '#infra/local/seed.ts';
import { handler as worker } from '#functions/send-lists/worker.ts';
import { STARTS_AT_MESSAGES, type SendListJob } from '#shared/contract/send-lists.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';
import { signedIn } from '../support/designs.ts';
import type { TestClient } from '../support/client.ts';

const stack = useLocalStack();
const DESIGN = IDS.demoDesign;
const HOUR = 3_600_000;
const base = `/api/pic-snippet/${DESIGN}/send-lists`;
let demo: TestClient;

/** The start `hours` from now, to the second (the schedule's resolution). */
const inHours = (hours: number) =>
  new Date(Math.floor((Date.now() + hours * HOUR) / 1000) * 1000).toISOString();
const shift = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const setEnv = (env: Record<string, string | undefined>) => {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
};

beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  setEnv({ WARM_CAPACITY_MAX: '20' });
});
afterEach(() => setEnv({ WARM_CAPACITY_MODE: undefined }));
afterAll(() => setEnv({ WARM_CAPACITY_MAX: undefined, WARM_CAPACITY_MODE: undefined }));

/** Creates a job with `startsAt`, uploads `rows` rows and starts it. */
async function started(startsAt: string, rows: number): Promise<SendListJob> {
  const csv = `first_name\n${Array.from({ length: rows }, (_, i) => `Warm${Date.now()}x${i}`).join('\n')}\n`;
  const created = await demo.request('POST', base, {
    file_name: 'warm.csv',
    format: 'csv',
    bytes: Buffer.byteLength(csv),
    starts_at: startsAt,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const { job, upload } = created.json as {
    job: SendListJob;
    upload: { url: string; headers: Record<string, string> };
  };
  expect(job.starts_at).toBe(startsAt);
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: csv });
  expect(put.status).toBeLessThan(300);
  const start = await demo.request('POST', `${base}/${job.id}/start`);
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  return (start.json as { job: SendListJob }).job;
}

/** The names of the scheduled actions deleted, in order. */
const deleted = (scaling: AwsClientStub<ApplicationAutoScalingClient>) =>
  scaling
    .commandCalls(DeleteScheduledActionCommand)
    .map((c) => c.args[0].input.ScheduledActionName);

const jobOf = async (jobId: string): Promise<SendListJob> =>
  ((await demo.request('GET', `${base}/${jobId}`)).json as { job: SendListJob }).job;

describe('warm capacity of a send list', () => {
  it('refuses a campaign start in the past, too far ahead or not a time, on the field', async () => {
    const cases: [unknown, string][] = [
      [inHours(-1), STARTS_AT_MESSAGES.past],
      [inHours(31 * 24), STARTS_AT_MESSAGES.far],
      ['next tuesday', STARTS_AT_MESSAGES.format],
    ];
    for (const [startsAt, message] of cases) {
      const res = await demo.request('POST', base, {
        file_name: 'warm.csv',
        format: 'csv',
        bytes: 20,
        starts_at: startsAt,
      });
      expect(res.status).toBe(422);
      expect((res.json as { errors: Record<string, string[]> }).errors.starts_at).toEqual([
        message,
      ]);
    }
  });

  it('records the window the worker scheduled once the rows are counted (offline: logged only)', async () => {
    const startsAt = inHours(2);
    const job = await started(startsAt, 3);
    const done = await pollUntil(
      'warm capacity recorded',
      () => jobOf(job.id),
      (j) => j.state === 'done' && j.warm_capacity !== null,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(done.warm_capacity).toEqual({
      capacity: 1,
      raise_at: shift(startsAt, -15),
      lower_at: shift(startsAt, 10),
      mode: 'offline',
    });
    // A start in the past is refused on a change too, and leaves the job as it was.
    const past = await demo.request('PUT', `${base}/${job.id}/starts-at`, {
      starts_at: inHours(-2),
    });
    expect(past.status).toBe(422);
    expect((await jobOf(job.id)).starts_at).toBe(startsAt);
  });

  it('online: a changed start replaces the actions, a cleared one deletes them', async () => {
    const scaling = mockClient(ApplicationAutoScalingClient);
    try {
      const job = await started(inHours(3), 3);
      await pollUntil(
        'scheduled',
        () => jobOf(job.id),
        (j) => j.state === 'done' && j.warm_capacity !== null,
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      setEnv({ WARM_CAPACITY_MODE: 'online' });
      scaling.resetHistory();
      const later = inHours(5);
      const moved = await demo.request('PUT', `${base}/${job.id}/starts-at`, {
        starts_at: later,
      });
      expect(moved.status, JSON.stringify(moved.json)).toBe(200);
      expect((moved.json as { job: SendListJob }).job).toMatchObject({
        starts_at: later,
        warm_capacity: { capacity: 1, raise_at: shift(later, -15), mode: 'online' },
      });
      expect(
        scaling
          .commandCalls(PutScheduledActionCommand)
          .map((c) => [c.args[0].input.ScheduledActionName, c.args[0].input.Schedule]),
      ).toEqual([
        [`warm-${job.id}-lower`, `at(${shift(later, 10).slice(0, 19)})`],
        [`warm-${job.id}-raise`, `at(${shift(later, -15).slice(0, 19)})`],
      ]);
      const cleared = await demo.request('PUT', `${base}/${job.id}/starts-at`, {
        starts_at: null,
      });
      expect(cleared.status).toBe(200);
      expect((cleared.json as { job: SendListJob }).job).toMatchObject({
        starts_at: null,
        warm_capacity: null,
      });
      expect(deleted(scaling)).toEqual([`warm-${job.id}-raise`, `warm-${job.id}-lower`]);
    } finally {
      scaling.restore();
    }
  });

  it('online: a failed scheduling is done by the next delivery, once, with no duplicate action', async () => {
    const scaling = mockClient(ApplicationAutoScalingClient);
    setEnv({ WARM_CAPACITY_MODE: 'online' });
    // Application Auto Scaling as a store of actions by name; the first raise is refused.
    const actions = new Map<string, string>();
    let refusals = 0;
    scaling
      .on(PutScheduledActionCommand)
      .callsFake((input: { ScheduledActionName: string; Schedule: string }) => {
        if (input.ScheduledActionName.endsWith('-raise') && refusals === 0) {
          refusals += 1;
          throw Object.assign(new Error('Rate exceeded'), { name: 'ConcurrentUpdateException' });
        }
        actions.set(input.ScheduledActionName, input.Schedule);
        return {};
      });
    try {
      const startsAt = inHours(6);
      const job = await started(startsAt, 3);
      // The rows counted and rendered, the window not recorded: the message failed.
      const counted = await pollUntil(
        'rows rendered, scheduling refused',
        () => jobOf(job.id),
        (j) => j.state === 'done' && refusals === 1,
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(counted.warm_capacity).toBeNull();
      // SQS delivers the failed `prepare` again (here at once, not after its visibility timeout).
      const prepare = { kind: 'prepare', jobId: job.id };
      const again = await worker({
        Records: [{ messageId: 'again', body: JSON.stringify(prepare) }],
      } as never);
      expect(again.batchItemFailures).toEqual([]);
      expect((await jobOf(job.id)).warm_capacity).toMatchObject({ capacity: 1, mode: 'online' });
      expect(Object.fromEntries(actions)).toEqual({
        [`warm-${job.id}-lower`]: `at(${shift(startsAt, 10).slice(0, 19)})`,
        [`warm-${job.id}-raise`]: `at(${shift(startsAt, -15).slice(0, 19)})`,
      });
      // Once scheduled, a further delivery calls nothing.
      const calls = scaling.calls().length;
      await worker({ Records: [{ messageId: 'third', body: JSON.stringify(prepare) }] } as never);
      expect(scaling.calls()).toHaveLength(calls);
      expect(scaling.commandCalls(RegisterScalableTargetCommand)).toHaveLength(2);
    } finally {
      scaling.restore();
    }
  }, 120_000);

  it('online: cancelling a list deletes its scheduled actions', async () => {
    const scaling = mockClient(ApplicationAutoScalingClient);
    setEnv({ WARM_CAPACITY_MODE: 'online' });
    try {
      const job = await started(inHours(4), 300);
      await pollUntil(
        'scheduled while rendering',
        () => jobOf(job.id),
        (j) => j.warm_capacity !== null,
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      expect(scaling.commandCalls(PutScheduledActionCommand)).toHaveLength(2);
      const cancel = await demo.request('POST', `${base}/${job.id}/cancel`);
      expect(cancel.status, JSON.stringify(cancel.json)).toBe(200);
      expect((cancel.json as { job: SendListJob }).job.warm_capacity).toBeNull();
      expect(deleted(scaling)).toEqual([`warm-${job.id}-raise`, `warm-${job.id}-lower`]);
    } finally {
      scaling.restore();
    }
  }, 120_000);
});
