/**
 * Warm capacity before a send (docs/send-lists.md "Warm capacity before a send"): the sizing, the
 * cap, and the scheduled actions sent to Application Auto Scaling (at the SDK boundary).
 */
import {
  ApplicationAutoScalingClient,
  DeleteScheduledActionCommand,
  PutScheduledActionCommand,
  RegisterScalableTargetCommand,
} from '@aws-sdk/client-application-auto-scaling';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import {
  cancelWarmCapacity,
  scheduleWarmCapacity,
  warmCapacityPlan,
} from '#functions/send-lists/warm-capacity.ts';

const target = { functionName: 'pic-render', alias: 'live' };
const start = new Date('2026-12-01T09:00:00.000Z');
const before = new Date('2026-12-01T06:00:00.000Z');
const scaling = mockClient(ApplicationAutoScalingClient);

beforeEach(() => {
  scaling.reset();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

const configure = (max: string, mode: string): void => {
  vi.stubEnv('WARM_CAPACITY_MAX', max);
  vi.stubEnv('WARM_CAPACITY_MODE', mode);
  resetConfig();
};

describe('warmCapacityPlan', () => {
  it('sizes 200,000 rows to 10 sandboxes: 30 % open in 10 minutes at 0.1 s a render', () => {
    const plan = warmCapacityPlan(200_000, start, 100, before);
    expect(plan).toEqual({
      capacity: 10,
      raiseAt: new Date('2026-12-01T08:45:00.000Z'),
      lowerAt: new Date('2026-12-01T09:10:00.000Z'),
    });
  });

  it('is capped by the configured maximum and off at 0', () => {
    expect(warmCapacityPlan(10_000_000, start, 25, before)?.capacity).toBe(25);
    expect(warmCapacityPlan(10_000_000, start, 0, before)).toBeUndefined();
  });

  it('asks for at least one sandbox, nothing for an empty list or a past window', () => {
    expect(warmCapacityPlan(10, start, 5, before)?.capacity).toBe(1);
    expect(warmCapacityPlan(0, start, 5, before)).toBeUndefined();
    expect(warmCapacityPlan(10, start, 5, new Date('2026-12-01T09:11:00Z'))).toBeUndefined();
  });

  it('raises now when the start is closer than the lead time', () => {
    const now = new Date('2026-12-01T08:55:00.000Z');
    expect(warmCapacityPlan(10, start, 5, now)?.raiseAt).toEqual(now);
  });
});

describe('scheduleWarmCapacity', () => {
  it('registers the render alias and puts a raise and a lower action', async () => {
    configure('50', 'online');
    await scheduleWarmCapacity('job1', 200_000, start, target, before);
    const common = {
      ServiceNamespace: 'lambda',
      ResourceId: 'function:pic-render:live',
      ScalableDimension: 'lambda:function:ProvisionedConcurrency',
    };
    expect(scaling.commandCalls(RegisterScalableTargetCommand).map((c) => c.args[0].input)).toEqual(
      [{ ...common, MinCapacity: 0, MaxCapacity: 50 }],
    );
    // The lower first: a failure between the two never leaves a raise that nothing lowers.
    expect(scaling.commandCalls(PutScheduledActionCommand).map((c) => c.args[0].input)).toEqual([
      {
        ...common,
        ScheduledActionName: 'warm-job1-lower',
        Schedule: 'at(2026-12-01T09:10:00)',
        ScalableTargetAction: { MinCapacity: 0, MaxCapacity: 0 },
      },
      {
        ...common,
        ScheduledActionName: 'warm-job1-raise',
        Schedule: 'at(2026-12-01T08:45:00)',
        ScalableTargetAction: { MinCapacity: 10, MaxCapacity: 10 },
      },
    ]);
  });

  it('leaves no raise without its lower when a call fails, and a retry replaces, never adds', async () => {
    configure('50', 'online');
    // Application Auto Scaling as a store of actions by name (a put replaces one of the same name).
    const actions = new Map<string, string>();
    let refuse = true;
    scaling
      .on(PutScheduledActionCommand)
      .callsFake((input: { ScheduledActionName: string; Schedule: string }) => {
        if (input.ScheduledActionName.endsWith('-raise') && refuse) {
          refuse = false;
          throw Object.assign(new Error('throttled'), { name: 'ConcurrentUpdateException' });
        }
        actions.set(input.ScheduledActionName, input.Schedule);
        return {};
      });
    await expect(scheduleWarmCapacity('job1', 200_000, start, target, before)).rejects.toThrow(
      'throttled',
    );
    expect([...actions.keys()]).toEqual(['warm-job1-lower']);
    await scheduleWarmCapacity('job1', 200_000, start, target, before);
    expect(Object.fromEntries(actions)).toEqual({
      'warm-job1-lower': 'at(2026-12-01T09:10:00)',
      'warm-job1-raise': 'at(2026-12-01T08:45:00)',
    });
  });

  it('calls nothing offline or when off', async () => {
    configure('50', 'offline');
    expect((await scheduleWarmCapacity('job1', 200_000, start, target, before))?.capacity).toBe(10);
    configure('0', 'online');
    expect(await scheduleWarmCapacity('job1', 200_000, start, target, before)).toBeUndefined();
    expect(scaling.calls()).toHaveLength(0);
  });

  it('calls nothing on cancel once the feature is off (the stack grants no scaling call then)', async () => {
    configure('0', 'online');
    await cancelWarmCapacity('job1', target);
    expect(scaling.calls()).toHaveLength(0);
  });

  it('deletes both actions on cancel, a missing one being fine', async () => {
    configure('50', 'online');
    scaling
      .on(DeleteScheduledActionCommand, { ScheduledActionName: 'warm-job1-raise' })
      .rejects(Object.assign(new Error('gone'), { name: 'ObjectNotFoundException' }));
    await cancelWarmCapacity('job1', target);
    expect(
      scaling
        .commandCalls(DeleteScheduledActionCommand)
        .map((c) => c.args[0].input.ScheduledActionName),
    ).toEqual(['warm-job1-raise', 'warm-job1-lower']);
  });
});
