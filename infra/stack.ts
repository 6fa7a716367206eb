/**
 * PicSnippetsStack: the product on AWS, one construct per concern composed in one stack
 * (docs/infra.md "What the stack creates", "one construct
 * per concern"). `createApp` builds the app with cdk-nag's AwsSolutions pack for both `cdk synth`
 * (infra/app.ts) and the tests (test/infra).
 */
import {
  App,
  CfnOutput,
  RemovalPolicy,
  Stack,
  Tags,
  Validations,
  type AppProps,
  type StackProps,
} from 'aws-cdk-lib';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as kms from 'aws-cdk-lib/aws-kms';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { FONTSOURCE_CDN_URL, fontCdnSource } from '#shared/security.ts';
import { Api, DEFAULT_SECRETS_PREFIX } from './constructs/api.ts';
import { Data } from './constructs/data.ts';
import { Email, MAILING_FEATURES } from './constructs/email.ts';
import { KioskSnapshot } from './constructs/kiosk-snapshot.ts';
import { Analytics } from './constructs/analytics.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { PROJECT_ROOT } from './constructs/handler-function.ts';
import { installedSharpArchitectures, type CpuArch } from './constructs/node-modules-layer.ts';
import { Render } from './constructs/render.ts';
import { Web, allowBrowserUploads, type CustomDomain } from './constructs/web.ts';
import { SendLists } from './constructs/send-lists.ts';
import { RENDER_INVALIDATORS, RenderInvalidations } from './constructs/render-invalidations.ts';
import { WEBHOOK_EMITTERS, Webhooks } from './constructs/webhooks.ts';
import { decryptFor } from './constructs/secret-grants.ts';

/**
 * The stack's region. CloudFront takes its WebACL (scope CLOUDFRONT) and its ACM certificate
 * only from us-east-1, so the whole stack lives there and needs no second stack or
 * cross-region references; the edge serves every region anyway.
 */
export const STACK_REGION = 'us-east-1';

export interface PicSnippetsStackProps extends StackProps {
  /** Optional custom domain (context `domainNames` comma-separated + `certificateArn`). */
  domain?: CustomDomain;
  /**
   * CPU of the API Lambdas; by default ARM64 when sharp's linux-arm64 binary is installed, else
   * x64 (node-modules-layer.ts `installedSharpArchitectures`).
   */
  apiArch?: CpuArch;
  /**
   * The fontsource CDN's font files base (`FONT_CDN_URL` of the render and fonts functions,
   * allowed in the SPA's `font-src`); default {@link FONTSOURCE_CDN_URL}; `null` serves the
   * hosted families only (docs/fonts.md "Configuration"). Context `fontCdnUrl` (empty: none).
   */
  fontCdnUrl?: string | null;
  /** Where alarm e-mails go (context `alarmEmail`); absent, alarms notify no one by e-mail. */
  alarmEmail?: string;
  /** The stage (context `stage`); default {@link DEFAULT_STAGE}. Names the secrets' SSM path. */
  stage?: string;
  /**
   * The SES sending domain (context `mailDomain`, docs/infra.md "E-mail"); absent, the stage
   * sends no mail (`MAIL_TRANSPORT=off`: the mailing functions log what they would send).
   */
  mailDomain?: string;
  /** The sender on {@link mailDomain} (context `mailFrom`); default `PicSnippets <no-reply@…>`. */
  mailFrom?: string;
  /**
   * Reserved concurrency of the render function (context `renderConcurrency`, a whole number
   * from 1 to 10,000; docs/infra.md "Render concurrency"); absent, none is reserved.
   */
  renderConcurrency?: number;
  /**
   * Warm capacity before a send (context `warmCapacityMax`, a whole number from 0 to 1,000;
   * docs/send-lists.md "Warm capacity before a send"): the most provisioned concurrency one send
   * list may schedule on the render alias. 0 or absent: off, and no function may scale it.
   */
  warmCapacityMax?: number;
}

/** The highest `warmCapacityMax` (functions/lib/config.ts `WARM_CAPACITY_MAX`'s bound). */
export const WARM_CAPACITY_MAX_LIMIT = 1_000;

/** The stage a deploy without `-c stage=` makes: the stack keeps its historical name. */
export const DEFAULT_STAGE = 'prod';

