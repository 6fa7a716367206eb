/**
 * A worker's SQS queue, as every queue of the stack is built (docs/adr/0051-queues.md "Queues"):
 * the queue with server-side encryption and TLS only, its dead-letter queue, an alarm as soon as
 * one message reaches the dead-letter queue, and the worker attached through an event source
 * mapping with partial batch failures. The settings come from shared/queues.ts `QUEUES`, the same
 * the local poller (infra/local/queue-poller.ts) uses.
 *
 * The parts are created in the caller's scope under fixed ids (`DeadLetters`, `Queue`,
 * `DeadLettersAlarm`), so the CloudFormation logical ids of the send-list and webhook queues are
 * the ones they had before this helper existed (test/infra/stack.test.ts).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { QUEUES, queueUrlVariable, type QueueName } from '#shared/queues.ts';
import type { HandlerFunction } from './handler-function.ts';

/** Messages kept by a queue and its dead-letter queue, days (SQS's longest). */
const RETENTION = Duration.days(14);

/** A queue with its dead-letter queue and the alarm on it. */
export interface WorkQueue {
  name: QueueName;
  queue: sqs.Queue;
  deadLetters: sqs.Queue;
  /** One or more messages in the dead-letter queue over 5 minutes. */
  deadLetterAlarm: cloudwatch.Alarm;
}

/**
 * Creates the queue `name` in `scope`. `alarmDescription` says what a dead letter means for
 * the feature (what stays undone, where its docs are).
 */
export function createWorkQueue(
  scope: Construct,
  name: QueueName,
  alarmDescription: string,
): WorkQueue {
  const q = QUEUES[name];
  const deadLetters = new sqs.Queue(scope, 'DeadLetters', {
    retentionPeriod: RETENTION,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const queue = new sqs.Queue(scope, 'Queue', {
    visibilityTimeout: Duration.seconds(q.visibilityTimeoutSeconds),
    retentionPeriod: RETENTION,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount: q.maxReceiveCount },
  });
  const deadLetterAlarm = new cloudwatch.Alarm(scope, 'DeadLettersAlarm', {
    alarmDescription,
    metric: deadLetters.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  return { name, queue, deadLetters, deadLetterAlarm };
}

/**
 * Lets `handler` send to the queue: its `QUEUE_URL_…` variable (shared/queues.ts
 * `queueUrlVariable`) and sqs:SendMessage on the queue.
 */
export function grantSend(work: WorkQueue, handler: HandlerFunction): void {
  handler.fn.addEnvironment(queueUrlVariable(work.name), work.queue.queueUrl);
  allowSend(work, handler);
}

/**
 * Makes `worker` the queue's consumer: an event source mapping with partial batch failures, at
 * most `QUEUES[name].maxConcurrency` workers at once (at least 2, SQS's floor) so a burst cannot
 * take the account's concurrency from live renders; and the worker may queue messages itself
 * (retries, further chunks).
 */
export function attachWorker(work: WorkQueue, worker: HandlerFunction): void {
  const q = QUEUES[work.name];
  allowSend(work, worker);
  worker.fn.addEventSource(
    new SqsEventSource(work.queue, {
      batchSize: q.batchSize,
      reportBatchItemFailures: true,
      maxConcurrency: Math.max(2, q.maxConcurrency),
    }),
  );
}

function allowSend(work: WorkQueue, handler: HandlerFunction): void {
  handler.role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [work.queue.queueArn] }),
  );
}
