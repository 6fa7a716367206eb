/**
 * The HTTP API (API Gateway v2) with one Lambda per feature, built from the route table
 * (docs/infra.md "What the stack creates": "the CDK stack builds the API Gateway routes and the
 * per-feature Lambdas from it").
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { FEATURES, routesOf, type Feature, type Route } from '#shared/routes.ts';
import {
  HandlerFunction,
  LOG_RETENTION,
  PROJECT_ROOT,
  TABLE_READ,
  TABLE_WRITE,
  grantBucket,
  grantBucketPrefixes,
  grantTable,
} from './handler-function.ts';
import { NodeModulesLayer, lambdaArchitecture, type CpuArch } from './node-modules-layer.ts';

/** The features served by the HTTP API: every feature but `render` (its own origin, render.ts). */
export const API_FEATURES = FEATURES.filter((f): f is Exclude<Feature, 'render'> => f !== 'render');
export type ApiFeature = (typeof API_FEATURES)[number];

/** Packages the API bundles leave out; the sharp layer ships them (native libvips binding). */
export const API_EXTERNAL_MODULES = ['sharp'];

/**
 * The SSM path of the default stage's secrets; another stage's are under `/picsnippets/{stage}`
 * (infra/stack.ts `secretsPrefixOf`, docs/infra.md "Stages").
 */
export const DEFAULT_SECRETS_PREFIX = '/picsnippets';

/**
 * SSM parameter names of the Stripe secrets (SecureString, created by the operator, never by the
 * stack: docs/infra.md "Deploy") under a stage's prefix. The Lambdas get the *names* and read the
 * values at cold start.
 */
export function stripeParameters(prefix: string) {
  return {
    secretKey: `${prefix}/stripe/secret-key`,
    publishableKey: `${prefix}/stripe/publishable-key`,
    webhookSecret: `${prefix}/stripe/webhook-secret`,
  } as const;
}
/** The default stage's Stripe parameter names (prefix `/picsnippets`). */
export const STRIPE_PARAMETERS = stripeParameters(DEFAULT_SECRETS_PREFIX);
type StripeParameter = keyof typeof STRIPE_PARAMETERS;

/** Env var holding each parameter's name (the value stays in SSM). */
export const STRIPE_PARAMETER_ENV: Record<StripeParameter, string> = {
  secretKey: 'STRIPE_SECRET_KEY_PARAMETER',
  publishableKey: 'STRIPE_PUBLISHABLE_KEY_PARAMETER',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET_PARAMETER',
};

/**
 * Which features read which Stripe secret (docs/adr/0044-the-api-contract.md "The API contract"):
 * registration with a paid plan (auth), subscriptions, payment methods, coupons and invoices
 * (billing), kiosk discounts and revenue (kiosk), the webhook's signature secret (stripe-webhook),
 * and seats and team deletion (teams).
 */
export const STRIPE_ACCESS: Partial<Record<ApiFeature, StripeParameter[]>> = {
  auth: ['secretKey', 'publishableKey'],
  billing: ['secretKey', 'publishableKey'],
  kiosk: ['secretKey'],
  'stripe-webhook': ['secretKey', 'webhookSecret'],
  // Seats follow the members (functions/billing/seats.ts); a deleted team's subscription is
  // cancelled (functions/billing/team-deletion.ts).
  teams: ['secretKey'],
};

/**
 * Keap's OAuth client (docs/export.md: the export screen's infusionsoft authorisation), read
 * by the merge-tags function at cold start like the Stripe keys (functions/lib/ssm-secrets.ts).
 * Created by hand as SecureString parameters; absent, Keap offers its built-in fields only.
 */
export function keapParameters(prefix: string) {
  return {
    KEAP_CLIENT_ID: `${prefix}/keap/client-id`,
    KEAP_CLIENT_SECRET: `${prefix}/keap/client-secret`,
  } as const;
}
/** The default stage's Keap parameter names. */
export const KEAP_PARAMETERS = keapParameters(DEFAULT_SECRETS_PREFIX);

/**
 * Features that seal and open stored secrets (functions/lib/secrets.ts): merge-tag platform
 * credentials and Keap's OAuth tokens and state (docs/export.md), and the users' TOTP secrets
 * (`auth`; docs/security.md "Sessions and tokens"), and webhook endpoints' signing secrets
 * (`webhooks`; docs/developer-api.md "Webhooks"). They get SECRETS_KMS_KEY_ID and
 * kms:GenerateDataKey and kms:Decrypt on that one key.
 */
export const SECRETS_FEATURES: readonly ApiFeature[] = ['merge-tags', 'auth', 'webhooks'];

