/**
 * What every PicSnippets Lambda has in common (docs/infra.md "What the stack creates";
 * docs/infra.md): one `functions/<feature>/handler.ts` entry bundled by esbuild as an ES module for
 * Node.js 24, its own role with no AWS-managed policy (cdk-nag AwsSolutions-IAM4), its own log
 * group with a retention, and least-privilege grants written out action by action (no `s3:*`, no
 * `…/index/*`), so that the only wildcard left is the object key in a bucket ARN.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Size, Stack, Validations, type Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Feature } from '#shared/routes.ts';
import { TABLE } from '#shared/resources.ts';

/** The repository root (holds package.json, package-lock.json, node_modules, functions/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Node.js 24, the version the project pins (package.json `engines`, `node` devDependency). */
export const RUNTIME = lambda.Runtime.NODEJS_24_X;

/** How long Lambda logs are kept. */
export const LOG_RETENTION = logs.RetentionDays.THREE_MONTHS;

/**
 * Functions that serve no HTTP route, invoked by another function: `screenshot` opens
 * user-chosen pages for the render function, apart from it (docs/security.md "Screenshot
 * pages"); `render-notices` tells a team's owner of its render quota in-app and by e-mail,
 * invoked asynchronously by the render function, whose role may do neither (docs/security.md
 * "Render limits").
 */
export const INTERNAL_FUNCTIONS = ['screenshot', 'render-notices'] as const;
/**
 * Functions started by an AWS event, not by a route or another function: `mail-events` takes
 * SES's bounces and complaints from SNS (infra/constructs/email.ts; docs/infra.md "E-mail"). Built
 * only when the stage sends mail. `kiosk-snapshot` stores the kiosk's daily indicators when
 * an EventBridge Scheduler schedule invokes it (infra/constructs/kiosk-snapshot.ts;
 * docs/kiosk.md "Metrics and the daily snapshot"). `webhooks-worker` delivers webhook events from
 * the `webhooks` SQS queue (infra/constructs/webhooks.ts; its entry is
 * functions/webhooks/worker.ts).
 */
export const EVENT_FUNCTIONS = [
  'mail-events',
  'kiosk-snapshot',
  'webhooks-worker',
  // Pre-renders send lists from the `send-list` queue (infra/constructs/send-lists.ts; its entry
  // is functions/send-lists/worker.ts).
  'send-lists-worker',
  // Gives up the send-list messages that reached the dead-letter queue, so their jobs end
  // (infra/constructs/send-lists.ts; its entry is functions/send-lists/dead-letters.ts).
  'send-lists-dead-letters',
  // Invalidates a team's render URLs again after a watermark or plan change, from the
  // `render-invalidations` queue (infra/constructs/render-invalidations.ts; its entry is
  // functions/designs/render-invalidation-worker.ts).
  'render-invalidations-worker',
  // Rolls up campaign analytics from the CloudFront log through Athena, every hour
  // (infra/constructs/analytics.ts; docs/analytics.md "The roll-up").
  'analytics-rollup',
] as const;
export type FunctionFeature =
  Feature | (typeof INTERNAL_FUNCTIONS)[number] | (typeof EVENT_FUNCTIONS)[number];

/** The handler entry of a feature: `functions/<feature>/handler.ts` (docs/infra.md "What the stack creates"). */
export const entryOf = (feature: FunctionFeature): string =>
  join(PROJECT_ROOT, 'functions', feature, 'handler.ts');

export interface HandlerFunctionProps {
  feature: FunctionFeature;
  /** The entry file, when it is not `functions/<feature>/handler.ts` (a queue worker). */
  entry?: string;
  description: string;
  architecture: lambda.Architecture;
  /** MB. */
  memorySize: number;
  timeout: Duration;
  /** Packages left out of the bundle; they must come from `layers`. */
  externalModules: string[];
  layers: lambda.ILayerVersion[];
  environment: Record<string, string>;
  /** MB of /tmp; default 512. */
  ephemeralStorageSize?: number;
  commandHooks?: nodejs.ICommandHooks;
  /**
   * X-Ray active tracing (docs/infra.md "Observability"): the API and render functions trace;
   * the screenshot function, whose role reaches only its logs, does not.
   */
  tracing?: boolean;
  /** Concurrent executions reserved (and so at most), for a queue worker; default none. */
  reservedConcurrentExecutions?: number;
  /**
   * A container image instead of the bundled zip (the render function's option:
   * infra/constructs/render.ts `renderImageCode`): the image holds the code and what
   * `externalModules` and `layers` would give, so those and `commandHooks` are not used.
   */
  image?: lambda.DockerImageCode;
}

/**
 * One feature's Lambda: `NodejsFunction` from `functions/<feature>/handler.ts`, export `handler`,
 * ES module output (`index.mjs`), minified with source maps, the AWS SDK bundled (the versions the
 * tests ran, not whatever the runtime ships), env `FEATURE=<feature>` and `STAGE=aws`.
 * @throws Error when the entry file does not exist.
 */
