/**
 * The render service in AWS (docs/infra.md "What the stack creates"): the render Lambda with
 * headless Chromium, its IAM-authenticated function URL as a CloudFront origin with origin access
 * control, the cache policy and query-normalising function for `/r/*`, and the edge WebACL with the
 * per-IP render rate limit. The distribution itself is built in web.ts (one distribution for the
 * product).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, IgnoreMode, Stack } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  EDGE_PROXY_RATE_HEADER_NAME,
  EDGE_RATE_EXCEEDED,
  EDGE_RATE_HEADER_NAME,
  PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN,
} from '#shared/render-limits.ts';
import {
  HandlerFunction,
  PROJECT_ROOT,
  TABLE_READ,
  grantBucket,
  grantBucketPrefixes,
  grantTable,
} from './handler-function.ts';
import { NodeModulesLayer, lambdaArchitecture, type CpuArch } from './node-modules-layer.ts';
import { decryptFor } from './secret-grants.ts';

/**
 * What the render function writes to S3, by bucket: the render cache and the screenshot cache
 * (renders bucket; functions/render/cache-key.ts `renderCacheKey`, dynamic.ts `screenshot`), web
 * APIs' kept answers (renders bucket; docs/data-sources.md "Caching") and the static layers
 * (assets bucket; renderer.ts `staticLayerKey`).
 */
/** Where screenshots and web crops are cached in the renders bucket (functions/render/dynamic.ts). */
const SCREENSHOT_CACHE_PREFIX = 'screenshots/';

export const RENDER_WRITES = {
  renders: ['renders/', SCREENSHOT_CACHE_PREFIX, 'data-api/'],
  assets: ['static-layers/'],
} as const;

/**
 * The one table write of the render function: the view counter of a design item
 * (functions/designs/store.ts `recordDesignViews`). Its partition key (ElectroDB's
 * `$picsnippets#designid_…`) and the attributes the update names: the counter, the views sort
 * key, the list key its condition reads, and the entity markers ElectroDB sets on every update. A
 * render role cannot change a design's team, status, document or any other item.
 */
export const VIEW_COUNTER = {
  leadingKey: '$picsnippets#designid_*',
  attributes: [
    'pk',
    'sk',
    // Named in the update's condition when the item has a list key (it is read, not changed).
    'listKey',
    'counter',
    'listedViews',
    'gsi5sk',
    'designId',
    // Mail proxies' fetches, kept apart from opens (docs/performance.md "Opens and proxy fetches").
    'proxyFetches',
    '__edb_e__',
    '__edb_v__',
  ],
} as const;

/**
 * The render function's write of recipients' first opens, for evergreen countdown timers that
 * count from the first open (functions/lib/db/entities-first-open.ts `FirstOpen`;
 * docs/adr/0058-countdown-timers.md "Countdown timers"): a PutItem conditional on the item's
 * absence. Its partition key is apart from every other item's, so the `ttl` it sets can expire only
 * first opens.
 */
export const FIRST_OPEN = {
  leadingKey: '$picsnippets#opendesign_*',
  attributes: ['pk', 'sk', 'openDesign', 'recipient', 'openedAt', 'ttl', '__edb_e__', '__edb_v__'],
} as const;

/**
 * The render function's other table write: each team's renders this month
 * (functions/lib/db/entities-usage.ts `TeamRenderUsage`; docs/security.md "Render limits"): an
 * atomic ADD answered with the new total, and the conditional SETs that mark a quota notice.
 * Its partition key is apart from every other item's, and no `ttl` may be set.
 */
export const RENDER_USAGE = {
  leadingKey: '$picsnippets#usageteam_*',
  attributes: [
    'pk',
    'sk',
    'usageTeam',
    'month',
    'renders',
    'told80At',
    'told100At',
    '__edb_e__',
    '__edb_v__',
  ],
  returnValues: ['NONE', 'ALL_NEW'],
} as const;

/**
 * The render function's count of fallbacks served per design, hour and reason
 * (functions/lib/db/entities-analytics.ts `DesignFallbacks`; docs/analytics.md "Fallbacks"): an
 * atomic ADD that also sets the item's keys and `ttl`. Its partition key is apart from every
 * other item's, so that `ttl` can expire only fallback counts.
 */
export const FALLBACK_COUNTER = {
  leadingKey: '$picsnippets#fallbackdesign_*',
  attributes: [
    'pk',
    'sk',
    'fallbackDesign',
    'hour',
    'refused',
    'rateLimited',
    'overQuota',
    'failed',
    'ttl',
    '__edb_e__',
    '__edb_v__',
  ],
} as const;

