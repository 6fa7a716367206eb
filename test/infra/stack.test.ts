/**
 * PicSnippetsStack, synthesised in-process with bundling skipped (context
 * `aws:cdk:bundling-stacks: []`): what an operator would check before deploying (docs/infra.md
 * "What the stack creates").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, ROUTES, routeKey } from '#shared/routes.ts';
import { BUCKETS, TABLE } from '#shared/resources.ts';
import { createApp, stackNameOf, type PicSnippetsStack } from '#infra/stack.ts';
import { API_ORIGIN_ID } from '#infra/constructs/router-function.ts';
import { INTERNAL_FUNCTIONS, PROJECT_ROOT } from '#infra/constructs/handler-function.ts';
import { functionGrants } from './permissions.ts';
import {
  RENDER_ALIAS,
  RENDER_MEMORY_MB,
  RENDER_ORIGIN_READ_TIMEOUT,
  RENDER_TIMEOUT,
  RENDER_WRITES,
  SENSITIVE_REQUESTS_PER_IP_PER_5_MIN,
  RENDER_USAGE,
  VIEW_COUNTER,
  FIRST_OPEN,
  FALLBACK_COUNTER,
} from '#infra/constructs/render.ts';
import { KEAP_PARAMETERS, STRIPE_PARAMETERS } from '#infra/constructs/api.ts';
import { CLOUDFRONT_LOG_PREFIX, CLOUDFRONT_LOG_RETENTION_DAYS } from '#infra/constructs/data.ts';
import { FONTSOURCE_CDN_URL } from '#shared/security.ts';
import { ALARM_THRESHOLDS } from '#infra/constructs/monitoring.ts';
import { PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN } from '#shared/render-limits.ts';
import { CDN_LOG_FIELDS } from '#functions/analytics/cdn-log.ts';
import { CDN_LOG_RECORD_FIELDS, ROLLUP_SCAN_LIMIT_BYTES } from '#infra/constructs/analytics.ts';
import { DEFAULT_LIMITS } from '#functions/render/budgets.ts';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** CloudFront's managed policies, by id. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let outdir: string;
let stack: PicSnippetsStack;
let template: Template;
let resources: Resources;

/** The feature flags `cdk synth` runs with (cdk.json), so the tests see the same template. */
const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'picsnippets-cdk-'));
  const built = createApp(
    {
      outdir,
      context: {
        ...CDK_JSON_CONTEXT,
        'aws:cdk:bundling-stacks': [],
        // Findings stay in validation-report.json instead of aborting synth, so that the cdk-nag
        // test below lists them and the other tests still run.
        '@aws-cdk/core:failSynthOnValidationErrors': false,
      },
    },
    // x64 fixed so the snapshot does not depend on which sharp binary this machine installed.
    { apiArch: 'x64', env: { account: undefined }, alarmEmail: 'ops@example.com' },
  );
  stack = built.stack;
  built.app.synth();
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Resources;
});

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

const ofType = (type: string): Array<[string, Resources[string]]> =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

describe('data', () => {
  it('has the single table with its keys, three GSIs, TTL, PITR and deletion protection', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map((gsi) =>
        Match.objectLike({
          IndexName: gsi.indexName,
          KeySchema: [
            { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
            { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        }),
      ),
    });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  const bucket = (role: string): Record<string, unknown> => {
    const found = ofType('AWS::S3::Bucket').filter(([id]) =>
      id.startsWith(`Data${role[0]!.toUpperCase()}${role.slice(1)}Bucket`),
    );
    expect(found).toHaveLength(1);
    return found[0]![1].Properties;
  };

  it('blocks public access, encrypts and logs every bucket, and requires TLS', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets).toHaveLength(Object.keys(BUCKETS).length + 1); // + the access-log bucket
    for (const [, b] of buckets) {
      expect(b.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(b.Properties.BucketEncryption).toEqual({
        ServerSideEncryptionConfiguration: [
          { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
        ],
      });
    }
    for (const role of Object.keys(BUCKETS)) {
      expect(bucket(role).LoggingConfiguration).toMatchObject({ LogFilePrefix: `s3/${role}/` });
    }
    const policies = ofType('AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(buckets.length);
    for (const [, p] of policies) {
      expect(JSON.stringify(p.Properties)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it("keeps CloudFront's request logs (render queries, reset links) one week", () => {
    const logs = ofType('AWS::S3::Bucket').find(([id]) => id.includes('LogsBucket'))![1];
    const rules = (
      logs.Properties.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }
    ).Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({
        Prefix: CLOUDFRONT_LOG_PREFIX,
        ExpirationInDays: CLOUDFRONT_LOG_RETENTION_DAYS,
        Status: 'Enabled',
      }),
    );
    expect(CLOUDFRONT_LOG_RETENTION_DAYS).toBeLessThanOrEqual(7);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Logging: Match.objectLike({ Prefix: CLOUDFRONT_LOG_PREFIX }),
      }),
    });
  });

  it("denies CloudFront a deleted upload (tagged withdrawn) in the assets bucket's policy", () => {
    const assets = ofType('AWS::S3::BucketPolicy').find(([, p]) =>
      JSON.stringify(p.Properties.Bucket).includes('DataAssetsBucket'),
    )![1];
    const statements = (
      assets.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }
    ).Statement;
    const deny = statements.find((st) => st.Sid === 'WithdrawnUserFilesAreNotServed')!;
    expect(deny).toMatchObject({
      Effect: 'Deny',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
      Condition: { StringEquals: { 's3:ExistingObjectTag/withdrawn': 'true' } },
    });
    expect(JSON.stringify(deny.Resource)).toContain('/files/*');
  });

  it('versions the assets bucket and expires the render cache', () => {
    expect(bucket('assets').VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket('renders').VersioningConfiguration).toBeUndefined();
    expect(bucket('renders').LifecycleConfiguration).toEqual({
      Rules: expect.arrayContaining([
        expect.objectContaining({
          ExpirationInDays: BUCKETS.renders.expireAfterDays,
          Status: 'Enabled',
        }),
      ]),
    });
  });
});

describe('API', () => {
  const features = (): Map<string, string> =>
    new Map(
      ofType('AWS::Lambda::Function').map(([id, fn]) => {
        const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        return [id, env.FEATURE as string];
      }),
    );

  it('has exactly one Lambda per feature, Node.js 24, ES module bundle', () => {
    const byId = features();
    // The mail-events function exists only with a mail domain (test/infra/email.test.ts).
    expect([...byId.values()].sort()).toEqual(
      [
        ...FEATURES,
        ...INTERNAL_FUNCTIONS,
        'kiosk-snapshot',
        'webhooks-worker',
        'send-lists-worker',
        'send-lists-dead-letters',
        'render-invalidations-worker',
        'analytics-rollup',
      ].sort(),
    );
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
      expect(fn.Properties.Handler).toBe('index.handler');
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON' });
    }
  });

  it('has a route for every route-table entry but render, integrated with its feature', () => {
    const byFunction = features();
    const integrationFeature = new Map(
      ofType('AWS::ApiGatewayV2::Integration').map(([id, i]) => {
        const uri = i.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
        return [id, byFunction.get(uri['Fn::GetAtt'][0])];
      }),
    );
    const routes = new Map(
      ofType('AWS::ApiGatewayV2::Route').map(([, r]) => {
        const target = JSON.stringify(r.Properties.Target);
        const integration = [...integrationFeature.keys()].find((id) => target.includes(`"${id}"`));
        return [
          r.Properties.RouteKey as string,
          integration && integrationFeature.get(integration),
        ];
      }),
    );
    const expected = ROUTES.filter((r) => r.feature !== 'render');
    expect(routes.size).toBe(expected.length);
    for (const route of expected) {
      expect({ key: routeKey(route), feature: routes.get(routeKey(route)) }).toEqual({
        key: routeKey(route),
        feature: route.feature,
      });
    }
  });

  it('logs access on the $default stage and throttles it', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
    });
  });

  it('gives the Stripe webhook the table only, and Stripe secrets by parameter name', () => {
    const [id] = [...features()].find(([, f]) => f === 'stripe-webhook')!;
    const fn = resources[id]!;
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const policy = ofType('AWS::IAM::Policy').find(([, p]) =>
      JSON.stringify(p.Properties.Roles).includes(roleId),
    )![1];
    const text = JSON.stringify(policy.Properties.PolicyDocument);
    expect(text).toContain('dynamodb:PutItem');
    expect(text).not.toContain('s3:');
    expect(text).toContain('ssm:GetParameter');
    expect(JSON.stringify(fn.Properties.Environment)).toContain(STRIPE_PARAMETERS.webhookSecret);
    // No secret value is ever in the template.
    expect(JSON.stringify(template.toJSON())).not.toMatch(/sk_(live|test)_|whsec_/);
  });

  it('lets only CloudFront reach the API: a generated origin-verify header every function checks', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48 });
    // CloudFront sends the secret, resolved at deploy (never a literal in the template).
    const [, distribution] = ofType('AWS::CloudFront::Distribution')[0]!;
    const origins = (
      distribution.Properties.DistributionConfig as {
        Origins: Array<{
          Id: string;
          OriginCustomHeaders?: Array<{ HeaderName: string; HeaderValue: unknown }>;
        }>;
      }
    ).Origins;
    const api = origins.find((o) => o.Id === API_ORIGIN_ID)!;
    expect(api.OriginCustomHeaders).toHaveLength(1);
    expect(api.OriginCustomHeaders![0]!.HeaderName).toBe('x-origin-verify');
    expect(JSON.stringify(api.OriginCustomHeaders![0]!.HeaderValue)).toContain(
      '{{resolve:secretsmanager:',
    );
    expect(JSON.stringify(api.OriginCustomHeaders![0]!.HeaderValue)).toContain(secretId);
    // Every API function names it, and may read exactly it.
    for (const [id, feature] of features()) {
      if (
        feature === 'render' ||
        feature === 'screenshot' ||
        feature === 'render-notices' ||
        feature === 'kiosk-snapshot' ||
        feature === 'webhooks-worker' ||
        feature === 'send-lists-worker' ||
        feature === 'send-lists-dead-letters' ||
        feature === 'render-invalidations-worker' ||
        feature === 'analytics-rollup'
      )
        continue;
      const fn = resources[id]!;
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.stringify(env.ORIGIN_VERIFY_SECRET_PARAMETER), feature).toContain(
        '/aws/reference/secretsmanager/',
      );
      const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const reads = ofType('AWS::IAM::Policy')
        .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
        .flatMap(
          ([, p]) =>
            (
              p.Properties.PolicyDocument as {
                Statement: Array<{ Action: unknown; Resource: unknown }>;
              }
            ).Statement,
        )
        .filter((st) => JSON.stringify(st.Action).includes('secretsmanager:GetSecretValue'));
      expect(reads, feature).toHaveLength(1);
      expect(reads[0]!.Resource).toEqual({ Ref: secretId });
    }
  });

  it('grants no AWS-managed policy and no action wildcard', () => {
    for (const [, role] of ofType('AWS::IAM::Role')) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
    for (const [, p] of ofType('AWS::IAM::Policy')) {
      const statements = (p.Properties.PolicyDocument as { Statement: Array<{ Action: unknown }> })
        .Statement;
      for (const s of statements) expect(JSON.stringify(s.Action)).not.toContain('*');
    }
  });
});

