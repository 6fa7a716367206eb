/**
 * Warm capacity before a send (docs/send-lists.md "Warm capacity before a send"): a send list
 * whose campaign start is known raises the render function's provisioned concurrency for the
 * first window of opens and lowers it afterwards, through two Application Auto Scaling scheduled
 * actions on the render alias. Off unless `WARM_CAPACITY_MAX` is above 0; in offline mode
 * (`WARM_CAPACITY_MODE=offline`, the default outside AWS) it only logs what it would schedule.
 */
import {
  ApplicationAutoScalingClient,
  DeleteScheduledActionCommand,
  PutScheduledActionCommand,
  RegisterScalableTargetCommand,
} from '@aws-sdk/client-application-auto-scaling';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { config, type Config } from '../lib/config.ts';
import { db } from '../lib/db/index.ts';
import { logger } from '../lib/logger.ts';
import { traced } from '../lib/tracing.ts';
import type { JobRecord } from './jobs.ts';

/**
 * The sizing model's defaults (docs/send-lists.md "Warm capacity before a send"). Concurrency
 * by Little's law: opens arriving in the window × the time one render holds a sandbox.
 */
export const WARM_DEFAULTS = {
  /** Share of the list's rows opened in the first window (mail-privacy proxies prefetch at delivery). */
  openShare: 0.3,
  /** The first window of opens after the start, s. */
  windowSeconds: 600,
  /** Time one render holds its sandbox, s (warm draw plus encoding and a margin). */
  drawSeconds: 0.1,
  /** How long before the start the capacity is raised, s (allocation takes minutes). */
  leadSeconds: 900,
} as const;

/** What {@link warmCapacityPlan} decides: the capacity and when it is raised and lowered. */
export interface WarmCapacityPlan {
  /** Provisioned concurrency during the window, sandboxes (1 … the configured maximum). */
  capacity: number;
  /** When it is raised: the start minus the lead time. */
  raiseAt: Date;
  /** When it is lowered back to 0: the start plus the window. */
  lowerAt: Date;
}

/**
 * The warm capacity a send list of `rows` rows starting at `startsAt` asks for.
 * @param rows the list's rows (recipients), ≥ 0.
 * @param startsAt when the campaign goes out.
 * @param max the configured cap (`WARM_CAPACITY_MAX`); 0 turns the feature off.
 * @param now the current time; a start whose window has ended plans nothing.
 * @returns the plan, or undefined when off, when the list is empty or when the window is past.
 */
export function warmCapacityPlan(
  rows: number,
  startsAt: Date,
  max: number,
  now: Date = new Date(),
): WarmCapacityPlan | undefined {
  if (max <= 0 || rows <= 0 || !Number.isFinite(startsAt.getTime())) return undefined;
  const lowerAt = new Date(startsAt.getTime() + WARM_DEFAULTS.windowSeconds * 1000);
  if (lowerAt.getTime() <= now.getTime()) return undefined;
  const opensPerSecond = (rows * WARM_DEFAULTS.openShare) / WARM_DEFAULTS.windowSeconds;
  const needed = Math.ceil(opensPerSecond * WARM_DEFAULTS.drawSeconds);
  const raise = startsAt.getTime() - WARM_DEFAULTS.leadSeconds * 1000;
  return {
    capacity: Math.min(max, Math.max(1, needed)),
    raiseAt: new Date(Math.max(raise, now.getTime())),
    lowerAt,
  };
}

/** The render alias whose provisioned concurrency is scaled. */
export interface RenderAlias {
  functionName: string;
  alias: string;
}

const DIMENSION = 'lambda:function:ProvisionedConcurrency';

/** Application Auto Scaling's `at(…)` schedule of a moment, UTC to the second. */
const atSchedule = (moment: Date): string => `at(${moment.toISOString().slice(0, 19)})`;

/** The names of a send list's two scheduled actions. */
export const warmActionNames = (jobId: string) => ({
  raise: `warm-${jobId}-raise`,
  lower: `warm-${jobId}-lower`,
});

let client: ApplicationAutoScalingClient | undefined;
const scalingClient = (): ApplicationAutoScalingClient => {
  client ??= traced(
    new ApplicationAutoScalingClient({
      region: config().AWS_REGION,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
      maxAttempts: 3,
    }),
  );
  return client;
};

/** Whether the scheduled actions are really set: `WARM_CAPACITY_MODE`, else online in AWS. */
const online = (c: Config): boolean =>
  (c.WARM_CAPACITY_MODE ?? (c.STAGE === 'aws' ? 'online' : 'offline')) === 'online';

/**
 * Schedules the warm capacity of one send list: registers the alias as a scalable target
 * (0 … `WARM_CAPACITY_MAX`), then puts the lower and the raise action, in that order. Offline it
 * logs the plan and calls nothing. Idempotent: the actions are named by the job, so calling it
 * again (a retry after a failure) replaces them (test/unit/warm-capacity.test.ts).
 * @param jobId the send list's job id (names the actions, so a second call replaces them).
 * @returns the plan scheduled (or logged), or undefined when nothing is planned.
 * @throws the SDK's error when Application Auto Scaling refuses a call.
 */