/**
 * The render-notices function's table actions (functions/domain/render-quota-notice.ts): GetItem
 * of the team, its owner and the owner's address suppression, PutItem of one notification (a
 * conditional create). No query, no index, no update or delete: a subset of TABLE_READ and
 * TABLE_WRITE (handler-function.ts), on the table alone.
 */
export const RENDER_NOTICES_TABLE = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;
/** The render-notices function: two reads, a write and a mail; MB and s. */
export const RENDER_NOTICES_MEMORY_MB = 256;
export const RENDER_NOTICES_TIMEOUT = Duration.seconds(30);

/** The screenshot function: Chromium wants the render function's memory floor, MB. */
export const SCREENSHOT_MEMORY_MB = 2048;
/** Above the capture budget (functions/screenshot/capture.ts) plus a cold start. */
export const SCREENSHOT_TIMEOUT = Duration.seconds(20);

/** Where `npm run build:render` writes the render page (index.html + js). */
export const RENDER_PAGE_DIST = join(PROJECT_ROOT, 'functions', 'render', 'page', 'dist');

/**
 * The bundling hooks of every function that draws with the render page (the render function,
 * the send-list worker): the bundle gets `page/dist` beside it, and synth stops with a clear
 * message when `npm run build:render` has not built it.
 */
export const RENDER_PAGE_BUNDLING: nodejs.ICommandHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir: string, outputDir: string): string[] => [
    `test -f "${inputDir}/functions/render/page/dist/index.html" || { echo "render page missing: run npm run build:render" >&2; exit 1; }`,
    `mkdir -p "${outputDir}/page"`,
    `cp -R "${inputDir}/functions/render/page/dist" "${outputDir}/page/dist"`,
  ],
};

/**
 * The context flag that packages the render function as a container image with Chromium stored
 * unpacked (`cdk deploy -c renderImage=true`; docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md
 * "Fresh cold start: Chromium stored unpacked"). Unset: the zip with the browser layer, as before.
 */
export const RENDER_IMAGE_CONTEXT = 'renderImage';

/** The render image's Dockerfile, relative to the build context (the repository root). */
export const RENDER_DOCKERFILE = 'infra/render-image/Dockerfile';

/**
 * What of the repository the image's build reads (everything else is left out of the asset, so
 * its hash, and a rebuild, follow these files only): the lock files and patches for `npm ci`, the
 * TypeScript sources the bundle is built from, and the Dockerfile.
 */
export const RENDER_IMAGE_CONTEXT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'patches',
  'shared',
  'functions',
  'infra/render-image',
] as const;

/**
 * The render function's container image (docs/infra.md "What the stack creates"): built from
 * {@link RENDER_DOCKERFILE} for x86_64 ({@link CHROMIUM_ARCH}) with the repository root as its
 * context, less what {@link RENDER_IMAGE_CONTEXT_FILES} does not name.
 */
export function renderImageCode(): lambda.DockerImageCode {
  return lambda.DockerImageCode.fromImageAsset(PROJECT_ROOT, {
    file: RENDER_DOCKERFILE,
    platform: Platform.LINUX_AMD64,
    ignoreMode: IgnoreMode.DOCKER,
    exclude: [
      '*',
      ...RENDER_IMAGE_CONTEXT_FILES.map((f) => `!${f}`),
      '**/node_modules',
      'functions/render/page/node_modules',
    ],
  });
}

/** Whether the app asks for the image (`renderImage` context `true` or `"true"`). */
const wantsImage = (scope: Construct): boolean => {
  const value: unknown = scope.node.tryGetContext(RENDER_IMAGE_CONTEXT);
  return value === true || value === 'true';
};

/**
 * The CPU of the Chromium that `@sparticuz/chromium` ships on npm: its `bin/chromium.br` is an
 * x86-64 ELF (checked by test/infra: e_machine 0x3e). Its arm64 pack is only published on the
 * project's GitHub releases, which synth cannot fetch offline, so the render Lambda is x86_64.
 */
export const CHROMIUM_ARCH: CpuArch = 'x64';

/** Packages the render bundle leaves out and the layer ships (binaries and Chromium's packs). */
export const RENDER_EXTERNAL_MODULES = ['@sparticuz/chromium', 'puppeteer-core', 'sharp'];

