/**
 * Typed configuration: the one place environment variables are read.
 *
 * Locally every value has a default that matches the local stack (infra/local); in AWS the
 * stack sets them on each Lambda (infra/constructs/api.ts, render.ts). Secrets (Stripe) come
 * from SSM/Secrets Manager names in AWS, never from plain variables in the template.
 */
import { z } from 'zod';
import { LOCAL_CDN_LOGS_BUCKET, localBucketName } from '#shared/resources.ts';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

export const ConfigSchema = z.object({
  /** `local` runs against DynamoDB Local and s3rver; `aws` against the real services. */
  STAGE: z.enum(['local', 'test', 'aws']).default('local'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  AWS_REGION: z.string().default('us-east-1'),
  TABLE_NAME: z.string().min(1).default('picsnippets-local-main'),
  ASSETS_BUCKET: z.string().min(1).default(localBucketName('assets')),
  RENDERS_BUCKET: z.string().min(1).default(localBucketName('renders')),
  WEB_BUCKET: z.string().min(1).default(localBucketName('web')),
  /**
   * Where the CDN's access log of the render paths lands (docs/analytics.md "The source of
   * truth"): the logs bucket in AWS; locally the gateway writes there.
   */
  CDN_LOGS_BUCKET: z.string().min(1).default(LOCAL_CDN_LOGS_BUCKET),
  /** The log's prefix in that bucket, ending in `/`; partitions `YYYY/MM/DD/HH/` follow. */
  CDN_LOGS_PREFIX: z
    .string()
    .regex(/^(?:[\w-]+\/)*$/, 'A prefix is folder names, each ending in /.')
    .default('cdn/'),
  /**
   * How often the analytics roll-up reweighs an optimised split, hours (docs/optimiser.md "In the
   * product"): 0–720, default 24; 0 reweighs with every roll-up.
   */
  SPLIT_REWEIGH_HOURS: z.coerce.number().min(0).max(720).default(24),
  /** Local endpoints; unset in AWS, where the SDK finds the regional endpoints. */
  DYNAMODB_ENDPOINT: optional,
  S3_ENDPOINT: optional,
  /** The public origin of the product: render URLs are `${PUBLIC_URL}/r/{publicId}`. */
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  /** CloudFront distribution id, for invalidating renders when a design is saved (AWS only). */
  DISTRIBUTION_ID: optional,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /**
   * Checks every answer of a route with a contract against it (shared/contract,
   * docs/adr/0044-the-api-contract.md "The API contract"): `strict` turns a mismatch into a 500
   * (the test stack, so every integration and e2e test is also a contract test), `log` logs it (the
   * local stack), `off` skips the check (AWS). Unset: by STAGE.
   */
  CONTRACT_CHECK: z.enum(['off', 'log', 'strict']).optional(),
  /**
   * `npm start`: the folder that keeps the local stack's data (DynamoDB Local, s3rver, the
   * outbox) between runs. Default `.local` at the repository root.
   */
  LOCAL_DATA_DIR: optional,
  /** Where local e-mail lands (docs/operations.md "First start"); SES is used in AWS. */
  OUTBOX_DIR: z.string().default('.local/outbox'),
  /** Sender of product e-mail (SES in AWS; the local outbox records it). */
  MAIL_FROM: z.string().default('PicSnippets <no-reply@picsnippets.local>'),
  /**
   * How product e-mail leaves (functions/lib/mailer.ts, docs/infra.md "E-mail"): `ses` sends
   * through Amazon SES, `outbox` writes the local outbox, `off` sends nothing and logs it (a
   * stage deployed without `-c mailDomain=`). Unset: `ses` when STAGE is aws, else `outbox`.
   */
  MAIL_TRANSPORT: z.enum(['ses', 'outbox', 'off']).optional(),
  /**
   * The SES configuration set every mail names (infra/constructs/email.ts): it publishes
   * bounces and complaints to the topic that suppresses addresses. Unset: none.
   */
  SES_CONFIGURATION_SET: optional,
  /**
   * Where the support form's messages go (`POST /support/email`; docs/notifications.md
   * "Support"). Locally they land in the outbox like every mail.
   */
  SUPPORT_EMAIL: z.string().default('support@picsnippets.local'),
  /** Stripe: absent keys mean explicit offline billing mode (docs/operations.md "First start"). */
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  /**
   * In AWS: SSM parameter names (SecureString) of the three Stripe secrets, read once at cold
   * start into the variables above (infra/constructs/api.ts sets them; the chain's SSM loader
   * reads every `X_PARAMETER`).
   */
  STRIPE_SECRET_KEY_PARAMETER: optional,
  STRIPE_PUBLISHABLE_KEY_PARAMETER: optional,
  STRIPE_WEBHOOK_SECRET_PARAMETER: optional,
  /**
   * Stripe price id of each paid plan and of `plan-freeze` (docs/billing.md), as
   * `pro-monthly=price_…,pro-yearly=price_…`. A plan without a price cannot be subscribed to.
   */
  STRIPE_PRICES: optional,
  /** The partner-campaign registration path's fixed coupon (docs/accounts.md "Screens"), a Stripe coupon id. */
  STRIPE_PARTNER_COUPON: optional,
  /**
   * AWS: the screenshot function's name, invoked by the render function for screenshot
   * stickers; unset (locally), screenshots open in a separate Chromium of the same process.
   */
  SCREENSHOT_FUNCTION_NAME: optional,
  /**
   * AWS: the render-notices function's name (infra/constructs/render.ts), invoked
   * asynchronously by the render function to tell a team's owner of its render quota
   * (docs/security.md "Render limits"). Read only when STAGE is aws; elsewhere the render sends
   * the notice itself.
   */
  RENDER_NOTICES_FUNCTION_NAME: optional,
  /**
   * AWS: the value CloudFront sends in `x-origin-verify` to the API
   * (functions/lib/origin-verify.ts), read from Secrets Manager through
   * `ORIGIN_VERIFY_SECRET_PARAMETER`. Unset locally.
   */
  ORIGIN_VERIFY_SECRET: optional,
  ORIGIN_VERIFY_SECRET_PARAMETER: optional,
  /** Render: a Chromium binary to use instead of @sparticuz/chromium's (never a download). */
  CHROMIUM_PATH: optional,
  /** Gravatar's avatar endpoint; `/{md5}?s={px}&d=404` is appended. */
  GRAVATAR_BASE_URL: z.string().url().default('https://www.gravatar.com/avatar'),
  /**
   * Fonts (docs/fonts.md): the fontsource CDN's font files base, e.g.
   * `https://cdn.jsdelivr.net/fontsource/fonts`. When set, every catalogue family is offered;
   * unset (offline, locally) only the families we host.
   */
  FONT_CDN_URL: optional.refine((v) => v === undefined || /^https:\/\/[^\s]+$/.test(v), {
    message: 'must be an https URL',
  }),
  /**
   * Tests only: loopback ports the SSRF guard treats as public, for fixture servers. Ignored
   * unless STAGE=test, so no deployment can open a hole with it.
   */
  SSRF_TEST_PUBLIC_PORTS: optional,
  /** Render: per-request budget before the fallback image is served, ms. */
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(8000),
  /**
   * AWS: the SQS queue URLs (shared/queues.ts `queueUrlVariable`; functions/lib/queue.ts).
   * Unset elsewhere, where the local queue on DynamoDB Local carries the messages
   * (docs/adr/0051-queues.md "Queues").
   */
  QUEUE_URL_SEND_LIST: optional,
  QUEUE_URL_WEBHOOKS: optional,
  QUEUE_URL_RENDER_INVALIDATIONS: optional,
  /**
   * Merge tags (docs/export.md): `offline` never calls a platform's API (the built-in catalogues
   * only); `online` calls it when credentials are given. Default: online in AWS, else offline.
   */
  MERGE_TAGS_MODE: z.enum(['online', 'offline']).optional(),
  /**
   * Merge tags: platform API base URLs in place of the real ones, `klaviyo=https://…,manychat=…`
   * (fake servers in tests). Every URL still goes through the SSRF guard.
   */
  MERGE_TAG_API_URLS: optional,
  /**
   * Stock-photo search (docs/adr/0027-editor-extras-and-stock-photos.md "Editor extras and stock
   * photos"): an Unsplash access key and a Pixabay API key. Without either, the search says it is
   * not configured and calls nothing.
   */
  UNSPLASH_ACCESS_KEY: optional,
  PIXABAY_API_KEY: optional,
  /** Test-only API origins of the stock services: `unsplash=http://…,pixabay=http://…`. */
  STOCK_API_URLS: optional,
  /**
   * Weather at open time (docs/weather.md "Offline mode"): `online` asks Open-Meteo, `offline`
   * reads the recorded answers. Default: online in AWS, else offline.
   */
  WEATHER_MODE: z.enum(['online', 'offline']).optional(),
  /**
   * Warm capacity before a send (docs/send-lists.md "Warm capacity before a send"): the most
   * provisioned concurrency one send list may schedule on the render alias; 0 (default) is off.
   */
  WARM_CAPACITY_MAX: z.coerce.number().int().min(0).max(1000).default(0),
  /** `offline` only logs the scheduled actions; `online` sets them. Default: online in AWS. */
  WARM_CAPACITY_MODE: z.enum(['online', 'offline']).optional(),
  /**
   * AWS: the render function's name, whose `live` alias warm capacity scales (set by
   * infra/constructs/render.ts `grantWarmCapacity`); unset locally, where it is only logged.
   */
  RENDER_FUNCTION_NAME: optional,
  /** Test-only stand-ins of Open-Meteo's endpoints: `forecast=http://…,geocoding=http://…`. */
  WEATHER_API_URLS: optional,
  /**
   * The marketing hook (docs/accounts.md "Marketing hook"): an outside URL that receives the new
   * account's name, team, e-mail, plan and affiliate cookies after registration, only when the
   * user consented. Unset: off (nothing is sent). Fetched through the SSRF guard.
   */
  MARKETING_HOOK_URL: z.string().url().optional(),
  /** The tracked trial value and predicted lifetime value the hook reports, and their currency. */
  MARKETING_TRIAL_VALUE: z
    .string()
    .regex(/^\d{1,7}\.\d{2}$/)
    .default('47.00'),
  MARKETING_LIFETIME_VALUE: z
    .string()
    .regex(/^\d{1,7}\.\d{2}$/)
    .default('564.00'),
  MARKETING_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  /** KMS key (id or ARN) whose data keys encrypt stored secrets; required in AWS to store one. */
  SECRETS_KMS_KEY_ID: optional,
  /** Outside AWS: the master key of stored secrets, base64 of 32 bytes (functions/lib/secrets.ts). */
  SECRETS_LOCAL_KEY: optional,
  /**
   * Keap (Infusionsoft) OAuth2 app (docs/export.md; functions/merge-tags/keap-oauth.ts): the
   * client id and secret of the app registered with Keap. Without both, Keap is not connected
   * and the export screen offers its built-in fields.
   */
  KEAP_CLIENT_ID: optional,
  KEAP_CLIENT_SECRET: optional,
  /**
   * Rate limits per API token (functions/lib/limits/token-requests.ts, docs/developer-api.md "Rate
   * limits"): requests per window for every token, replacing the plans' limits (the test
   * stack's small limit). Unset: by plan.
   */
  TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).optional(),
  /** The rate-limit window of API tokens, s (default 60). */
  TOKEN_RATE_WINDOW_S: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Webhook retries (functions/webhooks/worker.ts, docs/developer-api.md "Answering, retries and
   * disabling"): the first retry's delay, s (then ×4 each time, at most 900 s, SQS's longest
   * delay); attempts at most; days of failing after which an endpoint is disabled. Tests make the
   * delay 0.
   */
  WEBHOOK_RETRY_BASE_S: z.coerce.number().int().min(0).max(900).default(30),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(0).max(90).default(3),
});

export type Config = z.infer<typeof ConfigSchema>;

/**
 * Parses an environment into a Config.
 * @throws Error listing every invalid variable, so a bad deploy fails at cold start, loudly.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

let cached: Config | undefined;

/** The process's configuration, parsed once (module scope in each Lambda). */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** For the local stack and tests, which set the environment before handlers run. */
export function resetConfig(): void {
  cached = undefined;
}

/** Stripe is configured when a secret key is present; otherwise billing is offline. */
export const billingOnline = (c: Config = config()): boolean => c.STRIPE_SECRET_KEY !== undefined;

/**
 * The Stripe price id of each plan from `STRIPE_PRICES` (`plan=price,…`; docs/billing.md).
 * @throws Error at cold start for an entry that is not `plan=price`.
 */
export function stripePrices(c: Config = config()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (c.STRIPE_PRICES ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const [plan, price, ...rest] = entry.split('=').map((s) => s.trim());
    if (!plan || !price || rest.length > 0) throw new Error(`STRIPE_PRICES: bad entry "${entry}"`);
    out[plan] = price;
  }
  return out;
}
