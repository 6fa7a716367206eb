/**
 * One cold start of the render function (docs/performance.md "Method"), run by test/bench/run.ts as
 * a fresh process: `node --import tsx test/bench/cold-start.ts <rawQueryString>`, with the local
 * stack's environment (endpoints, table, buckets, STAGE=test).
 *
 * It imports the render handler (as a Lambda init does), invokes it once with an API Gateway v2
 * event for `/r/bench-reference.jpg?<query>` (values the caller makes unique, so no cache hit)
 * and prints one line `COLD_START {json}` (with `init_steps`, when each step of the init
 * warm-up ended: functions/render/warm-start.ts `initSteps`, and browser.ts `launchSteps`; with
 * `unpack_ms`, the library's unpack when the temp folder was empty, else 0); times are ms since
 * this process started (`performance.now()` counts from the process's time origin), so node's own
 * start and the tsx loader are included.
 */
import type { Context } from 'aws-lambda';
import type { ApiEvent, ApiResult } from '#lib/http.ts';
import { REFERENCE_PUBLIC_ID } from './reference.ts';

const query = process.argv[2] ?? 'first_name=Cold';
const rawPath = `/r/${REFERENCE_PUBLIC_ID}.jpg`;

const started = performance.now();
const { handler } = await import('#functions/render/handler.ts');
const imported = performance.now();

const now = new Date();
const event = {
  version: '2.0',
  routeKey: '$default',
  rawPath,
  rawQueryString: query,
  headers: { host: 'localhost', 'user-agent': 'bench-cold-start' },
  queryStringParameters: Object.fromEntries(new URLSearchParams(query)),
  requestContext: {
    accountId: 'local',
    apiId: 'local',
    domainName: 'localhost',
    domainPrefix: 'localhost',
    http: {
      method: 'GET',
      path: rawPath,
      protocol: 'HTTP/1.1',
      sourceIp: '127.0.0.1',
      userAgent: 'bench-cold-start',
    },
    requestId: 'bench-cold-start',
    routeKey: '$default',
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  },
  isBase64Encoded: false,
} as ApiEvent;

const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'bench-render',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:render',
  memoryLimitInMB: '1024',
  awsRequestId: 'bench-cold-start',
  logGroupName: '/aws/lambda/render',
  logStreamName: 'local',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} as Context;

const result = (await handler(event, context)) as ApiResult;
const firstImage = performance.now();
const { initSteps } = await import('#functions/render/warm-start.ts');
const { launchSteps } = await import('#functions/render/browser.ts');
const { lastUnpack } = await import('#functions/render/chromium-binary.ts');
const round = (ms: number) => Math.round(ms * 10) / 10;
const unpack = lastUnpack();
const headers = result.headers ?? {};

console.log(
  `COLD_START ${JSON.stringify({
    first_image_ms: firstImage,
    node_start_ms: started,
    import_ms: imported - started,
    invoke_ms: firstImage - imported,
    status: result.statusCode,
    content_type: headers['content-type'],
    cache_control: headers['cache-control'],
    render_cache: headers['x-render-cache'],
    server_timing: headers['server-timing'],
    init_steps: Object.fromEntries(
      Object.entries({ ...initSteps, ...launchSteps }).map(([step, at]) => [step, round(at)]),
    ),
    unpack_ms: unpack ? round(unpack.ms) : 0,
    unpacked_bytes: unpack?.bytes ?? 0,
    bytes: result.body ? Buffer.from(result.body, 'base64').length : 0,
    node: process.version,
  })}`,
);

const { closeBrowser } = await import('#functions/render/browser.ts');
await closeBrowser();
process.exit(0);
