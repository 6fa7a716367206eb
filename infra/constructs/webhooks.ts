/**
 * Webhook deliveries in AWS (docs/developer-api.md "Webhooks"; docs/adr/0051-queues.md "Queues",
 * docs/adr/0056-webhooks.md "Webhooks"): the `webhooks` SQS queue with its dead-letter queue and an
 * alarm on the dead-letter queue's depth, and the worker function (functions/webhooks/worker.ts)
 * the queue invokes through an event source mapping with partial batch failures. The queue's
 * settings are shared/queues.ts `QUEUES.webhooks`, the same the local poller uses.
 *
 * The worker calls customers' URLs from outside any VPC, as the render and screenshot
 * functions fetch outside images and pages: what it may reach is decided by the SSRF guard in
 * the code (functions/lib/ssrf.ts), not by the network. Its role reaches the table, the queue
 * (to queue retries), the secrets key (to open endpoint secrets: decrypt only) and its logs.
 */
import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { QUEUES, queueUrlVariable } from '#shared/queues.ts';
import { attachWorker, createWorkQueue, grantSend, type WorkQueue } from './work-queue.ts';
import { HandlerFunction, PROJECT_ROOT, TABLE_READ, TABLE_WRITE } from './handler-function.ts';
import { decryptFor } from './secret-grants.ts';

/**
 * The API features whose code emits webhook events (functions/domain/webhooks.ts
 * `emitWebhookEvent`): designs (saved, published, archived, export generated), billing,
 * stripe-webhook and kiosk (subscription changed, through functions/billing/subscriptions.ts),
 * webhooks (the test event). They get `QUEUE_URL_WEBHOOKS` and may send to the queue.
 */
export const WEBHOOK_EMITTERS = [
  'designs',
  'billing',
  'stripe-webhook',
  'kiosk',
  'webhooks',
] as const;

/** The worker's memory, MB: JSON and one HTTP exchange at a time. */
export const WEBHOOK_WORKER_MEMORY_MB = 256;

export interface WebhooksProps {
  table: dynamodb.ITable;
  /** The key of stored secrets (functions/lib/secrets.ts): the worker opens endpoint secrets. */
  secretsKey: kms.IKey;
  architecture: lambda.Architecture;
}

/** The queue, its dead-letter queue and alarm, and the worker. */
export class Webhooks extends Construct {
  readonly work: WorkQueue;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly worker: HandlerFunction;
  /** Messages in the dead-letter queue: the worker kept failing (not the receivers). */
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const q = QUEUES.webhooks;
    this.work = createWorkQueue(
      this,
      'webhooks',
      'Webhook deliveries reached the dead-letter queue: the worker failed on them (docs/developer-api.md "Webhooks").',
    );
    ({
      queue: this.queue,
      deadLetters: this.deadLetters,
      deadLetterAlarm: this.deadLetterAlarm,
    } = this.work);

    this.worker = new HandlerFunction(this, 'Worker', {
      feature: 'webhooks-worker',
      entry: join(PROJECT_ROOT, 'functions', 'webhooks', 'worker.ts'),
      description: 'PicSnippets webhooks: delivers queued events to the teams’ endpoints',
      architecture: props.architecture,
      memorySize: WEBHOOK_WORKER_MEMORY_MB,
      timeout: Duration.seconds(q.workerTimeoutSeconds),
      externalModules: [],
      layers: [],
      tracing: true,
      environment: {
        TABLE_NAME: props.table.tableName,
        SECRETS_KMS_KEY_ID: props.secretsKey.keyArn,
        [queueUrlVariable('webhooks')]: this.queue.queueUrl,
      },
    });
    // Endpoints, deliveries (written, trimmed), the team and its owner for the disabled mail and
    // the address's suppression: the table, base table only (no index is read).
    this.worker.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [...TABLE_READ, ...TABLE_WRITE].filter(
          (a) => a !== 'dynamodb:Scan' && a !== 'dynamodb:DescribeTable',
        ),
        resources: [props.table.tableArn],
      }),
    );
    // Opening endpoint secrets only; sealing happens in the API (the webhooks feature).
    this.worker.role.addToPrincipalPolicy(decryptFor(props.secretsKey, ['webhook']));
    // Retries are new messages with a delay (functions/webhooks/worker.ts).
    attachWorker(this.work, this.worker);
  }

  /** Lets an API function queue events: `QUEUE_URL_WEBHOOKS` and sqs:SendMessage on the queue. */
  grantEmit(handler: HandlerFunction): void {
    grantSend(this.work, handler);
  }
}