/**
 * Features that handle teams' render signing secrets (docs/developer-api.md "Signed render
 * URLs"; sealed by functions/lib/secrets.ts), with only the KMS actions each needs: `teams`
 * makes and rotates them (seals a new one: kms:GenerateDataKey; the previous one is kept sealed),
 * `designs` opens the current one to sign a URL (kms:Decrypt), `send-lists` to sign a list's
 * download (docs/send-lists.md "The download"). The render function and the send-list worker
 * open them too (render.ts `openSigningSecrets`, stack.ts).
 */
export const SIGNING_SECRET_FEATURES: Partial<Record<ApiFeature, readonly string[]>> = {
  teams: ['kms:GenerateDataKey'],
  designs: ['kms:Decrypt'],
  'send-lists': ['kms:Decrypt'],
};

/**
 * Features that invalidate CDN paths: cached renders when a design, or its team's watermark or
 * plan, changes (docs/infra.md "What the stack creates": CloudFront keeps good renders for long)
 * and deleted uploads' `/files/…` paths (images, stickers; docs/security.md "Deleted uploads").
 * They get DISTRIBUTION_ID and cloudfront:CreateInvalidation on the one distribution.
 */
export const INVALIDATING_FEATURES: readonly ApiFeature[] = [
  'designs',
  'text-snippets',
  'images',
  'stickers',
  // A team's renders when its watermark or plan changes (docs/adr/0057-watermark.md "Watermark";
  // the second pass is queued: infra/constructs/render-invalidations.ts RENDER_INVALIDATORS).
  'teams',
  'auth',
  'billing',
  'stripe-webhook',
  'kiosk',
];

/**
 * Features that withdraw deleted uploads from `/files/*` by tagging them
 * (functions/lib/uploads.ts `withdrawUserFile`): s3:PutObjectTagging on `files/` only.
 */
export const WITHDRAWING_FEATURES: readonly ApiFeature[] = ['images', 'stickers'];

/**
 * Features told the fontsource CDN's base (`FONT_CDN_URL`, docs/fonts.md): `fonts` offers the
 * whole catalogue and hands the editor the CDN base (`GET /api/fonts` `cdnUrl`).
 */
export const FONT_CDN_FEATURES: readonly ApiFeature[] = ['fonts'];

interface FeatureSizing {
  /** MB. */
  memorySize: number;
  timeout: Duration;
}

/**
 * Memory and timeout. API Gateway waits at most 30 s for an integration, so no API Lambda runs
 * longer than 29 s. Features that decode or resize uploads with sharp get more memory (and so
 * more CPU); the rest are DynamoDB calls and stay small.
 */
export const SIZING: Record<ApiFeature, FeatureSizing> = Object.fromEntries(
  API_FEATURES.map((f) => {
    const heavy = f === 'images' || f === 'stickers' || f === 'designs' || f === 'fonts';
    return [
      f,
      heavy
        ? { memorySize: 1536, timeout: Duration.seconds(29) }
        : { memorySize: 512, timeout: Duration.seconds(15) },
    ];
  }),
) as Record<ApiFeature, FeatureSizing>;

/** Requests per second across the API's default stage (steady, burst) before 429s. */
export const API_THROTTLE = { rateLimit: 500, burstLimit: 1000 } as const;

export interface ApiProps {
  table: dynamodb.ITable;
  assets: s3.Bucket;
  renders: s3.Bucket;
  /**
   * The CPU of the sharp binary installed in node_modules (node-modules-layer.ts
   * `installedSharpArchitectures`); ARM64 is preferred when its binary is there.
   */
  arch: CpuArch;
  /** The KMS key whose data keys encrypt stored secrets (SECRETS_FEATURES). */
  secretsKey: kms.IKey;
  /** The fontsource CDN's font files base, for FONT_CDN_FEATURES; absent, none. */
  fontCdnUrl?: string;
  /** The SSM path of this stage's secrets; default {@link DEFAULT_SECRETS_PREFIX}. */
  secretsPrefix?: string;
}

