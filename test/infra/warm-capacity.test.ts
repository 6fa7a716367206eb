/**
 * Warm capacity before a send in the synthesised stack (docs/send-lists.md "Warm capacity before
 * a send"; docs/infra.md "Warm capacity"): off by default, when no function may scale the render
 * alias; `-c warmCapacityMax=N` hands the cap to the send-lists API function and the send-list
 * worker with exactly the scaling calls each makes, on the render alias only; a bad value stops
 * synth.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WARM_CAPACITY_MAX_LIMIT } from '#infra/stack.ts';
import { functionGrants } from './permissions.ts';
import { synthesise, type Resources } from './synth.ts';

const off = synthesise();
const on = synthesise({ warmCapacityMax: '20' });
afterAll(() => {
  off.remove();
  on.remove();
});

/** A function's environment by its `FEATURE`. */
function environment(resources: Resources, feature: string): Record<string, unknown> {
  const found = Object.values(resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map(
      (r) =>
        (r.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
          ?.Variables ?? {},
    )
    .filter((v) => v.FEATURE === feature);
  expect(found, feature).toHaveLength(1);
  return found[0]!;
}

/** Every granted action of a function that names scaling, provisioned concurrency or roles. */
const scalingGrants = (resources: Resources, feature: string): string[] =>
  (functionGrants(resources)[feature]?.iam ?? []).filter((line) =>
    /application-autoscaling:|ProvisionedConcurrency|iam:CreateServiceLinkedRole/.test(line),
  );

const ALIAS_ONLY =
  'lambda:DeleteProvisionedConcurrencyConfig,lambda:GetProvisionedConcurrencyConfig,lambda:PutProvisionedConcurrencyConfig @ RenderLiveAlias';

describe('warm capacity in the stack', () => {
  it('is off by default: no cap, no render name and no scaling grant for any function', () => {
    for (const feature of Object.keys(functionGrants(off.resources))) {
      expect(scalingGrants(off.resources, feature), feature).toEqual([]);
      const env = environment(off.resources, feature);
      expect(env.WARM_CAPACITY_MAX, feature).toBeUndefined();
    }
    expect(environment(off.resources, 'send-lists-worker').RENDER_FUNCTION_NAME).toBeUndefined();
  });

  it('hands the cap and the render function to the two functions that schedule, and no other', () => {
    const told = Object.keys(functionGrants(on.resources)).filter(
      (feature) => environment(on.resources, feature).WARM_CAPACITY_MAX !== undefined,
    );
    expect(told.sort()).toEqual(['send-lists', 'send-lists-worker']);
    for (const feature of told) {
      const env = environment(on.resources, feature);
      expect(env.WARM_CAPACITY_MAX).toBe('20');
      // The render function's own name (its `live` alias is scaled), in AWS mode (online).
      expect(JSON.stringify(env.RENDER_FUNCTION_NAME)).toMatch(/"Ref":"RenderHandlerFunction/);
      expect(env.STAGE).toBe('aws');
      expect(env.WARM_CAPACITY_MODE).toBeUndefined();
    }
  });

  it('grants the worker only registering and putting actions, the API function deleting too, on the alias only', () => {
    const grants = (feature: string) =>
      scalingGrants(on.resources, feature).map((line) =>
        // X-Ray's actions share the `*` statement (CDK merges statements of one resource).
        line.replace(/,xray:PutTelemetryRecords,xray:PutTraceSegments/, ''),
      );
    expect(grants('send-lists-worker')).toEqual([
      'application-autoscaling:PutScheduledAction,application-autoscaling:RegisterScalableTarget @ *',
      'iam:CreateServiceLinkedRole @ ',
      ALIAS_ONLY,
    ]);
    expect(grants('send-lists')).toEqual([
      'application-autoscaling:DeleteScheduledAction,application-autoscaling:PutScheduledAction,application-autoscaling:RegisterScalableTarget @ *',
      'iam:CreateServiceLinkedRole @ ',
      ALIAS_ONLY,
    ]);
    for (const feature of Object.keys(functionGrants(on.resources)))
      if (feature !== 'send-lists' && feature !== 'send-lists-worker')
        expect(scalingGrants(on.resources, feature), feature).toEqual([]);
  });

  it('lets the service-linked role be created for Lambda scaling only', () => {
    const statements = Object.values(on.resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap(
        (r) => (r.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
      )
      .filter((st) => st.Action === 'iam:CreateServiceLinkedRole');
    expect(statements).toHaveLength(2);
    for (const st of statements) {
      expect(st.Condition).toEqual({
        StringLike: { 'iam:AWSServiceName': 'lambda.application-autoscaling.amazonaws.com' },
      });
      expect(JSON.stringify(st.Resource)).toContain(
        'aws-service-role/lambda.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_LambdaConcurrency',
      );
    }
  });

  it('refuses a cap that is not a whole number in range, or above the reserved concurrency', () => {
    for (const bad of ['-1', '2.5', 'lots', String(WARM_CAPACITY_MAX_LIMIT + 1), true])
      expect(() => synthesise({ warmCapacityMax: bad }), String(bad)).toThrow(
        /warmCapacityMax must be a whole number from 0/,
      );
    expect(() => synthesise({ warmCapacityMax: '50', renderConcurrency: '20' })).toThrow(
      /must not exceed renderConcurrency/,
    );
  });

  it('leaves cdk-nag nothing unacknowledged when on', () => {
    const report = JSON.parse(readFileSync(join(on.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { ruleName: string }[] }[];
    };
    expect(report.pluginReports.flatMap((p) => p.violations.map((v) => v.ruleName))).toEqual([]);
  });

  it('reads 0 as off', () => {
    const zero = synthesise({ warmCapacityMax: '0' });
    try {
      expect(environment(zero.resources, 'send-lists-worker').WARM_CAPACITY_MAX).toBeUndefined();
      expect(scalingGrants(zero.resources, 'send-lists-worker')).toEqual([]);
    } finally {
      zero.remove();
    }
  });
});
