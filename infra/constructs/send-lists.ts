/**
 * Send lists in AWS (docs/send-lists.md; docs/adr/0051-queues.md "Queues"): the `send-list` SQS
 * queue with its dead-letter queue and an alarm on the dead-letter queue's depth, and the worker
 * (functions/send-lists/worker.ts) the queue invokes through an event source mapping with partial
 * batch failures. The worker renders through the render function's own code, so it is built like it
 * (the browser layer, the render page, x86_64, the render's memory), with reserved concurrency so a
 * campaign's list cannot take the account's concurrency, or the table's and S3's throughput, from
 * live renders. The queue's settings are shared/queues.ts `QUEUES['send-list']`, the same the local
 * poller uses.
 *
 * A message that failed every receive reaches the dead-letter queue, whose own consumer
 * (functions/send-lists/dead-letters.ts, a small function without the browser) gives its rows
 * up so the job ends `failed` instead of running for ever (docs/send-lists.md "States").
 */
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, queueUrlVariable } from '#shared/queues.ts';
import { attachWorker, createWorkQueue, grantSend, type WorkQueue } from './work-queue.ts';
import {
  HandlerFunction,
  PROJECT_ROOT,
  TABLE_READ,
  TABLE_WRITE,
  grantBucket,
  grantBucketPrefixes,
  grantTable,
} from './handler-function.ts';
import { lambdaArchitecture } from './node-modules-layer.ts';
import {
  CHROMIUM_ARCH,
  RENDER_BUDGET_MS,
  RENDER_EPHEMERAL_STORAGE_MB,
  RENDER_EXTERNAL_MODULES,
  RENDER_MEMORY_MB,
  RENDER_PAGE_BUNDLING,
  RENDER_WRITES,
  RENDER_USAGE,
} from './render.ts';

/** The dead-letter consumer's memory, MB: a few table writes per message. */
const DEAD_LETTER_WORKER_MEMORY_MB = 256;
/** The dead-letter consumer's timeout, s: a batch of 10 messages' reads and writes; at most the dead-letter queue's visibility timeout (30 s), as SQS requires. */
const DEAD_LETTER_WORKER_TIMEOUT_SECONDS = 30;

/** Where send-list files, chunks and results live in the assets bucket. */
export const SEND_LIST_PREFIX = 'send-lists/';

/**
 * Days a send-list file (upload, chunks, result CSVs) is kept: a job's own retention (30 days,
 * functions/send-lists/jobs.ts `JOB_RETENTION_SECONDS`; docs/send-lists.md "Known limits").
 */
export const SEND_LIST_FILE_DAYS = 30;

export interface SendListsProps {
  table: dynamodb.ITable;
  assets: s3.Bucket;
  renders: s3.Bucket;
  /** The render function's browser layer (@sparticuz/chromium, puppeteer-core, sharp). */
  browserLayer: lambda.ILayerVersion;
  fontCdnUrl?: string;
}

/** The queue, its dead-letter queue and alarm, and the worker. */
/**
 * The partition of a send-list job and of its chunk cursors
 * (functions/lib/db/entities-send-lists.ts: both keyed by `jobId`), as a `dynamodb:LeadingKeys`
 * pattern.
 */
export const SEND_LIST_JOB_LEADING_KEY = '$picsnippets#jobid_*';