describe('provider secrets (docs/export.md)', () => {
  it('has a rotating KMS key, kept on delete, that only merge-tags, auth and webhooks use, for data keys only', () => {
    const keys = ofType('AWS::KMS::Key').filter(([, k]) =>
      String(k.Properties.Description).includes('provider secrets'),
    );
    expect(keys).toHaveLength(1);
    const [keyId, key] = keys[0]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect((resources[keyId] as unknown as { DeletionPolicy: string }).DeletionPolicy).toBe(
      'Retain',
    );
    const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };
    const users = ofType('AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('kms:'),
    );
    const fnOf = (roleRef: string) =>
      ofType('AWS::Lambda::Function').find(([, fn]) =>
        JSON.stringify(fn.Properties.Role).includes(roleRef),
      )![1];
    // merge-tags seals platform credentials, auth the users' TOTP secrets, webhooks the endpoints'
    // signing secrets, which the webhook worker only opens.
    // Render signing secrets (docs/developer-api.md "Signed render URLs"): teams seals them,
    // designs and the render only open them.
    const signing: Record<string, string> = {
      teams: 'kms:GenerateDataKey',
      designs: 'kms:Decrypt',
      render: 'kms:Decrypt',
      // A send list's rows are signed for a design that requires it (docs/send-lists.md).
      'send-lists': 'kms:Decrypt',
      'send-lists-worker': 'kms:Decrypt',
    };
    // Roles that draw hostile content open only the purposes they need (infra/constructs/
    // secret-grants.ts): never a TOTP secret or a platform credential.
    const purposes: Record<string, string[]> = {
      render: ['render-signing', 'web-api'],
      'send-lists-worker': ['render-signing', 'web-api'],
      'webhooks-worker': ['webhook'],
    };
    const condition = (feature: string) =>
      purposes[feature]
        ? { Condition: { StringEquals: { 'kms:EncryptionContext:purpose': purposes[feature] } } }
        : {};
    const signingFeatures: unknown[] = [];
    expect(users).toHaveLength(9);
    const features: unknown[] = [];
    for (const [, policy] of users) {
      const roleRef = (policy.Properties.Roles as Array<{ Ref: string }>)[0]!.Ref;
      const fn = fnOf(roleRef);
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.SECRETS_KMS_KEY_ID).toEqual(keyArn);
      const statements = (
        policy.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }
      ).Statement.filter((st) => JSON.stringify(st.Action).includes('kms:'));
      const signingAction = signing[String(env.FEATURE)];
      if (signingAction) {
        signingFeatures.push(env.FEATURE);
        expect(statements).toEqual([
          expect.objectContaining({
            Action: signingAction,
            Effect: 'Allow',
            Resource: keyArn,
            ...condition(String(env.FEATURE)),
          }),
        ]);
        if (!purposes[String(env.FEATURE)]) expect(statements[0]!.Condition).toBeUndefined();
        continue;
      }
      features.push(env.FEATURE);
      expect(statements).toEqual([
        expect.objectContaining({
          Action:
            env.FEATURE === 'webhooks-worker'
              ? 'kms:Decrypt'
              : ['kms:Decrypt', 'kms:GenerateDataKey'],
          Effect: 'Allow',
          Resource: keyArn,
          ...condition(String(env.FEATURE)),
        }),
      ]);
    }
    expect(features.sort()).toEqual(['auth', 'merge-tags', 'webhooks', 'webhooks-worker']);
    expect(signingFeatures.sort()).toEqual([
      'designs',
      'render',
      'send-lists',
      'send-lists-worker',
      'teams',
    ]);
  });
});

describe('Keap OAuth client (docs/export.md)', () => {
  it('hands only merge-tags the Keap parameter names and read access to exactly those', () => {
    const users = ofType('AWS::Lambda::Function').filter(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('KEAP_CLIENT_SECRET_PARAMETER'),
    );
    expect(users).toHaveLength(1);
    const [, fn] = users[0]!;
    const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env.FEATURE).toBe('merge-tags');
    expect(env.KEAP_CLIENT_ID_PARAMETER).toBe(KEAP_PARAMETERS.KEAP_CLIENT_ID);
    expect(env.KEAP_CLIENT_SECRET_PARAMETER).toBe(KEAP_PARAMETERS.KEAP_CLIENT_SECRET);
    // The values never appear in the template.
    expect(env.KEAP_CLIENT_SECRET).toBeUndefined();
    const roleRef = JSON.stringify(fn.Properties.Role);
    const grants = ofType('AWS::IAM::Policy')
      .filter(([, p]) => roleRef.includes((p.Properties.Roles as Array<{ Ref: string }>)[0]!.Ref))
      .map(([, p]) => JSON.stringify(p.Properties.PolicyDocument))
      .join('');
    expect(grants).toContain('ssm:GetParameters');
    expect(grants).toContain('parameter/picsnippets/keap/client-secret');
  });
});