export class HandlerFunction extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly feature: FunctionFeature;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    this.feature = props.feature;
    const entry = props.entry ?? entryOf(props.feature);
    if (!existsSync(entry)) {
      throw new Error(
        `Missing Lambda entry ${entry}: each feature needs functions/<feature>/handler.ts exporting handler.`,
      );
    }
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: LOG_RETENTION });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `PicSnippets ${props.feature} Lambda`,
    });
    logGroup.grantWrite(this.role);

    const environment = {
      STAGE: 'aws',
      FEATURE: props.feature,
      NODE_OPTIONS: '--enable-source-maps',
      ...props.environment,
    };
    const common = {
      description: props.description,
      architecture: props.architecture,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ephemeralStorageSize:
        props.ephemeralStorageSize === undefined
          ? undefined
          : Size.mebibytes(props.ephemeralStorageSize),
      role: this.role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : undefined,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment,
    };
    this.fn = props.image
      ? new lambda.DockerImageFunction(this, 'Function', { ...common, code: props.image })
      : this.bundled(props, entry, common);
    if (props.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords have no ' +
          'resource-level permissions, so AWS requires the resource *.',
      });
    }
  }

  /** The zip: `entry` bundled by esbuild (see the class comment). */
  private bundled(
    props: HandlerFunctionProps,
    entry: string,
    common: Omit<nodejs.NodejsFunctionProps, 'entry'>,
  ): nodejs.NodejsFunction {
    return new nodejs.NodejsFunction(this, 'Function', {
      ...common,
      entry,
      handler: 'handler',
      runtime: RUNTIME,
      layers: props.layers,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: {
        format: nodejs.OutputFormat.ESM,
        mainFields: ['module', 'main'],
        // CommonJS dependencies bundled into an ES module still call require() for builtins.
        banner:
          "import { createRequire as __picsnippetsCreateRequire } from 'node:module'; const require = __picsnippetsCreateRequire(import.meta.url);",
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        externalModules: props.externalModules,
        commandHooks: props.commandHooks,
      },
    });
  }
}

/** Table actions by intent; transactions need the per-item actions they contain. */
export const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
] as const;
export const TABLE_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/**
 * Grants `actions` on the table and on each GSI of TABLE by name (no `index/*` wildcard).
 */
export function grantTable(
  role: iam.IRole,
  table: dynamodb.ITable,
  actions: readonly string[],
): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: [...actions],
      resources: [
        table.tableArn,
        ...TABLE.globalSecondaryIndexes.map((i) => `${table.tableArn}/index/${i.indexName}`),
      ],
    }),
  );
}

export type BucketAccess = 'list' | 'read' | 'readwrite' | 'readput';

/**
 * Grants `s3:PutObject` (and `s3:GetObject`) under the given key prefixes of one bucket only,
 * e.g. `renders/` of the render cache: a role that writes nothing else there. Each prefix's
 * trailing wildcard is acknowledged for cdk-nag on this role.
 * @param prefixes key prefixes ending in `/`
 */
export function grantBucketPrefixes(
  role: iam.Role,
  bucket: s3.Bucket,
  prefixes: readonly string[],
  actions: readonly string[] = ['s3:GetObject', 's3:PutObject'],
): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: [...actions],
      resources: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
    }),
  );
  const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  for (const prefix of prefixes) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/${prefix}*]`,
      reason:
        `Keys under ${prefix} in the ${bucket.node.id} bucket are made at run time (design ids, ` +
        `hashes); the grant is that prefix only, for ${actions.join(', ')}.`,
    });
  }
}

/**
 * Grants access to one bucket: `list` = ListBucket only (HeadBucket, listings); `read` adds
 * GetObject (ListBucket makes a missing key a 404, not a 403); `readput` adds PutObject;
 * `readwrite` adds DeleteObject and AbortMultipartUpload. The object resource `<bucket>/*` is
 * the one wildcard IAM needs (keys are created at run time from team and design ids); it is
 * acknowledged for cdk-nag here, on this role and for this bucket only.
 */
export function grantBucket(role: iam.Role, bucket: s3.Bucket, access: BucketAccess): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
  );
  if (access === 'list') return;
  const objectActions = ['s3:GetObject'];
  if (access !== 'read') objectActions.push('s3:PutObject');
  if (access === 'readwrite') objectActions.push('s3:DeleteObject', 's3:AbortMultipartUpload');
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: objectActions, resources: [bucket.arnForObjects('*')] }),
  );
  const logicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/*]`,
    reason:
      `Object keys in the ${bucket.node.id} bucket are created at run time (team, design and ` +
      `upload ids); the grant is limited to that one bucket and to ${objectActions.join(', ')}.`,
  });
}