/** A stage name: lower case letters, digits and dashes, at most 16 (it goes into resource names). */
const STAGE_NAME = /^[a-z][a-z0-9-]{0,15}$/;

/**
 * The stack name of a stage: `PicSnippetsStack` for {@link DEFAULT_STAGE}, else
 * `PicSnippetsStack-{stage}`. Every resource of the stack is named from it by CloudFormation, so
 * two stages share nothing (docs/infra.md "Stages").
 * @throws Error for a stage name that is not lower case letters, digits and dashes.
 */
export function stackNameOf(stage: string = DEFAULT_STAGE): string {
  if (!STAGE_NAME.test(stage)) {
    throw new Error(`Stage "${stage}": use lower case letters, digits and dashes (at most 16).`);
  }
  return stage === DEFAULT_STAGE ? 'PicSnippetsStack' : `PicSnippetsStack-${stage}`;
}

/** The SSM path of a stage's secrets: `/picsnippets` for the default stage, else `/picsnippets/{stage}`. */
export function secretsPrefixOf(stage: string = DEFAULT_STAGE): string {
  return stage === DEFAULT_STAGE ? DEFAULT_SECRETS_PREFIX : `${DEFAULT_SECRETS_PREFIX}/${stage}`;
}

/**
 * Picks the API Lambdas' CPU from the sharp binaries in node_modules: ARM64 (cheaper per ms) when
 * `@img/sharp-linux-arm64` is installed, else x64. docs/infra.md "Architectures".
 * @throws Error when no Linux sharp binary is installed at all.
 */
export function chooseApiArch(projectRoot: string = PROJECT_ROOT): CpuArch {
  const installed = installedSharpArchitectures(projectRoot);
  if (installed.includes('arm64')) return 'arm64';
  if (installed.includes('x64')) return 'x64';
  throw new Error(
    'No Linux build of sharp in node_modules (@img/sharp-linux-x64 or -arm64). ' +
      'Run `npm install --os=linux --cpu=arm64 sharp` (or --cpu=x64) before synth.',
  );
}

/** The whole product: data, render service, API and edge. */
export class PicSnippetsStack extends Stack {
  readonly data: Data;
  readonly render: Render;
  readonly api: Api;
  readonly web: Web;
  readonly monitoring: Monitoring;
  /** The kiosk's daily snapshot: a scheduled function (docs/kiosk.md). */
  readonly kioskSnapshot: KioskSnapshot;
  /** The CDN log's delivery, Athena table and the hourly roll-up (docs/analytics.md). */
  readonly analytics: Analytics;
  /** SES, bounce handling and send grants; absent without a mail domain. */
  readonly email?: Email;
  /** The webhooks queue and its delivery worker (docs/developer-api.md "Webhooks"). */
  readonly webhooks: Webhooks;
  readonly sendLists: SendLists;
  /** The second CDN invalidation after a watermark or plan change (docs/adr/0057-watermark.md "Watermark"). */
  readonly renderInvalidations: RenderInvalidations;