/**
 * Memory, MB. Lambda gives CPU in proportion to memory; 3008 MB is about two vCPUs, so
 * Chromium's renderer and raster threads and libvips' encoder run side by side, and the warm
 * browser with a page holding fabric, fonts and the design's images (docs/infra.md "What the stack
 * creates": "warm browser, warm page") fits with headroom. @sparticuz/chromium asks for at least
 * 1600 MB.
 */
export const RENDER_MEMORY_MB = 3008;

/**
 * Per-request render budget before the fallback image is served, ms (functions/lib/config.ts
 * RENDER_TIMEOUT_MS; docs/infra.md "What the stack creates": "never a broken image").
 */
export const RENDER_BUDGET_MS = 8000;

/**
 * Lambda timeout. A cold start unpacks Chromium (~1-2 s), launches it and warms the page (a few
 * seconds); then the request has its RENDER_BUDGET_MS; the rest is margin for encoding and S3.
 * It stays below RENDER_ORIGIN_READ_TIMEOUT so the handler's own fallback answer always reaches
 * CloudFront before CloudFront would give up with a 504 (a broken image in an inbox).
 */
export const RENDER_TIMEOUT = Duration.seconds(25);

/** How long CloudFront waits for the render origin, s (its default and the quota's usual max). */
export const RENDER_ORIGIN_READ_TIMEOUT = Duration.seconds(30);

/** Chromium, its fonts and swiftshader unpack to /tmp, plus cached screenshots; MB. */
export const RENDER_EPHEMERAL_STORAGE_MB = 2048;

/**
 * Requests to `/r/*` one IP may make per 5 minutes before the WebACL labels it (docs/infra.md "What
 * the stack creates" "per-IP rate limit protects the render budget"). The rule counts and inserts a
 * header instead of blocking, because a 429 is a broken image in an inbox, and mail image proxies
 * (Gmail, Apple, Outlook) fetch for many recipients from a few addresses: the origin decides, with
 * a large budget for recognised proxies and none for other addresses past this count
 * (functions/render/service.ts, docs/security.md "Render limits"). Cached hits count too.
 */
export const RENDER_REQUESTS_PER_IP_PER_5_MIN = 3000;

/**
 * Requests one IP may make per 5 minutes to the calls that check passwords, send mail, reach
 * Stripe or count a poll's vote (`SENSITIVE_PATHS`) before the WebACL answers 429. A person signing in, registering or
 * trying a coupon makes a handful; the handlers' own per-address and per-account counters
 * (functions/lib/limits/attempts.ts) stop slower scripts (docs/security.md "Login throttling").
 */
export const SENSITIVE_REQUESTS_PER_IP_PER_5_MIN = 100;

/**
 * The paths of `SensitiveRatePerIp`: how each is matched (`EXACTLY` or `STARTS_WITH`, on the
 * URI path). `/register` as a prefix covers `/register/partner`; `/coupon/` every code look-up.
 */
export const SENSITIVE_PATHS: readonly { path: string; match: 'EXACTLY' | 'STARTS_WITH' }[] = [
  { path: '/login', match: 'EXACTLY' },
  { path: '/register', match: 'STARTS_WITH' },
  { path: '/password/email', match: 'EXACTLY' },
  { path: '/coupon/', match: 'STARTS_WITH' },
  { path: '/tax-rate', match: 'EXACTLY' },
  // A poll's vote: public, and each one writes the table (docs/polls.md "Abuse"); the
  // function's own allowance per address (120 an hour) is the finer limit.
  { path: '/api/polls/vote', match: 'EXACTLY' },
];

/**
 * Viewer-request function for `/r/*` (cloudfront-js-2.0): rebuilds the query string with the
 * parameters sorted by name (values of a repeated name keep their order) and parameters with an
 * empty name dropped, so that `?b=2&a=1` and `?a=1&b=2` share one cache entry (docs/infra.md "What
 * the stack creates" "cache key: path plus all query strings, normalised").
 *
 * A parameter with an empty value that follows another (in the order of the URL, as CloudFront
 * lists them) is written right after it without `=`: an e-mail platform that wrote
 * `first_name=Tom & Jerry` unencoded sent ` Jerry` as a segment of its own, which sorting would
 * have moved away from `Tom ` (and `=` would have made it a parameter). The origin glues such a
 * bare segment back onto the value before it, unless it is one of the design's parameter names
 * (then it is that parameter, empty: CloudFront cannot tell `last_name` from `last_name=`).
 * docs/adr/0054-signed-render-urls.md "Signed render URLs"; test/infra/router-function.test.ts.
 *
 * Undeclared parameters are not dropped here: which parameters a design declares is known only
 * at the origin, which ignores the others and cuts values to 255 characters (docs/infra.md "What
 * the stack creates" "abuse limits").
 */