export class SendLists extends Construct {
  readonly work: WorkQueue;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly worker: HandlerFunction;
  /** The dead-letter queue's consumer: ends the jobs of messages given up. */
  readonly deadLetterWorker: HandlerFunction;
  /** Messages in the dead-letter queue: a chunk kept failing (docs/send-lists.md). */
  readonly deadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: SendListsProps) {
    super(scope, id);
    const q = QUEUES['send-list'];
    this.work = createWorkQueue(
      this,
      'send-list',
      'Send-list messages reached the dead-letter queue: their rows stay pending (docs/send-lists.md).',
    );
    ({
      queue: this.queue,
      deadLetters: this.deadLetters,
      deadLetterAlarm: this.deadLetterAlarm,
    } = this.work);

    this.worker = new HandlerFunction(this, 'Worker', {
      feature: 'send-lists-worker',
      entry: join(PROJECT_ROOT, 'functions', 'send-lists', 'worker.ts'),
      description: 'PicSnippets send lists: pre-renders the rows of an uploaded list',
      architecture: lambdaArchitecture(CHROMIUM_ARCH),
      memorySize: RENDER_MEMORY_MB,
      timeout: Duration.seconds(q.workerTimeoutSeconds),
      ephemeralStorageSize: RENDER_EPHEMERAL_STORAGE_MB,
      reservedConcurrentExecutions: q.maxConcurrency,
      tracing: true,
      externalModules: RENDER_EXTERNAL_MODULES,
      layers: [props.browserLayer],
      environment: {
        TABLE_NAME: props.table.tableName,
        ASSETS_BUCKET: props.assets.bucketName,
        RENDERS_BUCKET: props.renders.bucketName,
        RENDER_TIMEOUT_MS: String(RENDER_BUDGET_MS),
        [queueUrlVariable('send-list')]: this.queue.queueUrl,
        ...(props.fontCdnUrl === undefined ? {} : { FONT_CDN_URL: props.fontCdnUrl }),
      },
      commandHooks: RENDER_PAGE_BUNDLING,
    });
    const role = this.worker.role;
    // Reads: jobs, chunk cursors, the design, team and plan (base table and the indexes the
    // render reads). Writes: only its jobs and their chunk cursors (one partition per job) and
    // the teams' month usage. It draws the same hostile content as the render, so like the
    // render's its writes are cut to those partitions (docs/security.md "Open-time content").
    grantTable(
      role,
      props.table,
      TABLE_READ.filter((a) => a !== 'dynamodb:Scan'),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [SEND_LIST_JOB_LEADING_KEY, RENDER_USAGE.leadingKey],
          },
        },
      }),
    );
    // What a render reads and writes (render.ts RENDER_WRITES), and the lists' own files.
    grantBucket(role, props.renders, 'list');
    grantBucketPrefixes(role, props.renders, RENDER_WRITES.renders);
    grantBucket(role, props.assets, 'read');
    grantBucketPrefixes(
      role,
      props.assets,
      [...RENDER_WRITES.assets, SEND_LIST_PREFIX],
      ['s3:PutObject'],
    );
    // A file's chunks are queued by the worker that read it.
    attachWorker(this.work, this.worker);

    this.deadLetterWorker = new HandlerFunction(this, 'DeadLetterWorker', {
      feature: 'send-lists-dead-letters',
      entry: join(PROJECT_ROOT, 'functions', 'send-lists', 'dead-letters.ts'),
      description: 'PicSnippets send lists: ends the jobs of rows the worker gave up',
      architecture: lambdaArchitecture(CHROMIUM_ARCH),
      memorySize: DEAD_LETTER_WORKER_MEMORY_MB,
      timeout: Duration.seconds(DEAD_LETTER_WORKER_TIMEOUT_SECONDS),
      externalModules: [],
      layers: [],
      tracing: true,
      environment: {
        TABLE_NAME: props.table.tableName,
        ASSETS_BUCKET: props.assets.bucketName,
      },
    });
    // The job and the chunk's cursor (one transaction), base table only; the chunk's rows for
    // their line numbers.
    this.deadLetterWorker.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [...TABLE_READ, ...TABLE_WRITE].filter(
          (a) => a !== 'dynamodb:Scan' && a !== 'dynamodb:DescribeTable',
        ),
        resources: [props.table.tableArn],
      }),
    );
    grantBucketPrefixes(
      this.deadLetterWorker.role,
      props.assets,
      [SEND_LIST_PREFIX],
      ['s3:GetObject'],
    );
    this.deadLetterWorker.fn.addEventSource(
      new SqsEventSource(this.deadLetters, { batchSize: 10, reportBatchItemFailures: true }),
    );

    // A list's files go with its job; the versioned bucket's old versions a day after, not
    // after the bucket's usual 90 days: a list names recipients (docs/send-lists.md).
    props.assets.addLifecycleRule({
      id: 'SendListFiles',
      prefix: SEND_LIST_PREFIX,
      expiration: Duration.days(SEND_LIST_FILE_DAYS),
      noncurrentVersionExpiration: Duration.days(1),
    });
  }

  /** Lets the API's send-lists function start jobs: `QUEUE_URL_SEND_LIST` and sqs:SendMessage. */
  grantStart(handler: HandlerFunction): void {
    grantSend(this.work, handler);
  }
}