  constructor(scope: Construct, id: string, props: PicSnippetsStackProps = {}) {
    super(scope, id, {
      description: 'PicSnippets: personalised images (SPA, API, render service)',
      ...props,
      env: { account: props.env?.account, region: STACK_REGION },
    });
    Tags.of(this).add('project', 'picsnippets');
    Tags.of(this).add('stage', props.stage ?? DEFAULT_STAGE);
    const fontCdnUrl = props.fontCdnUrl === undefined ? FONTSOURCE_CDN_URL : props.fontCdnUrl;
    if (fontCdnUrl !== null) fontCdnSource(fontCdnUrl); // refuses a base the CSP cannot hold

    this.data = new Data(this, 'Data');
    this.render = new Render(this, 'Render', {
      table: this.data.table,
      assets: this.data.buckets.assets,
      renders: this.data.buckets.renders,
      ...(props.domain === undefined ? {} : { publicUrl: `https://${props.domain.names[0]}` }),
      ...(fontCdnUrl === null ? {} : { fontCdnUrl }),
      ...(props.renderConcurrency === undefined
        ? {}
        : { reservedConcurrency: props.renderConcurrency }),
    });
    // Provider secrets (merge-tag credentials, Keap tokens): envelope encryption under this key
    // (functions/lib/secrets.ts). Kept when the stack goes: stored secrets would not open again.
    const secretsKey = new kms.Key(this, 'SecretsKey', {
      description: 'PicSnippets: data keys of stored provider secrets (merge-tag credentials)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.api = new Api(this, 'Api', {
      table: this.data.table,
      assets: this.data.buckets.assets,
      renders: this.data.buckets.renders,
      arch: props.apiArch ?? chooseApiArch(),
      secretsKey,
      secretsPrefix: secretsPrefixOf(props.stage),
      ...(fontCdnUrl === null ? {} : { fontCdnUrl }),
    });
    this.web = new Web(this, 'Web', {
      webBucket: this.data.buckets.web,
      assetsBucket: this.data.buckets.assets,
      logsBucket: this.data.logsBucket,
      httpApi: this.api.httpApi,
      originVerifySecret: this.api.originVerifySecret,
      render: this.render,
      ...(props.domain === undefined ? {} : { domain: props.domain }),
      ...(fontCdnUrl === null ? {} : { fontCdnUrl }),
    });
    this.api.connectDistribution(this.web.distribution, this.web.publicUrl);
    allowBrowserUploads(this.data.buckets.assets, props.domain);
    this.render.openSigningSecrets(secretsKey);
    this.kioskSnapshot = new KioskSnapshot(this, 'KioskSnapshot', { table: this.data.table });
    this.analytics = new Analytics(this, 'Analytics', {
      table: this.data.table,
      logsBucket: this.data.logsBucket,
      distributionArn: this.formatArn({
        service: 'cloudfront',
        region: '',
        resource: 'distribution',
        resourceName: this.web.distribution.distributionId,
      }),
    });
    this.webhooks = new Webhooks(this, 'Webhooks', {
      table: this.data.table,
      secretsKey,
      architecture: this.api.functions.webhooks.fn.architecture,
    });
    for (const feature of WEBHOOK_EMITTERS) this.webhooks.grantEmit(this.api.functions[feature]);
    this.webhooks.worker.fn.addEnvironment('PUBLIC_URL', this.web.publicUrl);
    // Send lists (docs/send-lists.md): the queue, its worker, and the API function that starts
    // jobs; the worker also tells the team's webhooks when a job ends.
    this.sendLists = new SendLists(this, 'SendLists', {
      table: this.data.table,
      assets: this.data.buckets.assets,
      renders: this.data.buckets.renders,
      browserLayer: this.render.browserLayer,
      ...(fontCdnUrl === null ? {} : { fontCdnUrl }),
    });
    this.sendLists.grantStart(this.api.functions['send-lists']);
    // The editor's live-crop preview opens pages in the screenshot function, never in its own.
    this.render.grantScreenshots(this.api.functions.designs);
    // A list's campaign start schedules warm capacity on the render alias: the worker once it
    // counted the rows, the API when the start changes or the list is cancelled
    // (docs/send-lists.md "Warm capacity before a send"). Only when the deploy turns it on
    // (`-c warmCapacityMax=N`): off, neither function may scale anything.
    if (props.warmCapacityMax !== undefined && props.warmCapacityMax > 0) {
      this.render.grantWarmCapacity(this.api.functions['send-lists'], props.warmCapacityMax, true);
      this.render.grantWarmCapacity(this.sendLists.worker, props.warmCapacityMax, false);
    }
    // Its rows draw with the render code: screenshot pages and quota notices go where a
    // render sends them, never into the worker's own process.
    this.render.grantRenderHelpers(this.sendLists.worker);
    this.sendLists.worker.fn.addEnvironment('PUBLIC_URL', this.web.publicUrl);
    // A design that requires signed URLs gets its rows' URLs signed (docs/send-lists.md).
    this.sendLists.worker.fn.addEnvironment('SECRETS_KMS_KEY_ID', secretsKey.keyArn);
    // Its rows draw with the render code, data lookups included (web APIs' secret headers).
    this.sendLists.worker.role.addToPrincipalPolicy(
      decryptFor(secretsKey, ['render-signing', 'web-api']),
    );
    this.webhooks.grantEmit(this.sendLists.worker);
    // A job whose rows were given up ends, and its team's webhooks hear of it.
    this.webhooks.grantEmit(this.sendLists.deadLetterWorker);
    // A watermark or plan change invalidates the team's renders at once and again once the
    // render has forgotten the old settings (docs/adr/0057-watermark.md "Watermark").
    this.renderInvalidations = new RenderInvalidations(this, 'RenderInvalidations', {
      table: this.data.table,
      architecture: this.api.functions.teams.fn.architecture,
    });
    this.renderInvalidations.connectDistribution(this.web.distribution);
    for (const feature of RENDER_INVALIDATORS)
      this.renderInvalidations.grantQueue(this.api.functions[feature]);
    if (props.mailDomain) {
      this.email = new Email(this, 'Email', {
        domain: props.mailDomain,
        table: this.data.table,
        ...(props.mailFrom ? { from: props.mailFrom } : {}),
      });
      for (const feature of MAILING_FEATURES) this.email.grantSend(this.api.functions[feature]);
      // The render quota notices (docs/security.md "Render limits"; email.ts MAILING_FUNCTIONS).
      this.email.grantSend(this.render.notices);
      // An endpoint disabled for failing is told to the team's owner
      // (functions/webhooks/worker.ts).
      this.email.grantSend(this.webhooks.worker);
    } else {
      for (const feature of MAILING_FEATURES) {
        this.api.functions[feature].fn.addEnvironment('MAIL_TRANSPORT', 'off');
      }
      this.render.notices.fn.addEnvironment('MAIL_TRANSPORT', 'off');
      this.webhooks.worker.fn.addEnvironment('MAIL_TRANSPORT', 'off');
    }
    this.monitoring = new Monitoring(this, 'Monitoring', {
      httpApi: this.api.httpApi,
      table: this.data.table,
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
      mailEvents: this.email !== undefined,
    });

    this.webhooks.deadLetterAlarm.addAlarmAction(new actions.SnsAction(this.monitoring.topic));
    this.webhooks.deadLetterAlarm.addOkAction(new actions.SnsAction(this.monitoring.topic));
    this.sendLists.deadLetterAlarm.addAlarmAction(new actions.SnsAction(this.monitoring.topic));
    this.sendLists.deadLetterAlarm.addOkAction(new actions.SnsAction(this.monitoring.topic));
    this.renderInvalidations.deadLetterAlarm.addAlarmAction(
      new actions.SnsAction(this.monitoring.topic),
    );
    this.renderInvalidations.deadLetterAlarm.addOkAction(
      new actions.SnsAction(this.monitoring.topic),
    );

    new CfnOutput(this, 'PublicUrl', { value: this.web.publicUrl });
    new CfnOutput(this, 'DistributionId', { value: this.web.distribution.distributionId });
    new CfnOutput(this, 'ApiEndpoint', { value: this.api.httpApi.apiEndpoint });
    new CfnOutput(this, 'WebBucketName', { value: this.data.buckets.web.bucketName });
    new CfnOutput(this, 'AssetsBucketName', { value: this.data.buckets.assets.bucketName });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
  }
}