export const RENDER_QUERY_NORMALISER_CODE = `function handler(event) {
  // Generated by infra/constructs/render.ts, after AWS's published normalisation example.
  // Undeclared parameters are dropped at the origin, which knows the design's parameters.
  const request = event.request;
  const query = request.querystring;
  const keys = Object.keys(query);
  const groups = [];
  let current = null;
  for (let i = 0; i < keys.length; i++) {
    const name = keys[i];
    if (name === '') continue;
    const entry = query[name];
    if (current !== null && !entry.multiValue && entry.value === '') {
      current.tail += '&' + name;
      continue;
    }
    const values = entry.multiValue ? entry.multiValue : [entry];
    const pairs = [];
    for (let j = 0; j < values.length; j++) pairs.push(name + '=' + values[j].value);
    current = { name: name, text: pairs.join('&'), tail: '' };
    groups.push(current);
  }
  groups.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = [];
  for (let i = 0; i < groups.length; i++) out.push(groups[i].text + groups[i].tail);
  request.querystring = out.join('&');
  return request;
}
`;

export interface RenderProps {
  table: dynamodb.ITable;
  assets: s3.Bucket;
  renders: s3.Bucket;
  /** `https://…` of the product when a custom domain is configured; see Render docs. */
  publicUrl?: string;
  /**
   * The fontsource CDN's font files base (`FONT_CDN_URL`): the function fetches catalogue
   * families from it for the page (functions/render/fonts.ts); absent, hosted families only.
   */
  fontCdnUrl?: string;
  /**
   * Reserved concurrency of the render function (docs/infra.md "Render concurrency"): at most
   * this many containers draw at once, which bounds the per-container budgets (draws and
   * open-time work a second per address, per proxy address and per design) across containers
   * to this many times their rate, and keeps a render storm from starving the API. Absent: none
   * reserved (a new account's 10 concurrent executions leave no room for it).
   */
  reservedConcurrency?: number;
}

/**
 * The alias the render URL invokes and warm capacity scales (docs/send-lists.md "Warm capacity
 * before a send"): provisioned concurrency is set on an alias, never on `$LATEST`.
 */
export const RENDER_ALIAS = 'live';

/** Application Auto Scaling's service-linked role for Lambda provisioned concurrency. */
const LAMBDA_SCALING_SERVICE = 'lambda.application-autoscaling.amazonaws.com';

/**
 * The render service's resources (docs/infra.md "What the stack creates"):
 * - `fn`: `functions/render/handler.ts`, x86_64 (CHROMIUM_ARCH), RENDER_MEMORY_MB, RENDER_TIMEOUT,
 *   Chromium, puppeteer-core and sharp from a layer assembled from node_modules; the render page
 *   (`functions/render/page/dist`) copied to `page/dist` beside the bundle, the same place
 *   relative to the handler as in the source tree;
 * - grants: renders bucket read/write (the render cache), assets bucket read and put (design
 *   images, fonts; the static layers drawn once per design version), table read plus UpdateItem
 *   (the view counter, docs/infra.md "What the stack creates");
 * - `functionUrl` with IAM auth, reachable only through CloudFront's origin access control;
 * - `cachePolicy`, `queryNormaliser` and `webAcl` for the distribution in web.ts.
 *
 * `PUBLIC_URL` is set only when `publicUrl` is given: the distribution's own domain cannot be
 * passed to the function it fronts (the template would have a cycle: function → distribution →
 * function URL → function).
 * @throws Error at synth when bundling and `functions/render/page/dist` does not exist.
 */
export class Render extends Construct {
  readonly fn: lambda.IFunction;
  readonly handler: HandlerFunction;
  /** The screenshot function the render function invokes for screenshot stickers. */
  readonly screenshot: HandlerFunction;
  /**
   * The render-notices function the render function invokes (asynchronously) to tell a team's
   * owner of its render quota; infra/stack.ts lets it mail (infra/constructs/email.ts).
   */
  readonly notices: HandlerFunction;
  /** {@link RENDER_ALIAS} on the function's current version; the render URL invokes it. */
  readonly alias: lambda.Alias;
  readonly functionUrl: lambda.FunctionUrl;
  readonly origin: cloudfront.IOrigin;
  readonly cachePolicy: cloudfront.CachePolicy;
  /**
   * What `/r/*` and `/l/*` forward besides the cache key: the viewer's address, user agent and
   * country.
   */
  readonly originRequestPolicy: cloudfront.OriginRequestPolicy;
  readonly queryNormaliser: cloudfront.Function;
  readonly webAcl: wafv2.CfnWebACL;
  /** The browser layer (@sparticuz/chromium, puppeteer-core, sharp), shared with the send-list worker. */
  readonly browserLayer: lambda.ILayerVersion;
  /** The renders bucket, whose screenshot cache {@link grantScreenshots} shares. */
  private readonly renders: s3.Bucket;