describe('render', () => {
  const renderFunction = (): [string, Resources[string]] =>
    ofType('AWS::Lambda::Function').find(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('"FEATURE":"render"'),
    )!;

  it('runs with 2-3 GB and a timeout below CloudFront origin timeout', () => {
    const [, fn] = renderFunction();
    expect(fn.Properties.MemorySize).toBe(RENDER_MEMORY_MB);
    expect(RENDER_MEMORY_MB).toBeGreaterThanOrEqual(2048);
    expect(RENDER_MEMORY_MB).toBeLessThanOrEqual(3008);
    expect(fn.Properties.Timeout).toBe(RENDER_TIMEOUT.toSeconds());
    expect(RENDER_TIMEOUT.toSeconds()).toBeLessThan(RENDER_ORIGIN_READ_TIMEOUT.toSeconds());
    expect(fn.Properties.Layers).toHaveLength(1);
  });

  it('has a function URL with IAM auth on the live alias, reached through CloudFront OAC', () => {
    const [id] = renderFunction();
    template.resourceCountIs('AWS::Lambda::Url', 1);
    // The URL invokes the alias warm capacity scales (docs/send-lists.md "Warm capacity before
    // a send"), an alias of a published version of the render function.
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'AWS_IAM',
      TargetFunctionArn: { 'Fn::GetAtt': [id, 'Arn'] },
      Qualifier: RENDER_ALIAS,
    });
    const [, alias] = ofType('AWS::Lambda::Alias').find(
      ([, a]) => a.Properties.Name === RENDER_ALIAS,
    )!;
    expect(alias.Properties.FunctionName).toEqual({ Ref: id });
    const versionId = (alias.Properties.FunctionVersion as { 'Fn::GetAtt': [string, string] })[
      'Fn::GetAtt'
    ][0];
    expect(resources[versionId]!.Type).toBe('AWS::Lambda::Version');
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 'lambda',
        SigningBehavior: 'always',
      }),
    });
    const urlId = ofType('AWS::Lambda::Url')[0]![0];
    for (const action of ['lambda:InvokeFunctionUrl', 'lambda:InvokeFunction']) {
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: action,
        Principal: 'cloudfront.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [urlId, 'FunctionArn'] },
        SourceArn: Match.objectLike({ 'Fn::Join': Match.anyValue() }),
      });
    }
  });

  it('lets the render role write only the caches, static layers, the view counter and first opens', () => {
    const [, fn] = renderFunction();
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const actionsOf = (s: Statement) => [s.Action].flat();
    const writes = statements.filter((s) =>
      actionsOf(s).some((a) =>
        /^(s3:(Put|Delete)|dynamodb:(Put|Update|Delete|BatchWrite))/.test(a),
      ),
    );
    // S3 writes: PutObject on the three prefixes only; nothing deletes.
    const s3Writes = writes.filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')));
    expect(s3Writes.flatMap(actionsOf).filter((a) => a !== 's3:GetObject')).toEqual([
      's3:PutObject',
      's3:PutObject',
    ]);
    const writtenPrefixes = JSON.stringify(s3Writes.map((s) => s.Resource));
    for (const prefix of [...RENDER_WRITES.renders, ...RENDER_WRITES.assets]) {
      expect(writtenPrefixes).toContain(`/${prefix}*`);
    }
    expect(writtenPrefixes).not.toMatch(/Arn"\]\},"\/\*"/);
    // The table: UpdateItem alone, on design items' view counter and the teams' month usage
    // records, by condition.
    const tableWrites = writes.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(tableWrites).toHaveLength(4);
    for (const w of tableWrites.slice(0, 3)) expect(actionsOf(w)).toEqual(['dynamodb:UpdateItem']);
    // Fallbacks served (docs/analytics.md "Fallbacks"): on their own partitions only, whose
    // `ttl` expires nothing else.
    expect(tableWrites[2]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['$picsnippets#fallbackdesign_*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...FALLBACK_COUNTER.attributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
    });
    for (const attribute of ['document', 'teamId', 'designId', 'listKey', 'counter'])
      expect(FALLBACK_COUNTER.attributes).not.toContain(attribute);
    // Recipients' first opens (countdown timers): a PutItem on their own partitions only.
    expect(actionsOf(tableWrites[3]!)).toEqual(['dynamodb:PutItem']);
    expect(tableWrites[3]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['$picsnippets#opendesign_*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...FIRST_OPEN.attributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
    });
    for (const attribute of ['document', 'teamId', 'designId', 'listKey', 'counter'])
      expect(FIRST_OPEN.attributes).not.toContain(attribute);
    expect(tableWrites[0]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [VIEW_COUNTER.leadingKey] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...VIEW_COUNTER.attributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
    });
    expect(tableWrites[1]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RENDER_USAGE.leadingKey] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RENDER_USAGE.attributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'ALL_NEW'] },
    });
    expect(RENDER_USAGE.attributes).not.toContain('ttl');
    // Neither a design's document, team or status nor any key of another list.
    for (const attribute of ['document', 'teamId', 'status', 'gsi1pk', 'gsi5pk']) {
      expect(VIEW_COUNTER.attributes).not.toContain(attribute);
    }
  });

  it('opens screenshot pages in a function whose role reaches only its logs', () => {
    const [renderId, render] = renderFunction();
    const [shotId, shot] = ofType('AWS::Lambda::Function').find(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('"FEATURE":"screenshot"'),
    )!;
    const roleOf = (fn: Resources[string]) =>
      (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    type Statement = { Action: string | string[]; Resource: unknown };
    const statementsOf = (roleId: string) =>
      ofType('AWS::IAM::Policy')
        .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
        .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const shotActions = statementsOf(roleOf(shot)).flatMap((s) => [s.Action].flat());
    expect(shotActions.length).toBeGreaterThan(0);
    for (const action of shotActions) expect(action).toMatch(/^logs:/);
    // Nothing of the data: no table, bucket, key or secret names in its environment.
    const env = (shot.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const baseline = ['FEATURE', 'STAGE', 'NODE_OPTIONS', 'AWS_NODEJS_CONNECTION_REUSE_ENABLED'];
    expect(Object.keys(env).filter((k) => !baseline.includes(k))).toEqual([]);
    // The render function invokes that function (and the render-notices one, below), and
    // knows its name.
    const invoke = statementsOf(roleOf(render)).filter((s) =>
      [s.Action].flat().includes('lambda:InvokeFunction'),
    );
    expect(invoke.flatMap((s) => [s.Resource].flat())).toContainEqual({
      'Fn::GetAtt': [shotId, 'Arn'],
    });
    const renderEnv = (render.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(renderEnv.SCREENSHOT_FUNCTION_NAME).toEqual({ Ref: shotId });
    expect(renderId).not.toBe(shotId);
  });

  it('lets the send-list worker write only its jobs, their chunk cursors and the month usage', () => {
    const policies = ofType('AWS::IAM::Policy').filter(([id]) => id.startsWith('SendListsWorker'));
    const statements = policies.flatMap(
      ([, p]) =>
        (p.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement,
    );
    const writes = statements.filter((st) =>
      /PutItem|UpdateItem|DeleteItem|BatchWriteItem/.test(JSON.stringify(st.Action)),
    );
    expect(writes).toEqual([
      expect.objectContaining({
        Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
        Condition: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': ['$picsnippets#jobid_*', '$picsnippets#usageteam_*'],
          },
        },
      }),
    ]);
  });

  it('gives the send-list worker the same screenshot and notices functions as the render', () => {
    // Its rows draw with the render code: without the names it would open screenshot pages in
    // its own process, whose role reaches the table, and never tell an owner about the quota.
    const envOf = (feature: string) =>
      (
        ofType('AWS::Lambda::Function').find(([, fn]) =>
          JSON.stringify(fn.Properties.Environment).includes(`"FEATURE":"${feature}"`),
        )![1].Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
    const render = envOf('render');
    const worker = envOf('send-lists-worker');
    expect(worker.SCREENSHOT_FUNCTION_NAME).toBeDefined();
    expect(worker.SCREENSHOT_FUNCTION_NAME).toEqual(render.SCREENSHOT_FUNCTION_NAME);
    expect(worker.RENDER_NOTICES_FUNCTION_NAME).toBeDefined();
    expect(worker.RENDER_NOTICES_FUNCTION_NAME).toEqual(render.RENDER_NOTICES_FUNCTION_NAME);
  });

  it('hands quota notices to a render-notices function, the only other one it may invoke', () => {
    const [, render] = renderFunction();
    const [noticesId, notices] = ofType('AWS::Lambda::Function').find(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('"FEATURE":"render-notices"'),
    )!;
    const [shotId] = ofType('AWS::Lambda::Function').find(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('"FEATURE":"screenshot"'),
    )!;
    const roleOf = (fn: Resources[string]) =>
      (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
    const statementsOf = (roleId: string) =>
      ofType('AWS::IAM::Policy')
        .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
        .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    // The render role: lambda:InvokeFunction on that function's ARN (no `:*`, no other
    // function but the screenshot one; CDK merges both into one statement), and its name in
    // the environment.
    const invoke = statementsOf(roleOf(render)).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('lambda:')),
    );
    expect(invoke.flatMap((s) => [s.Action].flat())).toEqual(['lambda:InvokeFunction']);
    expect(invoke.flatMap((s) => [s.Resource].flat())).toEqual([
      { 'Fn::GetAtt': [noticesId, 'Arn'] },
      { 'Fn::GetAtt': [shotId, 'Arn'] },
    ]);
    const renderEnv = (render.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(renderEnv.RENDER_NOTICES_FUNCTION_NAME).toEqual({ Ref: noticesId });
    // The notifier's role: GetItem and PutItem on the table (no index, no condition needed: it
    // writes whole notification items), and its logs; no mail without a mail domain.
    const statements = statementsOf(roleOf(notices));
    expect(statements.map((s) => [s.Action].flat().join(',')).sort()).toEqual([
      'dynamodb:GetItem,dynamodb:PutItem',
      'logs:CreateLogStream,logs:PutLogEvents',
    ]);
    const env = (notices.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(env).toMatchObject({ STAGE: 'aws', MAIL_TRANSPORT: 'off' });
    expect(env.TABLE_NAME).toBeDefined();
    // Not retried: a failed notice could otherwise reach the owner twice.
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: noticesId },
      MaximumRetryAttempts: 0,
    });
    // Nobody else may invoke it: no resource policy on the function.
    expect(
      ofType('AWS::Lambda::Permission').filter(([, p]) =>
        JSON.stringify(p.Properties.FunctionName).includes(noticesId),
      ),
    ).toEqual([]);
  });

  it('keys the render cache on all query strings, no cookies, no headers', () => {
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        MinTTL: 0,
        MaxTTL: 365 * 24 * 3600,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'all' },
          CookiesConfig: { CookieBehavior: 'none' },
          HeadersConfig: { HeaderBehavior: 'none' },
        }),
      }),
    });
  });

  it('counts renders per IP in a CLOUDFRONT WebACL and tells the origin, never blocking an image', () => {
    expect(stack.region).toBe('us-east-1');
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'RenderRatePerIp',
          Action: {
            Count: {
              CustomRequestHandling: {
                InsertHeaders: [{ Name: 'picsnippets-rate', Value: 'exceeded' }],
              },
            },
          },
          Statement: {
            RateBasedStatement: Match.objectLike({
              AggregateKeyType: 'IP',
              // Renders and rule links alike.
              ScopeDownStatement: {
                OrStatement: {
                  Statements: [
                    {
                      ByteMatchStatement: Match.objectLike({
                        PositionalConstraint: 'STARTS_WITH',
                        SearchString: '/r/',
                      }),
                    },
                    {
                      ByteMatchStatement: Match.objectLike({
                        PositionalConstraint: 'STARTS_WITH',
                        SearchString: '/l/',
                      }),
                    },
                  ],
                },
              },
            }),
          },
        }),
      ]),
    });
    template.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: Match.objectLike({
        HeadersConfig: {
          HeaderBehavior: 'whitelist',
          Headers: [
            'User-Agent',
            'CloudFront-Viewer-Address',
            'CloudFront-Viewer-Country',
            'CloudFront-Viewer-Latitude',
            'CloudFront-Viewer-Longitude',
          ],
        },
        QueryStringsConfig: { QueryStringBehavior: 'all' },
      }),
    });
  });

  // Mutation check: without the RenderRatePerProxyAddress rule in infra/constructs/render.ts
  // this fails (a proxy address's budget would again be per container only).
  it('counts a mail-proxy address’s renders at the edge, for every container at once', () => {
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'RenderRatePerProxyAddress',
          Action: {
            Count: {
              CustomRequestHandling: {
                InsertHeaders: [{ Name: 'picsnippets-proxy-rate', Value: 'exceeded' }],
              },
            },
          },
          Statement: {
            RateBasedStatement: Match.objectLike({
              AggregateKeyType: 'IP',
              EvaluationWindowSec: 300,
              Limit: PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN,
            }),
          },
        }),
      ]),
    });
    expect(PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN).toBe(
      DEFAULT_LIMITS.perProxyAddress.ratePerSecond * 300,
    );
  });

  // Mutation check: without the SensitiveRatePerIp rule in infra/constructs/render.ts this fails.
  it('limits sign-in, registration, reset mails, coupons, the tax preview and poll votes per IP', () => {
    interface ByteMatch {
      ByteMatchStatement: { SearchString: string; PositionalConstraint: string };
    }
    interface Rule {
      Name: string;
      Priority: number;
      Action?: unknown;
      Statement: {
        RateBasedStatement: Record<string, unknown> & {
          ScopeDownStatement: { OrStatement: { Statements: ByteMatch[] } };
        };
      };
    }
    const acl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0] as {
      Properties: { Rules: Rule[] };
    };
    const rule = acl.Properties.Rules.find((r) => r.Name === 'SensitiveRatePerIp')!;
    expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: SENSITIVE_REQUESTS_PER_IP_PER_5_MIN,
      EvaluationWindowSec: 300,
    });
    const matched = rate.ScopeDownStatement.OrStatement.Statements.map(
      (s) => `${s.ByteMatchStatement.PositionalConstraint} ${s.ByteMatchStatement.SearchString}`,
    );
    expect(matched.sort()).toEqual([
      'EXACTLY /api/polls/vote',
      'EXACTLY /login',
      'EXACTLY /password/email',
      'EXACTLY /tax-rate',
      'STARTS_WITH /coupon/',
      'STARTS_WITH /register',
    ]);
    const priorities = acl.Properties.Rules.map((r) => r.Priority);
    expect(new Set(priorities).size).toBe(priorities.length);
  });
});