/** Reads the optional custom domain from context (`-c domainNames=a.com,b.com -c certificateArn=…`). */
function domainFromContext(app: App): CustomDomain | undefined {
  const names = app.node.tryGetContext('domainNames') as string | undefined;
  const certificateArn = app.node.tryGetContext('certificateArn') as string | undefined;
  if (!names && !certificateArn) return undefined;
  if (!names || !certificateArn) {
    throw new Error('Set both context values domainNames and certificateArn, or neither.');
  }
  return {
    names: names
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    certificateArn,
  };
}

/**
 * Reads the font CDN from context: `-c fontCdnUrl=https://…` sets it, `-c fontCdnUrl=` (empty)
 * turns it off; absent, the stack's default ({@link FONTSOURCE_CDN_URL}) applies.
 */
function fontCdnFromContext(app: App): string | null | undefined {
  const value: unknown = app.node.tryGetContext('fontCdnUrl');
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Error('Context fontCdnUrl must be a string.');
  return value.trim() === '' ? null : value.trim();
}

/**
 * Reads the render function's reserved concurrency from context (`-c renderConcurrency=200`).
 * @throws Error when it is not a whole number from 1 to 10,000.
 */
function renderConcurrencyFromContext(app: App): number | undefined {
  const value: unknown = app.node.tryGetContext('renderConcurrency');
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new Error('Context renderConcurrency must be a whole number from 1 to 10000.');
  return n;
}

