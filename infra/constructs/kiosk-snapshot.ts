/**
 * The kiosk's daily snapshot in AWS (docs/kiosk.md "Metrics and the daily snapshot" kiosk
 * indicators): an EventBridge Scheduler schedule invokes the `kiosk-snapshot` function
 * (functions/kiosk-snapshot/handler.ts) once a day, {@link SNAPSHOT_SCHEDULE} UTC. The job is
 * idempotent per day, so the scheduler's retries and a manual invocation are harmless.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { TABLE } from '#shared/resources.ts';
import { HandlerFunction } from './handler-function.ts';

/** When the job runs: 00:05 UTC, once the day it snapshots has ended. */
export const SNAPSHOT_SCHEDULE = { minute: '5', hour: '0' } as const;
/** MB: two table scans (users, subscriptions) held in memory at admin scale. */
export const SNAPSHOT_MEMORY_MB = 512;
/** Scans of a large table take a while; well inside Lambda's 15 minutes. */
export const SNAPSHOT_TIMEOUT = Duration.minutes(2);
/** The scheduler's retries of a failed invocation, within {@link SNAPSHOT_MAX_EVENT_AGE}. */
export const SNAPSHOT_RETRY_ATTEMPTS = 3;
export const SNAPSHOT_MAX_EVENT_AGE = Duration.hours(6);

export interface KioskSnapshotProps {
  table: dynamodb.ITable;
}

/** The snapshot function, its least-privilege grants and its daily schedule. */
export class KioskSnapshot extends Construct {
  readonly handler: HandlerFunction;
  readonly schedule: scheduler.Schedule;

  constructor(scope: Construct, id: string, props: KioskSnapshotProps) {
    super(scope, id);
    this.handler = new HandlerFunction(this, 'Function', {
      feature: 'kiosk-snapshot',
      description: 'PicSnippets kiosk: stores the day that ended as a performance snapshot',
      architecture: lambda.Architecture.ARM_64,
      memorySize: SNAPSHOT_MEMORY_MB,
      timeout: SNAPSHOT_TIMEOUT,
      externalModules: [],
      layers: [],
      environment: { TABLE_NAME: props.table.tableName },
    });
    // Reads: users and subscriptions (scans), snapshots (query), plans (query on gsi1). Writes:
    // new snapshots only (a conditional PutItem). Nothing else, no bucket.
    const gsi1 = TABLE.globalSecondaryIndexes[0]!.indexName;
    this.handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query', 'dynamodb:Scan'],
        resources: [props.table.tableArn, `${props.table.tableArn}/index/${gsi1}`],
      }),
    );
    this.handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }),
    );

    // The scheduler's own role: it may invoke this function only. Lambda's grantInvoke also
    // names `<function>:*` (its versions and aliases), which cdk-nag reads as a wildcard.
    const invoker = new iam.Role(this, 'SchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: 'PicSnippets kiosk: lets the daily schedule invoke the snapshot function',
    });
    const fnId = Stack.of(this).getLogicalId(
      this.handler.fn.node.defaultChild as lambda.CfnFunction,
    );
    Validations.of(invoker).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${fnId}.Arn>:*]`,
      reason:
        'lambda:InvokeFunction on the snapshot function and its versions or aliases ' +
        '(`:*`), which Lambda grants together; no other function.',
    });
    this.schedule = new scheduler.Schedule(this, 'Daily', {
      description: 'PicSnippets kiosk: the daily performance snapshot (docs/kiosk.md)',
      // No time zone given: the scheduler's cron runs in UTC.
      schedule: scheduler.ScheduleExpression.cron(SNAPSHOT_SCHEDULE),
      target: new targets.LambdaInvoke(this.handler.fn, {
        role: invoker,
        retryAttempts: SNAPSHOT_RETRY_ATTEMPTS,
        maxEventAge: SNAPSHOT_MAX_EVENT_AGE,
      }),
    });
  }
}