describe('edge', () => {
  interface Behavior {
    PathPattern?: string;
    TargetOriginId: string;
    AllowedMethods?: string[];
    CachePolicyId: unknown;
    OriginRequestPolicyId?: unknown;
    FunctionAssociations?: Array<{ EventType: string; FunctionARN: unknown }>;
  }
  const config = (): {
    DefaultCacheBehavior: Behavior;
    CacheBehaviors: Behavior[];
    Origins: Array<{ Id: string; S3OriginConfig?: unknown; OriginAccessControlId?: unknown }>;
    HttpVersion: string;
    WebACLId: unknown;
    Logging: unknown;
  } => {
    const [[, d]] = ofType('AWS::CloudFront::Distribution') as [[string, Resources[string]]];
    return d.Properties.DistributionConfig as ReturnType<typeof config>;
  };
  const behavior = (path: string): Behavior => {
    const found = config().CacheBehaviors.find((b) => b.PathPattern === path);
    expect(found, `behaviour ${path}`).toBeDefined();
    return found!;
  };
  const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

  it('serves the SPA from S3 through OAC by default, routed by the generated function', () => {
    const c = config();
    const web = c.Origins.find((o) => o.Id === c.DefaultCacheBehavior.TargetOriginId)!;
    expect(web.S3OriginConfig).toBeDefined();
    expect(web.OriginAccessControlId).toBeDefined();
    expect(c.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: ALL_METHODS,
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      FunctionAssociations: [{ EventType: 'viewer-request' }],
    });
    expect(c.Origins.map((o) => o.Id)).toContain(API_ORIGIN_ID);
  });

  it('sends /api/* and /stripe/webhook to the HTTP API, uncached, all methods', () => {
    for (const path of ['/api/*', '/stripe/webhook']) {
      expect(behavior(path)).toMatchObject({
        TargetOriginId: API_ORIGIN_ID,
        AllowedMethods: ALL_METHODS,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      });
    }
  });

  it('normalises a rule link’s query as its image’s: /l/* runs the same viewer function', () => {
    expect(behavior('/l/*').FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: {
          'Fn::GetAtt': [expect.stringMatching(/^RenderQueryNormaliser/), 'FunctionARN'],
        },
      },
    ]);
  });

  it('sends /r/* to the render function URL with the render cache policy and normaliser', () => {
    const r = behavior('/r/*');
    const origin = config().Origins.find((o) => o.Id === r.TargetOriginId)!;
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(JSON.stringify(r.CachePolicyId)).toContain('RenderCachePolicy');
    // The viewer's address and user agent reach the origin (render limits), never Host.
    expect(JSON.stringify(r.OriginRequestPolicyId)).toContain('RenderOriginRequestPolicy');
    expect(r.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: {
          'Fn::GetAtt': [expect.stringMatching(/^RenderQueryNormaliser/), 'FunctionARN'],
        },
      },
    ]);
  });

  it('sends /l/* (rule links) to the render function uncached, with the viewer headers', () => {
    const l = behavior('/l/*');
    expect(l.TargetOriginId).toBe(behavior('/r/*').TargetOriginId);
    expect(l.CachePolicyId).toBe(CACHING_DISABLED);
    expect(JSON.stringify(l.OriginRequestPolicyId)).toContain('RenderOriginRequestPolicy');
    expect(l.AllowedMethods).toEqual(['GET', 'HEAD']);
  });

  it('caches /assets/* long from S3', () => {
    const a = behavior('/assets/*');
    expect(a.TargetOriginId).toBe(config().DefaultCacheBehavior.TargetOriginId);
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({ DefaultTTL: 365 * 24 * 3600 }),
    });
  });

  it('caches the web-tracking script /js/* from the API by ?v= only, up to a year', () => {
    const js = behavior('/js/*');
    expect(js).toMatchObject({ TargetOriginId: API_ORIGIN_ID, AllowedMethods: ['GET', 'HEAD'] });
    expect(js.OriginRequestPolicyId).toBeUndefined();
    const policyId = (js.CachePolicyId as { Ref: string }).Ref;
    expect(policyId).toMatch(/^WebScriptsCachePolicy/);
    const policy = resources[policyId]!.Properties.CachePolicyConfig as {
      MaxTTL: number;
      ParametersInCacheKeyAndForwardedToOrigin: Record<string, unknown>;
    };
    expect(policy.MaxTTL).toBe(365 * 24 * 3600);
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
      QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['v'] },
      CookiesConfig: { CookieBehavior: 'none' },
    });
  });

  it('uses HTTP/2+3, the WebACL, access logs and security headers', () => {
    const c = config();
    expect(c.HttpVersion).toBe('http2and3');
    expect(c.WebACLId).toBeDefined();
    expect(c.Logging).toBeDefined();
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ IncludeSubdomains: true }),
          ContentTypeOptions: Match.anyValue(),
          FrameOptions: Match.objectLike({ FrameOption: 'SAMEORIGIN' }),
          ReferrerPolicy: Match.anyValue(),
        }),
      }),
    });
  });
});

