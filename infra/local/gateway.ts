/**
 * The local gateway: one HTTP server that plays API Gateway (HTTP API, payload v2), the Lambda
 * runtime and CloudFront for the local stack (docs/operations.md "First start"). Each request that
 * the route table sends to the API becomes the same v2 event AWS would build and goes to the same
 * middy handler the route names; `/r/*` goes to the render handler; everything else is the SPA.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Context } from 'aws-lambda';
import { isApiRequest, matchRoute, type Feature } from '#shared/routes.ts';
import { spaContentSecurityPolicy, USER_FILES_CONTENT_SECURITY_POLICY } from '#shared/security.ts';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { isWithdrawn, USER_FILES_PREFIX } from '#lib/uploads.ts';
import { STATIC_TYPES, staticCacheControl } from '../static-files.ts';
import type { ApiEvent, ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { readOutbox } from '#lib/mailer.ts';
import { cdnLogRecord } from '#functions/analytics/cdn-log.ts';
import { VIEWER_COUNTRY_HEADER } from '#functions/render/rule-context.ts';
import { cdnLog, localCdn } from './cdn-log-writer.ts';

/** API Gateway's payload limit, bytes. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

const handlers = new Map<Feature, Promise<LambdaHandler>>();

/** Imports a feature's handler once, as a Lambda container would on cold start. */
export function loadHandler(feature: Feature): Promise<LambdaHandler> {
  let h = handlers.get(feature);
  if (!h) {
    h = import(`../../functions/${feature}/handler.ts`).then(
      (m: { handler: LambdaHandler }) => m.handler,
    );
    handlers.set(feature, h);
  }
  return h;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('Request too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Builds the API Gateway HTTP API v2 event for a request.
 * @param routeKey `METHOD /path` of the matched route, or `$default` (function URLs).
 */
export function toEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  pathParameters?: Record<string, string>,
): ApiEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const isText = TEXT_TYPES.test(contentType);
  const now = new Date();
  const method = req.method ?? 'GET';
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies && cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  } as ApiEvent;
}