  constructor(scope: Construct, id: string, props: RenderProps) {
    super(scope, id);
    this.renders = props.renders;

    if (Stack.of(this).bundlingRequired && !existsSync(join(RENDER_PAGE_DIST, 'index.html'))) {
      throw new Error(
        `The render page is not built: ${RENDER_PAGE_DIST}/index.html is missing. ` +
          'Run `npm run build:render` (or `npm run build`) before `cdk synth`/`cdk deploy`.',
      );
    }

    const layer = (this.browserLayer = new NodeModulesLayer(this, 'BrowserLayer', {
      projectRoot: PROJECT_ROOT,
      packages: RENDER_EXTERNAL_MODULES,
      arch: CHROMIUM_ARCH,
      description:
        'PicSnippets render: @sparticuz/chromium, puppeteer-core, sharp (from node_modules)',
    }).layer);

    this.handler = new HandlerFunction(this, 'Handler', {
      feature: 'render',
      description: 'PicSnippets render URL: draws a personalised image (DESIGN.md §5)',
      architecture: lambdaArchitecture(CHROMIUM_ARCH),
      memorySize: RENDER_MEMORY_MB,
      timeout: RENDER_TIMEOUT,
      ephemeralStorageSize: RENDER_EPHEMERAL_STORAGE_MB,
      tracing: true,
      externalModules: RENDER_EXTERNAL_MODULES,
      layers: [layer],
      ...(wantsImage(this) ? { image: renderImageCode() } : {}),
      ...(props.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrency }),
      environment: {
        TABLE_NAME: props.table.tableName,
        ASSETS_BUCKET: props.assets.bucketName,
        RENDERS_BUCKET: props.renders.bucketName,
        RENDER_TIMEOUT_MS: String(RENDER_BUDGET_MS),
        ...(props.publicUrl === undefined ? {} : { PUBLIC_URL: props.publicUrl }),
        ...(props.fontCdnUrl === undefined ? {} : { FONT_CDN_URL: props.fontCdnUrl }),
      },
      commandHooks: RENDER_PAGE_BUNDLING,
    });
    this.fn = this.handler.fn;
    const role = this.handler.role;