describe('fonts from the fontsource CDN (docs/fonts.md)', () => {
  /** FEATURE → FONT_CDN_URL of every Lambda of a template. */
  const fontCdnByFeature = (of: Template): Record<string, unknown> =>
    Object.fromEntries(
      Object.values(of.findResources('AWS::Lambda::Function')).map((fn) => {
        const env = (fn as { Properties: { Environment: { Variables: Record<string, unknown> } } })
          .Properties.Environment.Variables;
        return [env.FEATURE as string, env.FONT_CDN_URL];
      }),
    );
  const joined = (value: unknown): string | undefined => {
    if (value === undefined || typeof value === 'string') return value;
    const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    return join ? join[1].map((part) => joined(part) ?? '').join(join[0]) : '<ref>';
  };
  const spaPolicy = (of: Template): string => {
    const policies = Object.values(of.findResources('AWS::CloudFront::ResponseHeadersPolicy'))
      .map(
        (p) =>
          (
            p as {
              Properties: {
                ResponseHeadersPolicyConfig: {
                  SecurityHeadersConfig?: {
                    ContentSecurityPolicy?: { ContentSecurityPolicy: unknown };
                  };
                };
              };
            }
          ).Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig?.ContentSecurityPolicy
            ?.ContentSecurityPolicy,
      )
      // The assets bucket's origin is a reference (test/infra/send-list-uploads.test.ts): `<ref>`.
      .map(joined)
      .filter((csp): csp is string => csp?.includes("script-src 'self'") === true);
    expect(policies).toHaveLength(1);
    return policies[0]!;
  };

  it('hands the render and fonts functions the CDN base, and no other function', () => {
    const byFeature = fontCdnByFeature(template);
    expect(byFeature.render).toBe(FONTSOURCE_CDN_URL);
    expect(byFeature.fonts).toBe(FONTSOURCE_CDN_URL);
    // The send-list worker renders with the render function's code (docs/send-lists.md).
    expect(byFeature['send-lists-worker']).toBe(FONTSOURCE_CDN_URL);
    const others = Object.entries(byFeature).filter(
      ([f, url]) =>
        f !== 'render' && f !== 'fonts' && f !== 'send-lists-worker' && url !== undefined,
    );
    expect(others).toEqual([]);
  });

  it('lets SPA documents load fonts from the CDN’s font path only', () => {
    const fontSrc = spaPolicy(template)
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('font-src '));
    expect(fontSrc).toBe(`font-src 'self' data: ${FONTSOURCE_CDN_URL}/`);
  });

  it('serves the hosted families only with context fontCdnUrl empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'picsnippets-cdk-nocdn-'));
    try {
      const off = createApp(
        {
          outdir: dir,
          context: {
            ...CDK_JSON_CONTEXT,
            'aws:cdk:bundling-stacks': [],
            '@aws-cdk/core:failSynthOnValidationErrors': false,
            fontCdnUrl: '',
          },
        },
        { apiArch: 'x64', env: { account: undefined }, alarmEmail: 'ops@example.com' },
      );
      const offTemplate = Template.fromStack(off.stack);
      expect(Object.values(fontCdnByFeature(offTemplate)).filter(Boolean)).toEqual([]);
      expect(spaPolicy(offTemplate)).toContain("font-src 'self' data:;");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a CDN base that is not https before anything is built', () => {
    expect(() =>
      createApp(
        { context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } },
        { apiArch: 'x64', fontCdnUrl: 'http://cdn.example/fonts' },
      ),
    ).toThrow(/must be https/);
  });
});

describe('render concurrency (docs/infra.md "Render concurrency")', () => {
  it('reserves the render function’s concurrency only when context renderConcurrency says so', () => {
    const renderFunction = (t: Template) =>
      Object.values(t.findResources('AWS::Lambda::Function')).find((r) =>
        String((r as { Properties: { Description?: string } }).Properties.Description).startsWith(
          'PicSnippets render URL',
        ),
      ) as { Properties: { ReservedConcurrentExecutions?: number } };
    expect(renderFunction(template).Properties.ReservedConcurrentExecutions).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'picsnippets-cdk-concurrency-'));
    try {
      const reserved = createApp(
        {
          outdir: dir,
          context: {
            ...CDK_JSON_CONTEXT,
            'aws:cdk:bundling-stacks': [],
            '@aws-cdk/core:failSynthOnValidationErrors': false,
            // As `cdk deploy -c renderConcurrency=200` passes it: a string.
            renderConcurrency: '200',
          },
        },
        { apiArch: 'x64', env: { account: undefined }, alarmEmail: 'ops@example.com' },
      );
      expect(
        renderFunction(Template.fromStack(reserved.stack)).Properties.ReservedConcurrentExecutions,
      ).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() =>
      createApp(
        {
          context: {
            ...CDK_JSON_CONTEXT,
            'aws:cdk:bundling-stacks': [],
            renderConcurrency: 'lots',
          },
        },
        { apiArch: 'x64' },
      ),
    ).toThrow('Context renderConcurrency must be a whole number from 1 to 10000.');
  });
});

describe('cdk-nag (AwsSolutions) and CDK warnings', () => {
  interface Report {
    pluginReports: Array<{
      pluginName: string;
      violations: Array<{
        ruleName: string;
        severity: string;
        violatingConstructs?: Array<{ constructPath: string }>;
      }>;
    }>;
  }

  it('leaves no unacknowledged finding, error or warning', () => {
    // cdk-nag 3 reports through CDK's validation framework (validation-report.json in the cloud
    // assembly), not through annotations, so this reads the report.
    const report = JSON.parse(
      readFileSync(join(outdir, 'validation-report.json'), 'utf8'),
    ) as Report;
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.map(
        (v) =>
          `${p.pluginName} ${v.severity} ${v.ruleName} ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`,
      ),
    );
    expect(findings).toEqual([]);
  });

  it('ran the AwsSolutions pack: a deliberately open bucket in a probe stack is flagged', () => {
    const probeOut = mkdtempSync(join(tmpdir(), 'picsnippets-nag-probe-'));
    try {
      const probe = createApp(
        {
          outdir: probeOut,
          context: {
            ...CDK_JSON_CONTEXT,
            'aws:cdk:bundling-stacks': [],
            '@aws-cdk/core:failSynthOnValidationErrors': false,
          },
        },
        { apiArch: 'x64', env: { account: undefined }, alarmEmail: 'ops@example.com' },
      );
      // No TLS rule, no access logs: AwsSolutions-S1 and -S10 must name it. Mutation check (run):
      // without the pack added in infra/stack.ts, nothing is flagged and this fails.
      new s3.Bucket(new Stack(probe.app, 'NagProbe'), 'OpenBucket');
      probe.app.synth();
      const report = JSON.parse(
        readFileSync(join(probeOut, 'validation-report.json'), 'utf8'),
      ) as Report;
      const flagged = report.pluginReports.flatMap((p) =>
        p.violations
          .filter((v) =>
            (v.violatingConstructs ?? []).some((c) => c.constructPath.startsWith('NagProbe/')),
          )
          .map((v) => v.ruleName),
      );
      expect(flagged).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
    } finally {
      rmSync(probeOut, { recursive: true, force: true });
    }
  });

  it('has no CDK error or warning annotation', () => {
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });
});