export async function scheduleWarmCapacity(
  jobId: string,
  rows: number,
  startsAt: Date,
  target: RenderAlias,
  now: Date = new Date(),
): Promise<WarmCapacityPlan | undefined> {
  const c = config();
  const plan = warmCapacityPlan(rows, startsAt, c.WARM_CAPACITY_MAX, now);
  if (!plan) return undefined;
  const names = warmActionNames(jobId);
  const resourceId = `function:${target.functionName}:${target.alias}`;
  if (!online(c)) {
    logger.info('warm capacity (offline: not scheduled)', { jobId, resourceId, names, ...plan });
    return plan;
  }
  const common = {
    ServiceNamespace: 'lambda',
    ResourceId: resourceId,
    ScalableDimension: DIMENSION,
  } as const;
  const aas = scalingClient();
  await aas.send(
    new RegisterScalableTargetCommand({
      ...common,
      MinCapacity: 0,
      MaxCapacity: c.WARM_CAPACITY_MAX,
    }),
  );
  // The lower action first: a call that fails between the two leaves at most a lower to 0
  // (harmless), never a raise that nothing lowers. Both names are the job's, so a retry
  // replaces them instead of adding actions.
  await aas.send(
    new PutScheduledActionCommand({
      ...common,
      ScheduledActionName: names.lower,
      Schedule: atSchedule(plan.lowerAt),
      ScalableTargetAction: { MinCapacity: 0, MaxCapacity: 0 },
    }),
  );
  await aas.send(
    new PutScheduledActionCommand({
      ...common,
      ScheduledActionName: names.raise,
      Schedule: atSchedule(plan.raiseAt),
      ScalableTargetAction: { MinCapacity: plan.capacity, MaxCapacity: plan.capacity },
    }),
  );
  return plan;
}

/**
 * Removes a send list's scheduled actions (the list was cancelled). Missing actions are fine.
 * Offline, or with the feature off (`WARM_CAPACITY_MAX` 0: the stack then grants no scaling
 * call), it logs and calls nothing; actions scheduled before the feature was turned off still run
 * (a raise and its lower; docs/send-lists.md "Warm capacity before a send").
 */
export async function cancelWarmCapacity(jobId: string, target: RenderAlias): Promise<void> {
  const c = config();
  const names = warmActionNames(jobId);
  const resourceId = `function:${target.functionName}:${target.alias}`;
  if (!online(c) || c.WARM_CAPACITY_MAX === 0) {
    logger.info('warm capacity cancelled (offline: nothing to delete)', { jobId, resourceId });
    return;
  }
  for (const name of [names.raise, names.lower]) {
    try {
      await scalingClient().send(
        new DeleteScheduledActionCommand({
          ServiceNamespace: 'lambda',
          ResourceId: resourceId,
          ScalableDimension: DIMENSION,
          ScheduledActionName: name,
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name !== 'ObjectNotFoundException') throw error;
    }
  }
}

/** The alias scaled: the render function (`RENDER_FUNCTION_NAME`; locally a stand-in name) at `live`. */
const renderAlias = (): RenderAlias => ({
  functionName: config().RENDER_FUNCTION_NAME ?? 'render',
  alias: 'live',
});

/**
 * Whether the worker still owes a job its warm capacity: a campaign start, the rows counted
 * (`running` or `done`) and no record of a window yet. The record is written only after the
 * actions were put, so a worker that died or failed between counting the rows and scheduling
 * leaves this true, and the next delivery of its `prepare` message schedules
 * (functions/send-lists/worker.ts; test/integration/send-lists-warm.test.ts "a failed scheduling").
 */
export const warmCapacityOwed = (
  job: Pick<JobRecord, 'state' | 'startsAt' | 'warmCapacity'>,
): boolean =>
  job.startsAt !== undefined &&
  job.warmCapacity === undefined &&
  (job.state === 'running' || job.state === 'done');

/**
 * Makes a send list's scheduled warm capacity match its campaign start and rows, and records it
 * on the job (`warmCapacity`, answered as `warm_capacity`) once the actions are put: with a
 * start, rows and the feature on, the actions are put (replacing any earlier ones); with the
 * start cleared, the job cancelled or a window already past, the actions recorded earlier are
 * deleted and the record removed.
 * Called by the worker once the rows are counted and by the API when the start changes or the
 * job is cancelled (docs/send-lists.md "Warm capacity before a send").
 * @param job the job as stored; `state` cancelled or failed removes the capacity.
 * @returns what is now scheduled, or null.
 * @throws the SDK's error when Application Auto Scaling refuses a call, or the table's.
 */
export async function syncWarmCapacity(
  job: Pick<JobRecord, 'jobId' | 'total' | 'state' | 'startsAt' | 'warmCapacity'>,
  now: Date = new Date(),
): Promise<SendListJob['warm_capacity']> {
  const c = config();
  const wanted = job.startsAt !== undefined && job.state !== 'cancelled' && job.state !== 'failed';
  const plan = wanted
    ? await scheduleWarmCapacity(job.jobId, job.total, new Date(job.startsAt!), renderAlias(), now)
    : undefined;
  if (!plan) {
    if (job.warmCapacity !== undefined) {
      await cancelWarmCapacity(job.jobId, renderAlias());
      await db().SendListJob.patch({ jobId: job.jobId }).remove(['warmCapacity']).go();
    }
    return null;
  }
  const record: NonNullable<SendListJob['warm_capacity']> = {
    capacity: plan.capacity,
    raise_at: plan.raiseAt.toISOString(),
    lower_at: plan.lowerAt.toISOString(),
    mode: online(c) ? 'online' : 'offline',
  };
  await db()
    .SendListJob.patch({ jobId: job.jobId })
    .set({ warmCapacity: JSON.stringify(record) })
    .go({ response: 'none' });
  return record;
}
