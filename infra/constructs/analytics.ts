/**
 * Campaign analytics in AWS (docs/analytics.md "The source of truth", "The roll-up"):
 * - CloudFront's standard logging (v2) delivers the distribution's access log to the logs bucket
 *   as Parquet under `cdn/{yyyy}/{MM}/{dd}/{HH}/` (a CloudWatch Logs delivery source, destination
 *   and delivery), with the fields the roll-up reads ({@link CDN_LOG_RECORD_FIELDS});
 * - a Glue table over those files with partition projection (no crawler, no partition upkeep)
 *   and an Athena workgroup whose results stay a day and whose statements scan at most
 *   {@link ROLLUP_SCAN_LIMIT_BYTES};
 * - the `analytics-rollup` function, which an EventBridge Scheduler schedule invokes every hour
 *   ({@link ROLLUP_SCHEDULE}), reading the log through Athena and writing `DesignAnalytics` items
 *   only (its partitions, by a LeadingKeys condition).
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { CDN_LOG_FIELDS } from '#functions/analytics/cdn-log.ts';
import { TABLE } from '#shared/resources.ts';
import { HandlerFunction } from './handler-function.ts';

/** The log's prefix in the logs bucket (the roll-up's `CDN_LOGS_PREFIX` locally). */
export const CDN_LOG_V2_PREFIX = 'cdn/';
/** Athena's results under the logs bucket; kept a day (the roll-up reads them at once). */
export const ATHENA_RESULTS_PREFIX = 'athena-results/';
/** Bytes one roll-up statement may scan before Athena cancels it (10 GiB: ~a day of a large campaign). */
export const ROLLUP_SCAN_LIMIT_BYTES = 10 * 1024 ** 3;
/** Every hour at minute 20: CloudFront has delivered most of the hour before by then. */
export const ROLLUP_SCHEDULE = { minute: '20' } as const;
export const ROLLUP_TIMEOUT = Duration.minutes(10);
export const ROLLUP_MEMORY_MB = 512;

/**
 * CloudFront's names of the fields delivered (in the delivery's order); in Parquet they become
 * the roll-up's column names (`cs-uri-stem` → `cs_uri_stem`, `cs(User-Agent)` → `cs_user_agent`).
 */
export const CDN_LOG_RECORD_FIELDS = [
  'date',
  'time',
  'cs-method',
  'cs-uri-stem',
  'cs-uri-query',
  'cs(User-Agent)',
  'sc-status',
  'x-edge-result-type',
  'c-country',
] as const;

export interface AnalyticsProps {
  table: dynamodb.ITable;
  logsBucket: s3.IBucket;
  /** The distribution whose access log is delivered. */
  distributionArn: string;
}

/** The log delivery, the Athena table and workgroup, and the hourly roll-up function. */
export class Analytics extends Construct {
  readonly handler: HandlerFunction;
  readonly workGroup: athena.CfnWorkGroup;
  readonly database: glue.CfnDatabase;
  readonly logTable: glue.CfnTable;
  readonly delivery: logs.CfnDelivery;