describe('what each function may do (reviewed here, in place of a template snapshot)', () => {
  const TABLE =
    'DataTable DataTable/index/gsi1 DataTable/index/gsi2 DataTable/index/gsi3 DataTable/index/gsi4 DataTable/index/gsi5';
  const TABLE_READ = `dynamodb:BatchGetItem,dynamodb:ConditionCheckItem,dynamodb:DescribeTable,dynamodb:GetItem,dynamodb:Query,dynamodb:Scan @ ${TABLE}`;
  const TABLE_READ_WRITE = `dynamodb:BatchGetItem,dynamodb:BatchWriteItem,dynamodb:ConditionCheckItem,dynamodb:DeleteItem,dynamodb:DescribeTable,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:Scan,dynamodb:UpdateItem @ ${TABLE}`;
  const ASSETS_LIST = 's3:ListBucket @ DataAssetsBucket';
  const ASSETS_READ_WRITE =
    's3:AbortMultipartUpload,s3:DeleteObject,s3:GetObject,s3:PutObject @ DataAssetsBucket/*';
  /** The edge's header (functions/lib/origin-verify.ts), read once per cold start. */
  const ORIGIN_VERIFY = [
    'secretsmanager:DescribeSecret,secretsmanager:GetSecretValue @ ApiOriginVerify',
    'ssm:GetParameters @ :parameter/aws/reference/secretsmanager/<name of ApiOriginVerify>',
  ];
  const logs = (group: string) => `logs:CreateLogStream,logs:PutLogEvents @ ${group}`;
  /** Queueing webhook events (infra/constructs/webhooks.ts WEBHOOK_EMITTERS). */
  const WEBHOOK_EMIT = 'sqs:SendMessage @ WebhooksQueue';
  /**
   * A watermark or plan change: the team's renders invalidated at once and the second pass
   * queued (infra/constructs/render-invalidations.ts RENDER_INVALIDATORS).
   */
  const RENDER_INVALIDATION = [
    'cloudfront:CreateInvalidation @ WebDistribution',
    'sqs:SendMessage @ RenderInvalidationsQueue',
  ];
  /** Both: a webhook emitter that changes plans (one merged statement). */
  const RENDER_INVALIDATION_AND_WEBHOOK_EMIT = [
    'cloudfront:CreateInvalidation @ WebDistribution',
    'sqs:SendMessage @ RenderInvalidationsQueue WebhooksQueue',
  ];

  /** Memory (MB), timeout (s) and every IAM statement, by function. */
  const EXPECTED: Record<string, { memory: number; timeout: number; iam: string[] }> = {
    render: {
      memory: 3008,
      timeout: 25,
      iam: [
        TABLE_READ,
        // Recipients' first opens of countdown timers (one conditioned statement).
        'dynamodb:PutItem @ DataTable',
        // The view counter, the teams' month usage and the fallback counts (three conditioned
        // statements).
        'dynamodb:UpdateItem @ DataTable',
        'dynamodb:UpdateItem @ DataTable',
        'dynamodb:UpdateItem @ DataTable',
        // The screenshot and render-notices functions, nothing else.
        'lambda:InvokeFunction @ RenderNoticesFunction RenderScreenshotFunction',
        logs('RenderHandlerLogs'),
        's3:GetObject @ DataAssetsBucket/*',
        's3:GetObject,s3:PutObject @ DataRendersBucket/data-api/* DataRendersBucket/renders/* DataRendersBucket/screenshots/*',
        's3:ListBucket @ DataAssetsBucket DataRendersBucket',
        's3:PutObject @ DataAssetsBucket/static-layers/*',
        // Opens teams' render signing secrets (docs/developer-api.md "Signed render URLs").
        'kms:Decrypt @ SecretsKey',
      ],
    },
    screenshot: { memory: 2048, timeout: 20, iam: [logs('RenderScreenshotLogs')] },
    // The render quota notices (docs/security.md "Render limits"): the team, its owner and the
    // address's suppression read, one notification written; mail only with a mail domain
    // (test/infra/email.test.ts).
    'render-notices': {
      memory: 256,
      timeout: 30,
      iam: ['dynamodb:GetItem,dynamodb:PutItem @ DataTable', logs('RenderNoticesLogs')],
    },
    // The daily snapshot (docs/kiosk.md): scans and queries, and new snapshot items only.
    // The hourly analytics roll-up (infra/constructs/analytics.ts): Athena in its workgroup, the
    // log table, the log and the results under their prefixes, designs by public id, and
    // reads and writes of its own items (a LeadingKeys condition, asserted in "campaign
    // analytics"): the roll-ups, and the optimised splits it reweighs.
    'analytics-rollup': {
      memory: 512,
      timeout: 600,
      iam: [
        'athena:GetQueryExecution,athena:GetQueryResults,athena:StartQueryExecution @ AnalyticsWorkGroup',
        'dynamodb:BatchWriteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query @ DataTable',
        'dynamodb:Query @ DataTable/index/gsi2',
        'glue:GetDatabase,glue:GetPartitions,glue:GetTable @  AnalyticsDatabase AnalyticsDatabase/cdn_log',
        logs('AnalyticsFunctionLogs'),
        's3:AbortMultipartUpload,s3:GetObject,s3:PutObject @ DataLogsBucket/athena-results/*',
        's3:GetBucketLocation,s3:ListBucket @ DataLogsBucket',
        's3:GetObject @ DataLogsBucket/cdn/*',
      ],
    },
    'kiosk-snapshot': {
      memory: 512,
      timeout: 120,
      iam: [
        'dynamodb:PutItem @ DataTable',
        'dynamodb:Query,dynamodb:Scan @ DataTable DataTable/index/gsi1',
        logs('KioskSnapshotFunctionLogs'),
      ],
    },
    system: {
      memory: 512,
      timeout: 15,
      iam: [
        'dynamodb:DescribeTable @ DataTable DataTable/index/gsi1 DataTable/index/gsi2 DataTable/index/gsi3 DataTable/index/gsi4 DataTable/index/gsi5',
        logs('ApiSystemLogs'),
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    designs: {
      memory: 1536,
      timeout: 29,
      iam: [
        'cloudfront:CreateInvalidation @ WebDistribution',
        TABLE_READ_WRITE,
        logs('ApiDesignsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        // Opens the team's signing secret to sign a render URL.
        'kms:Decrypt @ SecretsKey',
        WEBHOOK_EMIT,
        // The editor's live-crop preview: pages open in the screenshot function only, and the
        // crops are cached with the render's (the screenshot cache only).
        'lambda:InvokeFunction @ RenderScreenshotFunction',
        's3:GetObject,s3:PutObject @ DataRendersBucket/screenshots/*',
      ],
    },
    'text-snippets': {
      memory: 512,
      timeout: 15,
      iam: [
        'cloudfront:CreateInvalidation @ WebDistribution',
        TABLE_READ_WRITE,
        logs('ApiTextSnippetsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    templates: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiTemplatesLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    bundles: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiBundlesLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    images: {
      memory: 1536,
      timeout: 29,
      iam: [
        // A deleted upload is withdrawn: tagged and dropped from the edge (docs/security.md).
        'cloudfront:CreateInvalidation @ WebDistribution',
        TABLE_READ_WRITE,
        logs('ApiImagesLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        's3:PutObjectTagging @ DataAssetsBucket/files/*',
      ],
    },
    stickers: {
      memory: 1536,
      timeout: 29,
      iam: [
        // A deleted upload is withdrawn: tagged and dropped from the edge (docs/security.md).
        'cloudfront:CreateInvalidation @ WebDistribution',
        TABLE_READ_WRITE,
        logs('ApiStickersLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        's3:PutObjectTagging @ DataAssetsBucket/files/*',
      ],
    },
    fonts: {
      memory: 1536,
      timeout: 29,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiFontsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    auth: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        'kms:Decrypt,kms:GenerateDataKey @ SecretsKey',
        logs('ApiAuthLogs'),
        ...RENDER_INVALIDATION,
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/stripe/publishable-key :parameter/picsnippets/stripe/secret-key',
      ],
    },
    teams: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiTeamsLogs'),
        ...RENDER_INVALIDATION,
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        // Seals a new render signing secret.
        'kms:GenerateDataKey @ SecretsKey',
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/stripe/secret-key',
      ],
    },
    billing: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiBillingLogs'),
        ...RENDER_INVALIDATION_AND_WEBHOOK_EMIT,
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/stripe/publishable-key :parameter/picsnippets/stripe/secret-key',
      ],
    },
    'stripe-webhook': {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiStripeWebhookLogs'),
        ...RENDER_INVALIDATION_AND_WEBHOOK_EMIT,
        ...ORIGIN_VERIFY,
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/stripe/secret-key :parameter/picsnippets/stripe/webhook-secret',
      ],
    },
    'merge-tags': {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        'kms:Decrypt,kms:GenerateDataKey @ SecretsKey',
        logs('ApiMergeTagsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/keap/client-id :parameter/picsnippets/keap/client-secret',
      ],
    },
    kiosk: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiKioskLogs'),
        ...RENDER_INVALIDATION_AND_WEBHOOK_EMIT,
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        'ssm:GetParameter,ssm:GetParameters @ :parameter/picsnippets/stripe/secret-key',
      ],
    },
    notifications: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiNotificationsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    support: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiSupportLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
      ],
    },
    // Webhook endpoints (docs/developer-api.md "Webhooks"): secrets sealed under the secrets key,
    // the test event queued.
    webhooks: {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        'kms:Decrypt,kms:GenerateDataKey @ SecretsKey',
        logs('ApiWebhooksLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        WEBHOOK_EMIT,
      ],
    },
    // The delivery worker: the table (no index, no scan), secrets opened only, retries queued,
    // the queue's own receive and delete (the event source mapping); mail only with a mail
    // domain (test/infra/email.test.ts).
    'webhooks-worker': {
      memory: 256,
      timeout: 60,
      iam: [
        'dynamodb:BatchGetItem,dynamodb:BatchWriteItem,dynamodb:ConditionCheckItem,dynamodb:DeleteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:UpdateItem @ DataTable',
        'kms:Decrypt @ SecretsKey',
        logs('WebhooksWorkerLogs'),
        // The event source mapping's receive and delete, and retries sent back to the queue.
        'sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage,sqs:SendMessage @ WebhooksQueue',
      ],
    },
    // The second invalidation after a watermark or plan change: the team's design lists read
    // (no scan, no write), the distribution invalidated, the queue's own receive and delete.
    'render-invalidations-worker': {
      memory: 256,
      timeout: 30,
      iam: [
        'cloudfront:CreateInvalidation @ WebDistribution',
        `dynamodb:GetItem,dynamodb:Query @ ${TABLE}`,
        logs('RenderInvalidationsWorkerLogs'),
        'sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage,sqs:SendMessage @ RenderInvalidationsQueue',
      ],
    },
    // Send lists (docs/send-lists.md): the API function starts a job on the send-list queue.
    'send-lists': {
      memory: 512,
      timeout: 15,
      iam: [
        TABLE_READ_WRITE,
        logs('ApiSendListsLogs'),
        ASSETS_READ_WRITE,
        ASSETS_LIST,
        ...ORIGIN_VERIFY,
        'kms:Decrypt @ SecretsKey',
        'sqs:SendMessage @ SendListsQueue',
        // Warm capacity's scaling calls only with `-c warmCapacityMax` (test/infra/warm-capacity.test.ts).
      ],
    },
    // The send-list worker renders as the render function does (its reads, the render cache and
    // static layers), writes the lists' chunks, moves cursors and counters (no scan), queues
    // chunks on its own queue and tells the team's webhooks.
    'send-lists-worker': {
      memory: 3008,
      timeout: 300,
      iam: [
        `dynamodb:BatchGetItem,dynamodb:ConditionCheckItem,dynamodb:DescribeTable,dynamodb:GetItem,dynamodb:Query @ ${TABLE}`,
        // Its jobs and chunk cursors and the teams' month usage only (one conditioned statement).
        'dynamodb:PutItem,dynamodb:UpdateItem @ DataTable',
        logs('SendListsWorkerLogs'),
        'kms:Decrypt @ SecretsKey',
        's3:GetObject @ DataAssetsBucket/*',
        's3:GetObject,s3:PutObject @ DataRendersBucket/data-api/* DataRendersBucket/renders/* DataRendersBucket/screenshots/*',
        's3:ListBucket @ DataAssetsBucket DataRendersBucket',
        's3:PutObject @ DataAssetsBucket/send-lists/* DataAssetsBucket/static-layers/*',
        'lambda:InvokeFunction @ RenderNoticesFunction RenderScreenshotFunction',
        'sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage,sqs:SendMessage @ SendListsQueue',
        WEBHOOK_EMIT,
      ],
    },
    // The send-list dead letters' consumer: the job and the chunk's cursor (base table, no
    // scan), the chunk's rows for their line numbers, its own dead-letter queue, and the team's
    // webhooks told the job ended.
    'send-lists-dead-letters': {
      memory: 256,
      timeout: 30,
      iam: [
        'dynamodb:BatchGetItem,dynamodb:BatchWriteItem,dynamodb:ConditionCheckItem,dynamodb:DeleteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:UpdateItem @ DataTable',
        logs('SendListsDeadLetterWorkerLogs'),
        's3:GetObject @ DataAssetsBucket/send-lists/*',
        'sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage @ SendListsDeadLetters',
        WEBHOOK_EMIT,
      ],
    },
  };

  const TRACING = 'xray:PutTelemetryRecords,xray:PutTraceSegments @ *';

  it('gives every function the memory, timeout and grants reviewed here, and nothing more', () => {
    const actual = functionGrants(resources);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [feature, expected] of Object.entries(EXPECTED)) {
      // X-Ray (docs/infra.md "Observability"): every function traces but the screenshot one,
      // whose role reaches only its logs. The two actions have no resource-level permissions.
      const untraced =
        feature === 'screenshot' ||
        feature === 'kiosk-snapshot' ||
        feature === 'render-notices' ||
        feature === 'analytics-rollup';
      const iam = untraced ? expected.iam : [...expected.iam, TRACING];
      expect(actual[feature], feature).toEqual({ ...expected, iam: [...iam].sort() });
    }
  });
});

describe('observability (docs/infra.md "Observability")', () => {
  const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
  const alarmNamed = (fragment: string) =>
    alarms().find((a) => String(a.AlarmDescription).includes(fragment))!;

  it('alarms on the fallback rate, render p99, API 5xx, Lambda, webhook and DynamoDB errors', () => {
    // Eight here, and the webhook, send-list and render-invalidation dead-letter queues'
    // (infra/constructs/webhooks.ts, send-lists.ts, render-invalidations.ts).
    expect(alarms()).toHaveLength(11);
    const fallback = alarmNamed('fallback image');
    expect(fallback).toMatchObject({
      Threshold: ALARM_THRESHOLDS.renderFallbackPercent,
      EvaluationPeriods: 5,
      DatapointsToAlarm: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const metrics = JSON.stringify(fallback.Metrics);
    expect(metrics).toContain('"MetricName":"RenderFallback"');
    expect(metrics).toContain('"MetricName":"Render"');
    expect(metrics).toContain('"Namespace":"PicSnippets"');
    expect(alarmNamed('p99')).toMatchObject({
      MetricName: 'RenderMs',
      Namespace: 'PicSnippets',
      ExtendedStatistic: 'p99',
      Threshold: ALARM_THRESHOLDS.renderP99Ms,
    });
    expect(alarmNamed('5xx')).toMatchObject({ MetricName: '5xx', Namespace: 'AWS/ApiGateway' });
    expect(alarmNamed('throttled (concurrency)')).toMatchObject({ MetricName: 'Throttles' });
    expect(alarmNamed('Stripe webhook')).toMatchObject({
      MetricName: 'StripeWebhook',
      Dimensions: expect.arrayContaining([{ Name: 'outcome', Value: 'failed' }]),
    });
  });

  it('sends every alarm and its recovery to one encrypted topic, with the e-mail from context', () => {
    const topics = ofType('AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    const [topicId, topic] = topics[0]!;
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    }
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
  });

  it('has one dashboard with the alarms and the render metrics', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const text of ['Renders by cache outcome', 'RenderFallback', 'RenderMs', 'Alarms']) {
      expect(body).toContain(text);
    }
  });

  it('traces the API and render functions with X-Ray, not the screenshot function', () => {
    const fns = ofType('AWS::Lambda::Function').filter(([id]) => !id.includes('Custom'));
    const mode = (f: Resources[string]) =>
      (f.Properties.TracingConfig as { Mode?: string } | undefined)?.Mode;
    const traced = fns.filter(([, f]) => mode(f) === 'Active');
    const untraced = fns.filter(([, f]) => mode(f) !== 'Active');
    expect(untraced.map(([id]) => id).filter((id) => !id.startsWith('RenderScreenshot'))).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^(Api|RenderHandler)/)]),
    );
    // Every feature and the webhook, send-list (and its dead letters') and render-invalidation
    // workers.
    expect(traced.length).toBe(FEATURES.length + 4);
    expect(untraced.some(([id]) => id.startsWith('RenderScreenshot'))).toBe(true);
  });
});

describe('stages (docs/infra.md "Stages")', () => {
  it('names a second stage apart, with its own secrets path, and refuses a bad stage name', () => {
    const outdir2 = mkdtempSync(join(tmpdir(), 'picsnippets-cdk-stage-'));
    try {
      const { stack: staging } = createApp(
        {
          outdir: outdir2,
          context: {
            ...CDK_JSON_CONTEXT,
            'aws:cdk:bundling-stacks': [],
            '@aws-cdk/core:failSynthOnValidationErrors': false,
            stage: 'staging',
          },
        },
        { apiArch: 'x64', env: { account: undefined } },
      );
      expect(staging.stackName).toBe('PicSnippetsStack-staging');
      const env = JSON.stringify(
        Template.fromStack(staging).findResources('AWS::Lambda::Function'),
      );
      expect(env).toContain('/picsnippets/staging/stripe/secret-key');
      expect(env).not.toContain('"/picsnippets/stripe/secret-key"');
      expect(stack.stackName).toBe('PicSnippetsStack');
      expect(() => stackNameOf('Prod!')).toThrow('lower case letters');
    } finally {
      rmSync(outdir2, { recursive: true, force: true });
    }
  });
});

describe('the kiosk daily snapshot (docs/kiosk.md "Metrics and the daily snapshot")', () => {
  it('invokes the snapshot function once a day at 00:05 UTC, with bounded retries', () => {
    const schedules = ofType('AWS::Scheduler::Schedule').filter(([id]) =>
      id.startsWith('KioskSnapshot'),
    );
    expect(schedules).toHaveLength(1);
    const [, schedule] = schedules[0]!;
    expect(schedule.Properties.ScheduleExpression).toBe('cron(5 0 * * ? *)');
    expect(schedule.Properties.ScheduleExpressionTimezone ?? 'Etc/UTC').toBe('Etc/UTC');
    expect(schedule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    const target = schedule.Properties.Target as {
      Arn: unknown;
      RoleArn: unknown;
      RetryPolicy: { MaximumRetryAttempts: number; MaximumEventAgeInSeconds: number };
    };
    expect(target.RetryPolicy).toEqual({
      MaximumRetryAttempts: 3,
      MaximumEventAgeInSeconds: 6 * 3600,
    });
    const [fnId] = ofType('AWS::Lambda::Function').find(([, fn]) =>
      JSON.stringify(fn.Properties.Environment).includes('"FEATURE":"kiosk-snapshot"'),
    )!;
    expect(JSON.stringify(target.Arn)).toContain(fnId);
    // The scheduler's role may invoke that function and nothing else.
    const roleId = (target.RoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap(
        ([, p]) =>
          (
            p.Properties.PolicyDocument as {
              Statement: Array<{ Action: unknown; Resource: unknown }>;
            }
          ).Statement,
      );
    expect(statements.map((st) => st.Action)).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(statements[0]!.Resource)).toContain(fnId);
  });
});

describe('campaign analytics (docs/analytics.md)', () => {
  it('delivers the CDN access log to the logs bucket as Parquet, by hour, with the fields the roll-up reads', () => {
    template.hasResourceProperties('AWS::Logs::DeliverySource', { LogType: 'ACCESS_LOGS' });
    template.hasResourceProperties('AWS::Logs::DeliveryDestination', { OutputFormat: 'parquet' });
    template.hasResourceProperties('AWS::Logs::Delivery', {
      RecordFields: [...CDN_LOG_RECORD_FIELDS],
      S3SuffixPath: 'cdn/{yyyy}/{MM}/{dd}/{HH}',
    });
    // Every column the roll-up's SQL reads is delivered, under its Parquet name.
    expect(
      CDN_LOG_RECORD_FIELDS.map((f) => f.toLowerCase().replace(/[-(]/g, '_').replace(')', '')),
    ).toEqual([...CDN_LOG_FIELDS]);
    // Only the log delivery service writes there, for this account.
    const policy = ofType('AWS::S3::BucketPolicy').find(([id]) => id.startsWith('DataLogsBucket'))!;
    expect(JSON.stringify(policy[1].Properties.PolicyDocument)).toContain(
      'delivery.logs.amazonaws.com',
    );
  });

  it('reads it through a projected Athena table in a workgroup with a scan limit, every hour', () => {
    template.hasResourceProperties('AWS::Glue::Table', {
      TableInput: Match.objectLike({
        Name: 'cdn_log',
        Parameters: Match.objectLike({ 'projection.enabled': 'true' }),
      }),
    });
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      WorkGroupConfiguration: Match.objectLike({
        EnforceWorkGroupConfiguration: true,
        BytesScannedCutoffPerQuery: ROLLUP_SCAN_LIMIT_BYTES,
      }),
    });
    const hourly = ofType('AWS::Scheduler::Schedule').filter(([id]) => id.startsWith('Analytics'));
    expect(hourly.map(([, s]) => s.Properties.ScheduleExpression)).toEqual(['cron(20 * * * ? *)']);
  });

  // Mutation check: without the LeadingKeys condition the roll-up could overwrite or read any item.
  it('lets the roll-up read and write its own items only', () => {
    const statements = ofType('AWS::IAM::Policy')
      .filter(([id]) => id.startsWith('AnalyticsFunction'))
      .flatMap(
        ([, p]) =>
          (p.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement,
      );
    const writes = statements.filter((st) => JSON.stringify(st.Action).includes('PutItem'));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.Action).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']),
    );
    const tableWide = statements.filter(
      (st) =>
        JSON.stringify(st.Action).includes('dynamodb:') &&
        !JSON.stringify(st.Resource).includes('index'),
    );
    expect(tableWide).toEqual(writes);
    expect(writes[0]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['$picsnippets#analyticsdesign_*'] },
    });
  });
});

describe('webhook deliveries (docs/developer-api.md "Webhooks")', () => {
  it('has the webhooks queue with a dead-letter queue, both TLS-only, and an alarm on its depth', () => {
    const queues = ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('Webhooks'));
    const main = queues.find(([id]) => id.startsWith('WebhooksQueue'))![1];
    const dlq = queues.find(([id]) => id.startsWith('WebhooksDeadLetters'))!;
    expect(main.Properties.VisibilityTimeout).toBe(120);
    expect(main.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq[0], 'Arn'] },
      maxReceiveCount: 5,
    });
    for (const [, q] of queues) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = ofType('AWS::SQS::QueuePolicy').map(([, p]) => JSON.stringify(p.Properties));
    for (const [id] of queues)
      expect(policies.some((p) => p.includes(id) && p.includes('aws:SecureTransport'))).toBe(true);

    const alarm = ofType('AWS::CloudWatch::Alarm').find(([id]) =>
      id.startsWith('WebhooksDeadLettersAlarm'),
    )![1];
    expect(alarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(JSON.stringify(alarm.Properties.Dimensions)).toContain(dlq[0]);
    expect(JSON.stringify(alarm.Properties.AlarmActions)).toContain('MonitoringAlarmTopic');
  });

  it('invokes the worker from the queue with partial batch failures and a concurrency cap', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('WebhooksQueue'),
    );
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    expect(mapping.Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 4 },
    });
    expect(JSON.stringify(mapping.Properties.EventSourceArn)).toContain('WebhooksQueue');
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain('WebhooksWorker');
    // Only the functions whose code emits events are told the queue's URL.
    const told = ofType('AWS::Lambda::Function')
      .map(
        ([, fn]) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
      )
      .filter((v) => v.QUEUE_URL_WEBHOOKS !== undefined)
      .map((v) => v.FEATURE)
      .sort();
    expect(told).toEqual([
      'billing',
      'designs',
      'kiosk',
      'send-lists-dead-letters',
      'send-lists-worker',
      'stripe-webhook',
      'webhooks',
      'webhooks-worker',
    ]);
  });
});

describe('second render invalidations (docs/adr/0057-watermark.md "Watermark")', () => {
  it('runs the worker from its queue, with the distribution, told only to the plan and watermark changers', () => {
    const queues = ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('RenderInvalidations'));
    const main = queues.find(([id]) => id.startsWith('RenderInvalidationsQueue'))![1];
    const dlq = queues.find(([id]) => id.startsWith('RenderInvalidationsDeadLetters'))!;
    expect(main.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq[0], 'Arn'] },
      maxReceiveCount: 5,
    });
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('RenderInvalidationsQueue'),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]![1].Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    const envs = ofType('AWS::Lambda::Function').map(
      ([, fn]) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
    );
    const told = envs
      .filter((v) => v.QUEUE_URL_RENDER_INVALIDATIONS !== undefined)
      .map((v) => v.FEATURE)
      .sort();
    expect(told).toEqual(['auth', 'billing', 'kiosk', 'stripe-webhook', 'teams']);
    const worker = envs.find((v) => v.FEATURE === 'render-invalidations-worker')!;
    expect(worker.DISTRIBUTION_ID).toBeDefined();
  });
});

describe('send lists (docs/send-lists.md)', () => {
  it('has the send-list queue with a dead-letter queue, both TLS-only, and an alarm on its depth', () => {
    const queues = ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('SendLists'));
    const main = queues.find(([id]) => id.startsWith('SendListsQueue'))![1];
    const dlq = queues.find(([id]) => id.startsWith('SendListsDeadLetters'))!;
    expect(main.Properties).toMatchObject({
      VisibilityTimeout: 360,
      RedrivePolicy: { maxReceiveCount: 5 },
    });
    expect(JSON.stringify(main.Properties.RedrivePolicy)).toContain(dlq[0]);
    const alarm = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .find((a) => String(a.AlarmDescription).includes('Send-list messages'))!;
    expect(JSON.stringify(alarm.Dimensions)).toContain(dlq[0]);
    expect(alarm).toMatchObject({ Threshold: 1, MetricName: 'ApproximateNumberOfMessagesVisible' });
  });

  it('invokes a worker with reserved concurrency from the queue, with partial batch failures', () => {
    const [[, mapping]] = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('SendListsQueue'),
    ) as [[string, Resources[string]]];
    expect(mapping.Properties).toMatchObject({
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain('SendListsWorker');
    const worker = ofType('AWS::Lambda::Function').find(([id]) =>
      id.startsWith('SendListsWorker'),
    )![1];
    // Reserved: a campaign's list cannot take the account's concurrency from live renders.
    expect(worker.Properties.ReservedConcurrentExecutions).toBe(4);
    expect(worker.Properties.Architectures).toEqual(['x86_64']);
  });

  it('ends the jobs of dead letters: a consumer on the dead-letter queue, with partial batch failures', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('SendListsDeadLetters'),
    );
    expect(mappings).toHaveLength(1);
    const mapping = mappings[0]![1];
    expect(mapping.Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain('SendListsDeadLetterWorker');
    const consumer = ofType('AWS::Lambda::Function').find(([id]) =>
      id.startsWith('SendListsDeadLetterWorker'),
    )![1];
    const env = (consumer.Properties.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(env.FEATURE).toBe('send-lists-dead-letters');
    // SQS requires the function's timeout to fit in the queue's visibility timeout (30 s).
    expect(consumer.Properties.Timeout).toBeLessThanOrEqual(30);
    // The alarm on the dead-letter queue stays: a given-up chunk is still worth a look.
    expect(
      ofType('AWS::CloudWatch::Alarm').some(([id]) => id.startsWith('SendListsDeadLettersAlarm')),
    ).toBe(true);
  });

  it('puts Origin Shield in front of the render origin', () => {
    const distribution = ofType('AWS::CloudFront::Distribution')[0]![1];
    const origins = (
      distribution.Properties.DistributionConfig as {
        Origins: Array<{ Id: string; OriginShield?: unknown }>;
      }
    ).Origins;
    expect(origins.find((o) => o.Id === 'render')?.OriginShield).toEqual({
      Enabled: true,
      OriginShieldRegion: 'us-east-1',
    });
  });
});
