/**
 * The `system` feature: `GET /api/health` reports whether DynamoDB and S3 answer and whether
 * the parts this process starts are ready (functions/lib/readiness.ts: in the local stack, the
 * renderer). 200 when everything is, 503 otherwise with what it waits for; never cached
 * (docs/operations.md "Health").
 *
 * The developer API's reference (docs/developer-api.md): `GET /api/openapi.json` answers the
 * OpenAPI 3.1 document of functions/system/openapi.ts (built once per process, cacheable for
 * {@link DOCUMENT_MAX_AGE} s), `GET /api/docs` the viewer page of functions/system/docs-page.ts
 * with its own Content-Security-Policy.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { dynamoClient, s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import { readiness } from '#lib/readiness.ts';
import type { Health, ServiceHealth } from '#shared/contract/system.ts';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_PAGE_HTML } from './docs-page.ts';
import { openApiDocument } from './openapi.ts';

/** How long browsers and CloudFront may keep the document and the page, s. */
export const DOCUMENT_MAX_AGE = 300;

/** Runs one probe with a time budget (ms); a failure is reported, never thrown. */
async function probe(
  fn: (signal: AbortSignal) => Promise<unknown>,
  budgetMs = 2000,
): Promise<ServiceHealth> {
  const started = Date.now();
  try {
    await fn(AbortSignal.timeout(budgetMs));
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    const name = (error as Error).name || 'Error';
    return {
      ok: false,
      ms: Date.now() - started,
      error: name === 'TimeoutError' ? 'timeout' : name,
    };
  }
}

/**
 * `{ ok, services: { dynamodb, s3 }, parts, waiting? }` (shared/contract/system.ts
 * `HealthSchema`): error names only, no endpoints or messages; `waiting` lists in words what is
 * not ready yet (`renderer: launching Chromium`).
 */
export async function checkHealth(): Promise<Health> {
  const c = config();
  const [dynamodb, s3] = await Promise.all([
    probe((abortSignal) =>
      dynamoClient().send(new DescribeTableCommand({ TableName: c.TABLE_NAME }), { abortSignal }),
    ),
    probe((abortSignal) =>
      s3Client().send(new HeadBucketCommand({ Bucket: c.ASSETS_BUCKET }), { abortSignal }),
    ),
  ]);
  const { ready, parts } = readiness();
  const waiting = [
    ...(dynamodb.ok ? [] : [`dynamodb: ${dynamodb.error ?? 'not answering'}`]),
    ...(s3.ok ? [] : [`s3: ${s3.error ?? 'not answering'}`]),
    ...Object.entries(parts).flatMap(([part, p]) => (p.waiting ? [`${part}: ${p.waiting}`] : [])),
  ];
  return {
    ok: dynamodb.ok && s3.ok && ready,
    services: { dynamodb, s3 },
    parts,
    ...(waiting.length > 0 ? { waiting } : {}),
  };
}

export const handler = featureHandler(
  'system',
  {
    'GET /api/health': route({
      handle: async () => {
        const health = await checkHealth();
        return json(health.ok ? 200 : 503, health);
      },
    }),
    'GET /api/openapi.json': route({
      handle: async () =>
        json(200, openApiDocument(), { 'cache-control': `public, max-age=${DOCUMENT_MAX_AGE}` }),
    }),
    'GET /api/docs': route({
      handle: async () => ({
        statusCode: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': `public, max-age=${DOCUMENT_MAX_AGE}`,
        },
        body: DOCS_PAGE_HTML,
      }),
    }),
  },
  {
    // The page's own policy replaces the API's `default-src 'none'` on its answer only (the
    // feature's one HTML answer); errors and JSON keep the API's.
    headerOverrides: (_event, response) =>
      String(response.headers?.['content-type'] ?? '').startsWith('text/html')
        ? { 'content-security-policy': DOCS_CONTENT_SECURITY_POLICY }
        : undefined,
  },
);