    // Screenshot pages run in a function of their own whose role reaches only its logs: it
    // answers the JPEG in the invocation, and the render function caches it
    // (docs/security.md "Screenshot pages").
    this.screenshot = new HandlerFunction(this, 'Screenshot', {
      feature: 'screenshot',
      description: 'PicSnippets screenshot stickers: opens user-chosen pages apart from renders',
      architecture: lambdaArchitecture(CHROMIUM_ARCH),
      memorySize: SCREENSHOT_MEMORY_MB,
      timeout: SCREENSHOT_TIMEOUT,
      ephemeralStorageSize: RENDER_EPHEMERAL_STORAGE_MB,
      externalModules: RENDER_EXTERNAL_MODULES,
      layers: [layer],
      environment: {},
    });
    // The quota notices (docs/security.md "Render limits"): the notification shares its
    // partition with the user's record and the render URL is public, so the render role writes
    // neither notifications nor mail; it hands each notice to this function, whose role may
    // read the team and owner and write the notification (and, in infra/stack.ts, mail).
    this.notices = new HandlerFunction(this, 'Notices', {
      feature: 'render-notices',
      description: 'PicSnippets render quota notices: tells a team owner in-app and by e-mail',
      architecture: lambda.Architecture.ARM_64,
      memorySize: RENDER_NOTICES_MEMORY_MB,
      timeout: RENDER_NOTICES_TIMEOUT,
      externalModules: [],
      layers: [],
      environment: {
        TABLE_NAME: props.table.tableName,
        ...(props.publicUrl === undefined ? {} : { PUBLIC_URL: props.publicUrl }),
      },
    });
    this.notices.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [...RENDER_NOTICES_TABLE],
        resources: [props.table.tableArn],
      }),
    );
    // A notice that failed is not sent again: the send never throws, so an error is a refused
    // payload or a timeout, and a retry could tell the owner twice.
    this.notices.fn.configureAsyncInvoke({ retryAttempts: 0 });
    this.grantRenderHelpers(this.handler);

    // Least privilege (docs/security.md "The render role"): read what a render draws; write only
    // the render cache, screenshots and static layers, and on the table only the view counter,
    // the teams' month usage and recipients' first opens.
    grantBucket(role, props.renders, 'list');
    grantBucketPrefixes(role, props.renders, RENDER_WRITES.renders);
    grantBucket(role, props.assets, 'read');
    grantBucketPrefixes(role, props.assets, RENDER_WRITES.assets, ['s3:PutObject']);
    grantTable(role, props.table, TABLE_READ);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [VIEW_COUNTER.leadingKey] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...VIEW_COUNTER.attributes] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RENDER_USAGE.leadingKey] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RENDER_USAGE.attributes] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': [...RENDER_USAGE.returnValues] },
        },
      }),
    );

    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [FALLBACK_COUNTER.leadingKey] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...FALLBACK_COUNTER.attributes] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [FIRST_OPEN.leadingKey] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...FIRST_OPEN.attributes] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
    );

    this.alias = new lambda.Alias(this, 'LiveAlias', {
      aliasName: RENDER_ALIAS,
      version: this.handler.fn.currentVersion,
    });
    this.functionUrl = this.alias.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.AWS_IAM,
      invokeMode: lambda.InvokeMode.BUFFERED,
    });
    this.origin = origins.FunctionUrlOrigin.withOriginAccessControl(this.functionUrl, {
      originId: 'render',
      readTimeout: RENDER_ORIGIN_READ_TIMEOUT,
      // One regional cache in front of the origin for every edge (docs/send-lists.md "The job"):
      // a send list's warm-up request fills it once, and the campaign's first opens at any edge
      // are answered from it instead of a cold render.
      originShieldEnabled: true,
      originShieldRegion: Stack.of(this).region,
    });

    this.cachePolicy = new cloudfront.CachePolicy(this, 'CachePolicy', {
      comment: 'PicSnippets renders: path + all query strings (normalised at the edge)',
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      // The image depends on the path and the parameters only: no cookies, no headers (the
      // format comes from the URL, not from Accept), so proxies and browsers share entries.
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      // Origin Cache-Control wins within [min, max]: good renders say `public, max-age=…`,
      // fallbacks and errors say `no-store`, which min 0 honours (docs/infra.md "What the stack
      // creates").
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.minutes(5),
      maxTtl: Duration.days(365),
      // PNG, JPEG and PDF are compressed already.
      enableAcceptEncodingGzip: false,
      enableAcceptEncodingBrotli: false,
    });

    // What the origin needs besides the cache key: the viewer's address (per-address budgets)
    // and user agent (mail proxies), forwarded but not in the cache key, so all recipients
    // still share one cached image. No Host: the function URL must see its own.
    this.originRequestPolicy = new cloudfront.OriginRequestPolicy(this, 'OriginRequestPolicy', {
      comment:
        'PicSnippets /r/*: query strings, viewer address and user agent to the render origin',
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
      // The viewer's country for rule sets' country conditions (docs/rules.md "Caching"): read
      // by the origin, never in the CDN's key (docs/adr/0061-rule-sets-and-the-cdn.md "Rule sets
      // and the CDN").
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(
        'User-Agent',
        'CloudFront-Viewer-Address',
        'CloudFront-Viewer-Country',
        // The reader's place for weather conditions that ask for it (docs/weather.md).
        'CloudFront-Viewer-Latitude',
        'CloudFront-Viewer-Longitude',
      ),
    });

    this.queryNormaliser = new cloudfront.Function(this, 'QueryNormaliser', {
      comment: 'PicSnippets /r/*: sort query parameters by name, drop empty names',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(RENDER_QUERY_NORMALISER_CODE),
    });

    this.webAcl = edgeWebAcl(this);
  }

  /**
   * Lets `handler` schedule warm capacity on the render alias (docs/send-lists.md "Warm capacity
   * before a send"; docs/infra.md "Warm capacity"), only when the deploy turns it on
   * (infra/stack.ts `warmCapacityMax` above 0): `RENDER_FUNCTION_NAME` and `WARM_CAPACITY_MAX`,
   * Application Auto Scaling's RegisterScalableTarget and PutScheduledAction (plus
   * DeleteScheduledAction when `cancels`: the API function clears a start or cancels a list; the
   * worker only schedules), the provisioned-concurrency calls on the alias that registering
   * checks, and the creation of Lambda scaling's service-linked role only. Application Auto
   * Scaling's actions take no resource ARN of a Lambda alias (its scalable targets have generated
   * ids), so they are on `*`; the Lambda actions are on the alias only.
   * @param max the most provisioned concurrency one send list may schedule, 1 … 1,000.
   */
  grantWarmCapacity(handler: HandlerFunction, max: number, cancels: boolean): void {
    handler.fn.addEnvironment('RENDER_FUNCTION_NAME', this.handler.fn.functionName);
    handler.fn.addEnvironment('WARM_CAPACITY_MAX', String(max));
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'application-autoscaling:RegisterScalableTarget',
          'application-autoscaling:PutScheduledAction',
          ...(cancels ? ['application-autoscaling:DeleteScheduledAction'] : []),
        ],
        resources: ['*'],
      }),
    );
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'lambda:PutProvisionedConcurrencyConfig',
          'lambda:GetProvisionedConcurrencyConfig',
          'lambda:DeleteProvisionedConcurrencyConfig',
        ],
        resources: [this.alias.functionArn],
      }),
    );
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['iam:CreateServiceLinkedRole'],
        resources: [
          Stack.of(this).formatArn({
            service: 'iam',
            region: '',
            resource: 'role',
            resourceName: `aws-service-role/${LAMBDA_SCALING_SERVICE}/AWSServiceRoleForApplicationAutoScaling_LambdaConcurrency`,
          }),
        ],
        conditions: { StringLike: { 'iam:AWSServiceName': LAMBDA_SCALING_SERVICE } },
      }),
    );
  }

  /**
   * Lets an API function have pages captured by the screenshot function only (the editor's
   * live-crop preview, functions/designs/web-crop-preview.ts; docs/web-crops.md "In the
   * editor"): `SCREENSHOT_FUNCTION_NAME` and lambda:InvokeFunction on that one function, so the
   * page never opens in the API function, whose role reaches the table; and the screenshot
   * cache the render keeps (renders bucket, `screenshots/` only: GetObject and PutObject), which
   * the preview shares with the render's crops of the same page (functions/render/dynamic.ts
   * `screenshot`).
   */
  grantScreenshots(handler: HandlerFunction): void {
    handler.fn.addEnvironment('SCREENSHOT_FUNCTION_NAME', this.screenshot.fn.functionName);
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.screenshot.fn.functionArn],
      }),
    );
    grantBucketPrefixes(handler.role, this.renders, [SCREENSHOT_CACHE_PREFIX]);
  }

  /**
   * Lets a function that draws with the render code (the render function, the send-list worker)
   * hand screenshot pages to the screenshot function and quota notices to the notices function,
   * as the render function does: `SCREENSHOT_FUNCTION_NAME`, `RENDER_NOTICES_FUNCTION_NAME` and
   * lambda:InvokeFunction on exactly those two. Without them the code would open hostile pages in
   * its own process, whose role reaches the table (docs/security.md "Screenshot pages").
   */
  grantRenderHelpers(handler: HandlerFunction): void {
    handler.fn.addEnvironment('SCREENSHOT_FUNCTION_NAME', this.screenshot.fn.functionName);
    handler.fn.addEnvironment('RENDER_NOTICES_FUNCTION_NAME', this.notices.fn.functionName);
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.screenshot.fn.functionArn, this.notices.fn.functionArn],
      }),
    );
  }

  /**
   * Lets the render open teams' signing secrets (docs/developer-api.md "Signed render URLs";
   * functions/render/signature.ts) and web APIs' secret headers for its data lookups
   * (docs/data-sources.md): `SECRETS_KMS_KEY_ID` and kms:Decrypt on that one key, for those two
   * purposes only (secret-grants.ts).
   */
  openSigningSecrets(key: kms.IKey): void {
    this.handler.fn.addEnvironment('SECRETS_KMS_KEY_ID', key.keyArn);
    this.handler.role.addToPrincipalPolicy(decryptFor(key, ['render-signing', 'web-api']));
  }
}