  constructor(scope: Construct, id: string, props: AnalyticsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const bucket = props.logsBucket;

    // Standard logging (v2): a delivery from the distribution to the logs bucket, as Parquet.
    const source = new logs.CfnDeliverySource(this, 'LogSource', {
      name: `${stack.stackName}-cdn`.slice(0, 60),
      logType: 'ACCESS_LOGS',
      resourceArn: props.distributionArn,
    });
    const destination = new logs.CfnDeliveryDestination(this, 'LogDestination', {
      name: `${stack.stackName}-cdn-s3`.slice(0, 60),
      destinationResourceArn: bucket.bucketArn,
      outputFormat: 'parquet',
    });
    this.delivery = new logs.CfnDelivery(this, 'LogDelivery', {
      deliverySourceName: source.ref,
      deliveryDestinationArn: destination.attrArn,
      recordFields: [...CDN_LOG_RECORD_FIELDS],
      s3SuffixPath: `${CDN_LOG_V2_PREFIX}{yyyy}/{MM}/{dd}/{HH}`,
      s3EnableHiveCompatiblePath: false,
    });
    this.delivery.addDependency(source);
    this.delivery.addDependency(destination);
    // The log delivery service writes into the bucket, for this account's deliveries only.
    bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('delivery.logs.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [bucket.arnForObjects(`${CDN_LOG_V2_PREFIX}*`)],
        conditions: {
          StringEquals: {
            's3:x-amz-acl': 'bucket-owner-full-control',
            'aws:SourceAccount': stack.account,
          },
          ArnLike: {
            'aws:SourceArn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:delivery-source:*`,
          },
        },
      }),
    );

    // The table over the Parquet files: every field a string, partitions projected from the path.
    this.database = new glue.CfnDatabase(this, 'Database', {
      catalogId: stack.account,
      databaseInput: {
        name: `${stack.stackName.toLowerCase().replace(/[^a-z0-9]/g, '_')}_analytics`,
        description: 'PicSnippets: the CDN access log of render URLs (docs/analytics.md)',
      },
    });
    const databaseName = this.database.ref;
    this.logTable = new glue.CfnTable(this, 'LogTable', {
      catalogId: stack.account,
      databaseName,
      tableInput: {
        name: 'cdn_log',
        tableType: 'EXTERNAL_TABLE',
        parameters: {
          classification: 'parquet',
          'projection.enabled': 'true',
          'projection.year.type': 'integer',
          'projection.year.range': '2025,2100',
          'projection.month.type': 'integer',
          'projection.month.range': '1,12',
          'projection.month.digits': '2',
          'projection.day.type': 'integer',
          'projection.day.range': '1,31',
          'projection.day.digits': '2',
          'projection.hour.type': 'integer',
          'projection.hour.range': '0,23',
          'projection.hour.digits': '2',
          'storage.location.template': `s3://${bucket.bucketName}/${CDN_LOG_V2_PREFIX}\${year}/\${month}/\${day}/\${hour}/`,
        },
        partitionKeys: ['year', 'month', 'day', 'hour'].map((name) => ({ name, type: 'string' })),
        storageDescriptor: {
          location: `s3://${bucket.bucketName}/${CDN_LOG_V2_PREFIX}`,
          columns: CDN_LOG_FIELDS.map((name) => ({ name, type: 'string' })),
          inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
          serdeInfo: {
            serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
          },
        },
      },
    });
    this.logTable.addDependency(this.database);

    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: `${stack.stackName}-analytics`,
      description: 'PicSnippets: the hourly analytics roll-up (docs/analytics.md)',
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: ROLLUP_SCAN_LIMIT_BYTES,
        resultConfiguration: {
          outputLocation: `s3://${bucket.bucketName}/${ATHENA_RESULTS_PREFIX}`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });

    this.handler = new HandlerFunction(this, 'Function', {
      feature: 'analytics-rollup',
      description: 'PicSnippets analytics: rolls the CDN log up into per-design counts, hourly',
      architecture: lambda.Architecture.ARM_64,
      memorySize: ROLLUP_MEMORY_MB,
      timeout: ROLLUP_TIMEOUT,
      externalModules: [],
      layers: [],
      environment: {
        TABLE_NAME: props.table.tableName,
        ANALYTICS_WORKGROUP: this.workGroup.ref,
        ANALYTICS_DATABASE: databaseName,
        ANALYTICS_TABLE: 'cdn_log',
      },
    });
    const role = this.handler.role;
    const workGroupArn = stack.formatArn({
      service: 'athena',
      resource: 'workgroup',
      resourceName: this.workGroup.ref,
    });
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'athena:StartQueryExecution',
          'athena:GetQueryExecution',
          'athena:GetQueryResults',
        ],
        resources: [workGroupArn],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'],
        resources: [
          stack.formatArn({ service: 'glue', resource: 'catalog' }),
          stack.formatArn({ service: 'glue', resource: 'database', resourceName: databaseName }),
          stack.formatArn({
            service: 'glue',
            resource: 'table',
            resourceName: `${databaseName}/cdn_log`,
          }),
        ],
      }),
    );
    // Athena reads the log and writes its results with the caller's credentials.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects(`${CDN_LOG_V2_PREFIX}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'],
        resources: [bucket.arnForObjects(`${ATHENA_RESULTS_PREFIX}*`)],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket', 's3:GetBucketLocation'],
        resources: [bucket.bucketArn],
        conditions: {
          StringLike: { 's3:prefix': [`${CDN_LOG_V2_PREFIX}*`, `${ATHENA_RESULTS_PREFIX}*`] },
        },
      }),
    );
    // DynamoDB: the designs by public id (gsi2) to name each design, and its own items only.
    const gsi2 = TABLE.globalSecondaryIndexes[1]!.indexName;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [`${props.table.tableArn}/index/${gsi2}`],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        // Its own items: the roll-ups written, and the optimised splits read back and reweighed
        // (functions/analytics/split-weights.ts).
        actions: [
          'dynamodb:PutItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:GetItem',
          'dynamodb:Query',
        ],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['$picsnippets#analyticsdesign_*'] },
        },
      }),
    );
    const bucketId = stack.getLogicalId(bucket.node.defaultChild as CfnBucket);
    for (const prefix of [CDN_LOG_V2_PREFIX, ATHENA_RESULTS_PREFIX]) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}*]`,
        reason: `The objects under ${prefix} of the logs bucket only (the CDN log, Athena's results).`,
      });
    }

    const invoker = new iam.Role(this, 'SchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: 'PicSnippets analytics: lets the hourly schedule invoke the roll-up function',
    });
    const fnId = stack.getLogicalId(this.handler.fn.node.defaultChild as lambda.CfnFunction);
    Validations.of(invoker).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${fnId}.Arn>:*]`,
      reason:
        'lambda:InvokeFunction on the roll-up function and its versions or aliases (`:*`), ' +
        'which Lambda grants together; no other function.',
    });
    new scheduler.Schedule(this, 'Hourly', {
      description: 'PicSnippets analytics: the hourly roll-up of the CDN log (docs/analytics.md)',
      schedule: scheduler.ScheduleExpression.cron(ROLLUP_SCHEDULE),
      target: new targets.LambdaInvoke(this.handler.fn, {
        role: invoker,
        retryAttempts: 2,
        maxEventAge: Duration.hours(1),
      }),
    });
  }
}