/**
 * The HTTP API and the feature Lambdas (docs/infra.md "What the stack creates"):
 * - one `HandlerFunction` per API_FEATURES entry, `functions/<feature>/handler.ts`, Node.js 24,
 *   `arch`, sharp from a layer built from node_modules;
 * - one `HttpRoute` per ROUTES entry with the route key `METHOD /path`, integrated with its
 *   feature's function (payload v2); one invoke permission per function, scoped to this API;
 * - the `$default` stage with JSON access logs and throttling (API_THROTTLE);
 * - env: STAGE, FEATURE, TABLE_NAME, ASSETS_BUCKET, RENDERS_BUCKET, Stripe parameter names
 *   (STRIPE_ACCESS), SECRETS_KMS_KEY_ID (SECRETS_FEATURES), FONT_CDN_URL (FONT_CDN_FEATURES,
 *   when `fontCdnUrl` is given); PUBLIC_URL and DISTRIBUTION_ID once
 *   `connectDistribution` is called.
 *
 * Grants, and why: every feature but `stripe-webhook` and `system` gets table read/write and
 * assets read/write, because each one both reads and writes team-owned items (designs, images,
 * fonts, teams, tokens…) and uploads or deletes files (photos, stickers, fonts, packs); a
 * finer split would follow each handler's code and drift from it. Authorisation of *which* items
 * is the handler's job (team ownership of every id, docs/security.md "Sessions and tokens").
 * `stripe-webhook` only writes subscription state: table read/write, no bucket. `system` (health)
 * may only DescribeTable and HeadBucket.
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly functions: Record<ApiFeature, HandlerFunction>;
  readonly routes: apigwv2.HttpRoute[] = [];
  /**
   * The value CloudFront sends in `x-origin-verify` to the API origin (web.ts), generated at
   * deploy; every API function refuses a request without it (functions/lib/origin-verify.ts),
   * so the `execute-api` endpoint cannot be used to skip the WAF and the viewer headers.
   */
  readonly originVerifySecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerify', {
      description: 'PicSnippets: the header value CloudFront adds to API origin requests',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The origin-verify value is a shared header between CloudFront and the API functions; ' +
        'it guards against skipping the edge, not a credential of a user. Rotating it means ' +
        'redeploying the distribution (its origin header resolves at deploy): `npm run deploy` ' +
        'after `aws secretsmanager put-secret-value` rotates both ends together.',
    });

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'PicSnippets API (routes from shared/routes.ts)',
      createDefaultStage: false,
    });
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    const sharpLayer = new NodeModulesLayer(this, 'SharpLayer', {
      projectRoot: PROJECT_ROOT,
      packages: API_EXTERNAL_MODULES,
      arch: props.arch,
      description: 'PicSnippets API: sharp and its libvips binary (from node_modules)',
    }).layer;

    const functions: Partial<Record<ApiFeature, HandlerFunction>> = {};
    const stripeNames = stripeParameters(props.secretsPrefix ?? DEFAULT_SECRETS_PREFIX);
    const keapNames = keapParameters(props.secretsPrefix ?? DEFAULT_SECRETS_PREFIX);
    for (const feature of API_FEATURES) {
      const stripe = STRIPE_ACCESS[feature] ?? [];
      const handler = new HandlerFunction(this, pascal(feature), {
        feature,
        description: `PicSnippets API: ${feature} (${routesOf(feature).length} routes)`,
        architecture: lambdaArchitecture(props.arch),
        ...SIZING[feature],
        tracing: true,
        externalModules: API_EXTERNAL_MODULES,
        layers: [sharpLayer],
        environment: {
          TABLE_NAME: props.table.tableName,
          ASSETS_BUCKET: props.assets.bucketName,
          RENDERS_BUCKET: props.renders.bucketName,
          ...Object.fromEntries(stripe.map((p) => [STRIPE_PARAMETER_ENV[p], stripeNames[p]])),
          ...(stripe.includes('secretKey') ? stripeCatalogueEnvironment(this) : {}),
          ...(props.fontCdnUrl !== undefined && FONT_CDN_FEATURES.includes(feature)
            ? { FONT_CDN_URL: props.fontCdnUrl }
            : {}),
        },
      });
      this.grant(handler, feature, props);
      // The edge's header (origin-verify.ts), read once per cold start like the other secrets.
      handler.fn.addEnvironment(
        'ORIGIN_VERIFY_SECRET_PARAMETER',
        `/aws/reference/secretsmanager/${this.originVerifySecret.secretName}`,
      );
      this.originVerifySecret.grantRead(handler.role);
      handler.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['ssm:GetParameters'],
          resources: [
            stack.formatArn({
              service: 'ssm',
              resource: 'parameter',
              resourceName: `aws/reference/secretsmanager/${this.originVerifySecret.secretName}`,
            }),
          ],
        }),
      );
      if (SECRETS_FEATURES.includes(feature)) {
        handler.fn.addEnvironment('SECRETS_KMS_KEY_ID', props.secretsKey.keyArn);
        handler.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            // Envelope encryption: a data key per secret, opened again to read it.
            actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
            resources: [props.secretsKey.keyArn],
          }),
        );
      }
      const signingActions = SIGNING_SECRET_FEATURES[feature];
      if (signingActions) {
        handler.fn.addEnvironment('SECRETS_KMS_KEY_ID', props.secretsKey.keyArn);
        handler.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: [...signingActions],
            resources: [props.secretsKey.keyArn],
          }),
        );
      }
      if (feature === 'merge-tags') {
        for (const [setting, name] of Object.entries(keapNames))
          handler.fn.addEnvironment(`${setting}_PARAMETER`, name);
        handler.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['ssm:GetParameter', 'ssm:GetParameters'],
            resources: Object.values(keapNames).map((name) =>
              stack.formatArn({
                service: 'ssm',
                resource: 'parameter',
                resourceName: name.slice(1),
              }),
            ),
          }),
        );
      }
      if (stripe.length > 0) {
        handler.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            // SecureString parameters encrypted with the AWS-managed key aws/ssm: its key policy
            // lets SSM decrypt for principals of the account, so no kms:Decrypt grant is needed.
            actions: ['ssm:GetParameter', 'ssm:GetParameters'],
            resources: stripe.map((p) =>
              stack.formatArn({
                service: 'ssm',
                resource: 'parameter',
                resourceName: stripeNames[p].slice(1),
              }),
            ),
          }),
        );
      }
      functions[feature] = handler;
      this.addRoutes(handler, routesOf(feature));
    }
    this.functions = functions as Record<ApiFeature, HandlerFunction>;

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorisation is done in the handlers, per route access level of shared/routes.ts ' +
        '(session cookie with CSRF and XHR headers, or a hashed API token; DESIGN.md §6). ' +
        'Public routes (registration, login, plans, invitations, the Stripe webhook with its ' +
        'signature) must stay reachable without credentials, and API Gateway authorizers cannot ' +
        'read the opaque session from DynamoDB without a second Lambda per request.',
    });
  }

  /**
   * Gives the functions the public origin of the product (`PUBLIC_URL`, e.g. for the render URLs
   * of the export screen and for redirects) and, for INVALIDATING_FEATURES, the distribution id
   * and the right to invalidate it. Called once the distribution exists (web.ts builds it from
   * this API, so it cannot exist when the functions are created).
   */
  connectDistribution(distribution: cloudfront.IDistribution, publicUrl: string): void {
    for (const feature of API_FEATURES) {
      const handler = this.functions[feature];
      handler.fn.addEnvironment('PUBLIC_URL', publicUrl);
      if (INVALIDATING_FEATURES.includes(feature)) {
        handler.fn.addEnvironment('DISTRIBUTION_ID', distribution.distributionId);
        distribution.grantCreateInvalidation(handler.role);
      }
    }
  }

  private grant(handler: HandlerFunction, feature: ApiFeature, props: ApiProps): void {
    if (feature === 'system') {
      // Health (docs/operations.md "Health"): DescribeTable and HeadBucket, nothing else.
      grantTable(handler.role, props.table, ['dynamodb:DescribeTable']);
      grantBucket(handler.role, props.assets, 'list');
      return;
    }
    grantTable(handler.role, props.table, [...TABLE_READ, ...TABLE_WRITE]);
    if (feature !== 'stripe-webhook') grantBucket(handler.role, props.assets, 'readwrite');
    if (WITHDRAWING_FEATURES.includes(feature)) {
      grantBucketPrefixes(handler.role, props.assets, ['files/'], ['s3:PutObjectTagging']);
    }
  }

  private addRoutes(handler: HandlerFunction, routes: readonly Route[]): void {
    // One integration per function, shared by its routes; one invoke permission for the whole
    // API instead of one per route (which would put ~150 more resources in the template).
    const integration = new HttpLambdaIntegration(`${handler.feature}-integration`, handler.fn, {
      scopePermissionToRoute: false,
    });
    for (const route of routes) {
      this.routes.push(
        new apigwv2.HttpRoute(this, `${route.method} ${route.path.replaceAll('/', '_')}`, {
          httpApi: this.httpApi,
          routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
          integration,
        }),
      );
    }
  }
}

/** `stripe-webhook` → `StripeWebhook`, for construct ids. */
const pascal = (s: string): string =>
  s
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * The plans' Stripe price ids and the partner-campaign coupon (docs/billing.md; not secrets):
 * from the CDK context `stripePrices` (`pro-monthly=price_…,…`) and `stripePartnerCoupon`
 * (`cdk deploy -c stripePrices=…`), as STRIPE_PRICES and STRIPE_PARTNER_COUPON. Absent, paid
 * plans stay unavailable (docs/billing.md "Configuration").
 */
function stripeCatalogueEnvironment(scope: Construct): Record<string, string> {
  const prices: unknown = scope.node.tryGetContext('stripePrices');
  const coupon: unknown = scope.node.tryGetContext('stripePartnerCoupon');
  return {
    ...(typeof prices === 'string' && prices !== '' ? { STRIPE_PRICES: prices } : {}),
    ...(typeof coupon === 'string' && coupon !== '' ? { STRIPE_PARTNER_COUPON: coupon } : {}),
  };
}