function lambdaContext(feature: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `local-${feature}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${feature}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${feature}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Writes a v2 result the way API Gateway would (status, headers, cookies, base64 bodies). */
function writeResult(res: ServerResponse, result: ApiResult, head: boolean): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
  if (result.cookies && result.cookies.length > 0) headers['set-cookie'] = result.cookies;
  const body = result.body
    ? result.isBase64Encoded
      ? Buffer.from(result.body, 'base64')
      : Buffer.from(result.body, 'utf8')
    : Buffer.alloc(0);
  headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(head ? undefined : body);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}

/** Security headers on SPA documents, as the CloudFront response headers policy sets them. */
export const SPA_SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * Serves the built SPA from a folder, with the SPA fallback to index.html (as CloudFront does)
 * and the SPA's CSP, which allows the font CDN when `FONT_CDN_URL` is set, as in AWS.
 */
export function staticSpa(root: string) {
  const policy = spaContentSecurityPolicy({
    fontCdnUrl: config().FONT_CDN_URL,
    uploadOrigin: config().S3_ENDPOINT,
  });
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    let file = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root)) return sendJson(res, 400, { message: 'Bad path.' });
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      if (extname(url.pathname) !== '') return sendJson(res, 404, { message: 'Not found.' });
      file = join(root, 'index.html');
      info = await stat(file).catch(() => undefined);
      if (!info)
        return sendJson(res, 503, { message: 'The SPA is not built: run `npm run build`.' });
    }
    res.writeHead(200, {
      ...SPA_SECURITY_HEADERS,
      'content-security-policy': policy,
      'content-type': STATIC_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'cache-control': staticCacheControl(url.pathname.slice(1)),
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  };
}

/**
 * User files at `/files/{key}` from the assets bucket, as the `/files/*` CloudFront behaviour
 * serves them in AWS (infra/constructs/web.ts): the stored content type, `nosniff` and a
 * sandboxing CSP; 404 for anything missing or withdrawn (a deleted upload: the bucket policy
 * refuses CloudFront those in AWS, docs/security.md "Deleted uploads").
 */
async function userFile(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const key = decodeURIComponent(url.pathname.slice(1));
  if (!key.startsWith(USER_FILES_PREFIX) || key.includes('..')) {
    return sendJson(res, 404, { message: 'Not found.' });
  }
  try {
    if (await isWithdrawn(key)) return sendJson(res, 404, { message: 'Not found.' });
    const object = await s3Client().send(
      new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
    );
    const bytes = await object.Body!.transformToByteArray();
    res.writeHead(200, {
      ...SPA_SECURITY_HEADERS,
      'content-security-policy': USER_FILES_CONTENT_SECURITY_POLICY,
      'content-type': object.ContentType ?? 'application/octet-stream',
      'content-length': String(bytes.length),
      'cache-control': object.CacheControl ?? 'public, max-age=31536000, immutable',
    });
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(bytes));
  } catch {
    sendJson(res, 404, { message: 'Not found.' });
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The local outbox (docs/operations.md "First start": "a page that lists what was sent"): every
 * e-mail the product sent, newest first, as HTML with clickable links or as JSON. Local stack only.
 */
async function outbox(res: ServerResponse, asJson: boolean): Promise<void> {
  const mails = await readOutbox();
  if (asJson) return sendJson(res, 200, mails);
  const items = mails
    .map(
      (m) =>
        `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.sentAt)}</p><pre>${escapeHtml(
          m.text,
        ).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre></article>`,
    )
    .join('');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...SPA_SECURITY_HEADERS,
  });
  res.end(
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>Outbox · PicSnippets (local)</title><style>body{font:16px system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#111827}article{border:1px solid #d1d5db;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#4b5563}</style><h1>Outbox</h1><p class="meta">E-mail the local stack sent (in AWS it goes through SES).</p>${
      items || '<p>No e-mail sent yet.</p>'
    }</html>`,
  );
}

/**
 * Logs an answer of `/r/*` or `/l/*` as CloudFront would (cdn-log-writer.ts): a repeat of a URL
 * a CDN would still keep is marked a hit.
 */
function logRender(req: IncomingMessage, url: URL, method: string, result: ApiResult): void {
  const now = Date.now();
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const cacheControl = result.headers?.['cache-control'];
  cdnLog.add(
    cdnLogRecord({
      at: now,
      method,
      path: url.pathname,
      query: url.search.slice(1),
      userAgent: header('user-agent'),
      status: result.statusCode ?? 200,
      hit: localCdn.hit(
        `${url.pathname}?${url.search}`,
        now,
        typeof cacheControl === 'string' ? cacheControl : undefined,
      ),
      country: header(VIEWER_COUNTRY_HEADER),
    }),
  );
}

export type SpaHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => void | Promise<void>;

/**
 * The request listener of the local gateway.
 * @param spa serves everything that is not the API or a render (Vite or the built SPA).
 */
export function gatewayListener(spa: SpaHandler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const method = (req.method ?? 'GET').toUpperCase();
    try {
      if (url.pathname === '/__outbox' || url.pathname === '/__outbox.json')
        return await outbox(res, url.pathname.endsWith('.json'));
      if (
        url.pathname.startsWith(`/${USER_FILES_PREFIX}`) &&
        (method === 'GET' || method === 'HEAD')
      )
        return await userFile(req, res, url);
      const api = isApiRequest({
        method,
        path: url.pathname,
        accept: req.headers.accept,
        xRequestedWith: req.headers['x-requested-with'] as string | undefined,
        authorization: req.headers.authorization,
      });
      if (!api) {
        if (method === 'GET' || method === 'HEAD') return await spa(req, res, url);
        return sendJson(res, 404, {
          success: false,
          message: `No route ${method} ${url.pathname}.`,
        });
      }
      const match = matchRoute(method, url.pathname);
      if (!match)
        return sendJson(res, 404, {
          success: false,
          message: `No route ${method} ${url.pathname}.`,
        });
      if ('methodNotAllowed' in match) {
        return sendJson(
          res,
          405,
          { success: false, message: 'Method not allowed.' },
          { allow: match.methodNotAllowed.join(', ') },
        );
      }
      const body = await readBody(req);
      const feature = match.route.feature;
      // The render function sits behind a function URL: its routeKey is `$default`.
      const event =
        feature === 'render'
          ? toEvent(req, url, body, '$default')
          : toEvent(req, url, body, `${match.route.method} ${match.route.path}`, match.params);
      const handler = await loadHandler(feature);
      const result = await handler(event, lambdaContext(feature, event.requestContext.requestId));
      writeResult(res, result, method === 'HEAD');
      if (feature === 'render') logRender(req, url, method, result);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413)
        // The body is left unread: close the connection so the client does not reuse it.
        return sendJson(
          res,
          413,
          { success: false, message: 'The request is too large.' },
          { connection: 'close' },
        );
      logger.error('gateway error', { error: error as Error, path: url.pathname });
      if (!res.headersSent)
        sendJson(res, 500, {
          success: false,
          message: 'Something went wrong. Please try again or contact customer support.',
        });
      else res.end();
    }
  };
}

export type { Server };
