/**
 * The second CDN invalidation after a team's watermark or plan changes (docs/adr/0057-watermark.md
 * "Watermark", its "CDN" point; docs/adr/0051-queues.md "Queues"): the `render-invalidations` SQS
 * queue with its dead-letter queue and an alarm on the dead-letter queue's depth, and the worker
 * (functions/designs/render-invalidation-worker.ts) the queue invokes through an event source
 * mapping with partial batch failures. Its role reads the team's design lists (the table and
 * its indexes, no scan) and may invalidate the one distribution; nothing else. The queue's
 * settings are shared/queues.ts `QUEUES['render-invalidations']`, the same the local poller uses.
 */
import { Duration } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { QUEUES } from '#shared/queues.ts';
import { attachWorker, createWorkQueue, grantSend, type WorkQueue } from './work-queue.ts';
import { HandlerFunction, PROJECT_ROOT, grantTable } from './handler-function.ts';

/**
 * The API features whose code changes a team's watermark or plan (functions/teams/watermark.ts,
 * functions/billing/subscriptions.ts `syncTeam`, reached from registration, billing, the Stripe
 * webhook and the kiosk). They invalidate at once (api.ts `INVALIDATING_FEATURES`) and queue
 * the second pass.
 */
export const RENDER_INVALIDATORS = ['teams', 'auth', 'billing', 'stripe-webhook', 'kiosk'] as const;

export interface RenderInvalidationsProps {
  table: dynamodb.ITable;
  architecture: lambda.Architecture;
}

/** The queue, its dead-letter queue and alarm, and the worker. */
export class RenderInvalidations extends Construct {
  readonly work: WorkQueue;
  readonly worker: HandlerFunction;
  /** Messages in the dead-letter queue: a team's renders were not invalidated the second time. */
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: RenderInvalidationsProps) {
    super(scope, id);
    this.work = createWorkQueue(
      this,
      'render-invalidations',
      'Second CDN invalidations after a watermark or plan change reached the dead-letter queue: the edge may show the old mark (docs/adr/0057-watermark.md "Watermark").',
    );
    this.deadLetterAlarm = this.work.deadLetterAlarm;
    this.worker = new HandlerFunction(this, 'Worker', {
      feature: 'render-invalidations-worker',
      entry: join(PROJECT_ROOT, 'functions', 'designs', 'render-invalidation-worker.ts'),
      description:
        'PicSnippets: invalidates a team’s render URLs again after a watermark or plan change',
      architecture: props.architecture,
      memorySize: 256,
      timeout: Duration.seconds(QUEUES['render-invalidations'].workerTimeoutSeconds),
      externalModules: [],
      layers: [],
      tracing: true,
      environment: { TABLE_NAME: props.table.tableName },
    });
    // The team's design lists (an index query) and the designs' documents; no scan, no write.
    grantTable(this.worker.role, props.table, ['dynamodb:GetItem', 'dynamodb:Query']);
    attachWorker(this.work, this.worker);
  }

  /** Gives the worker the distribution it invalidates (built after this construct's users). */
  connectDistribution(distribution: cloudfront.IDistribution): void {
    this.worker.fn.addEnvironment('DISTRIBUTION_ID', distribution.distributionId);
    distribution.grantCreateInvalidation(this.worker.role);
  }

  /** Lets an API function queue second passes: its queue URL and sqs:SendMessage on the queue. */
  grantQueue(handler: HandlerFunction): void {
    grantSend(this.work, handler);
  }
}