/**
 * A rate count per IP on `/r/*` and `/l/*` (renders and their rule links: both run a design's
 * open-time lookups and rules for whoever asks, docs/security.md "Open-time content") that never
 * blocks an image: past `limit` requests in 5 minutes it labels the request and inserts
 * `header: exceeded` for the origin (shared/render-limits.ts; functions/render/handler.ts).
 */
function renderRateRule(rule: {
  name: string;
  priority: number;
  limit: number;
  header: string;
  label: string;
}): wafv2.CfnWebACL.RuleProperty {
  return {
    name: rule.name,
    priority: rule.priority,
    action: {
      count: {
        customRequestHandling: {
          insertHeaders: [{ name: rule.header, value: EDGE_RATE_EXCEEDED }],
        },
      },
    },
    ruleLabels: [{ name: rule.label }],
    statement: {
      rateBasedStatement: {
        limit: rule.limit,
        evaluationWindowSec: 300,
        aggregateKeyType: 'IP',
        scopeDownStatement: {
          orStatement: {
            statements: ['/r/', '/l/'].map((searchString) => ({
              byteMatchStatement: {
                fieldToMatch: { uriPath: {} },
                positionalConstraint: 'STARTS_WITH',
                searchString,
                textTransformations: [{ priority: 0, type: 'NONE' }],
              },
            })),
          },
        },
      },
    },
    visibilityConfig: {
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: rule.name,
    },
  };
}