/**
 * Reads warm capacity's cap from context (`-c warmCapacityMax=20`; docs/infra.md "Warm
 * capacity"). Provisioned concurrency cannot exceed the function's reserved concurrency, so with
 * `renderConcurrency` set the cap must fit under it.
 * @param renderConcurrency the render function's reserved concurrency, when set.
 * @returns the cap; 0 when absent (off).
 * @throws Error when it is not a whole number from 0 to {@link WARM_CAPACITY_MAX_LIMIT}, or is
 *   above `renderConcurrency`.
 */
function warmCapacityMaxFromContext(app: App, renderConcurrency?: number): number {
  const value: unknown = app.node.tryGetContext('warmCapacityMax');
  if (value === undefined || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (typeof value === 'boolean' || !Number.isInteger(n) || n < 0 || n > WARM_CAPACITY_MAX_LIMIT)
    throw new Error(
      `Context warmCapacityMax must be a whole number from 0 (off) to ${WARM_CAPACITY_MAX_LIMIT}.`,
    );
  if (renderConcurrency !== undefined && n > renderConcurrency)
    throw new Error(
      `Context warmCapacityMax (${n}) must not exceed renderConcurrency (${renderConcurrency}): ` +
        'provisioned concurrency comes out of the reserved concurrency.',
    );
  return n;
}

/**
 * Builds the CDK app: PicSnippetsStack plus cdk-nag's AwsSolutions pack, registered the v3 way
 * (`Validations.of(app).addPlugins(new AwsSolutionsChecks(app))`); findings and their
 * acknowledgements land in the cloud assembly's validation report and fail synth when any
 * error is left unacknowledged.
 */
export function createApp(
  props: AppProps = {},
  stackProps: PicSnippetsStackProps = {},
): {
  app: App;
  stack: PicSnippetsStack;
} {
  const app = new App(props);
  const domain = stackProps.domain ?? domainFromContext(app);
  const fontCdnUrl =
    stackProps.fontCdnUrl === undefined ? fontCdnFromContext(app) : stackProps.fontCdnUrl;
  const alarmEmail: unknown = stackProps.alarmEmail ?? app.node.tryGetContext('alarmEmail');
  if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !alarmEmail.includes('@'))) {
    throw new Error('Context alarmEmail must be an e-mail address.');
  }
  const stage: unknown = stackProps.stage ?? app.node.tryGetContext('stage') ?? DEFAULT_STAGE;
  if (typeof stage !== 'string') throw new Error('Context stage must be a string.');
  const mailDomain: unknown = stackProps.mailDomain ?? app.node.tryGetContext('mailDomain');
  const mailFrom: unknown = stackProps.mailFrom ?? app.node.tryGetContext('mailFrom');
  if (mailDomain !== undefined && typeof mailDomain !== 'string') {
    throw new Error('Context mailDomain must be a domain name.');
  }
  if (mailFrom !== undefined && (typeof mailFrom !== 'string' || !mailDomain)) {
    throw new Error('Context mailFrom needs mailDomain, and must be an address on it.');
  }
  const renderConcurrency = stackProps.renderConcurrency ?? renderConcurrencyFromContext(app);
  const warmCapacityMax =
    stackProps.warmCapacityMax ?? warmCapacityMaxFromContext(app, renderConcurrency);
  const stack = new PicSnippetsStack(app, stackNameOf(stage), {
    ...stackProps,
    stage,
    warmCapacityMax,
    ...(renderConcurrency === undefined ? {} : { renderConcurrency }),
    ...(domain === undefined ? {} : { domain }),
    ...(fontCdnUrl === undefined ? {} : { fontCdnUrl }),
    ...(typeof alarmEmail === 'string' ? { alarmEmail } : {}),
    ...(typeof mailDomain === 'string' && mailDomain.trim() !== ''
      ? { mailDomain: mailDomain.trim() }
      : {}),
    ...(typeof mailFrom === 'string' ? { mailFrom } : {}),
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, ...stackProps.env },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