/**
 * The distribution's WebACL (scope CLOUDFRONT, so the stack is in us-east-1; see stack.ts):
 * the per-IP rate count on `/r/*` and `/l/*` (RENDER_REQUESTS_PER_IP_PER_5_MIN: labels and tells
 * the origin, never blocks an image), the mail-proxy address count on the same paths
 * (PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN, the same way), the per-IP rate limit on
 * sign-in, registration, reset mails, coupons and the tax preview
 * (SENSITIVE_REQUESTS_PER_IP_PER_5_MIN), Amazon's IP reputation
 * list and the known-bad-inputs rule group. The common rule set is left out: its 8 KB body
 * limit would block image and font uploads.
 */
function edgeWebAcl(scope: Construct): wafv2.CfnWebACL {
  if (Stack.of(scope).region !== 'us-east-1') {
    throw new Error(
      'A CLOUDFRONT-scope WebACL must be created in us-east-1 (PicSnippetsStack is pinned there).',
    );
  }
  const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
    cloudWatchMetricsEnabled: true,
    sampledRequestsEnabled: true,
    metricName,
  });
  const managed = (priority: number, name: string): wafv2.CfnWebACL.RuleProperty => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
    visibilityConfig: visibility(name),
  });
  return new wafv2.CfnWebACL(scope, 'WebAcl', {
    scope: 'CLOUDFRONT',
    description:
      'PicSnippets edge: render and sign-in/billing rate limits per IP, IP reputation, known bad inputs',
    defaultAction: { allow: {} },
    visibilityConfig: visibility('PicSnippetsEdge'),
    rules: [
      renderRateRule({
        name: 'RenderRatePerIp',
        priority: 0,
        limit: RENDER_REQUESTS_PER_IP_PER_5_MIN,
        header: EDGE_RATE_HEADER_NAME,
        label: 'picsnippets:render-rate-exceeded',
      }),
      // A mail proxy's address is outside the rule above (one proxy fetches for many
      // recipients); this one is its cross-container budget, which the origin applies only to
      // recognised proxies (docs/security.md "Render limits").
      renderRateRule({
        name: 'RenderRatePerProxyAddress',
        priority: 1,
        limit: PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN,
        header: EDGE_PROXY_RATE_HEADER_NAME,
        label: 'picsnippets:proxy-rate-exceeded',
      }),
      {
        name: 'SensitiveRatePerIp',
        priority: 2,
        action: { block: { customResponse: { responseCode: 429 } } },
        statement: {
          rateBasedStatement: {
            limit: SENSITIVE_REQUESTS_PER_IP_PER_5_MIN,
            evaluationWindowSec: 300,
            aggregateKeyType: 'IP',
            scopeDownStatement: {
              orStatement: {
                statements: SENSITIVE_PATHS.map(({ path, match }) => ({
                  byteMatchStatement: {
                    fieldToMatch: { uriPath: {} },
                    positionalConstraint: match,
                    searchString: path,
                    textTransformations: [{ priority: 0, type: 'NONE' }],
                  },
                })),
              },
            },
          },
        },
        visibilityConfig: visibility('SensitiveRatePerIp'),
      },
      managed(3, 'AWSManagedRulesAmazonIpReputationList'),
      managed(4, 'AWSManagedRulesKnownBadInputsRuleSet'),
    ],
  });
}
