/**
 * X-Ray tracing through Powertools Tracer (docs/infra.md "Observability", "Tracing"): in AWS,
 * where the API and render functions run with active tracing, each AWS SDK client's calls
 * (DynamoDB, S3, SSM, SES) become subsegments of the invocation, and each API invocation gets a
 * `## handler` subsegment with its cold-start and feature annotations. Elsewhere (`npm start`,
 * tests) the tracer is off and the clients are left as they are. test/unit/tracing.test.ts.
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj } from '@middy/core';

/** Whether this process traces: in AWS only (STAGE `aws`), where X-Ray receives segments. */
const tracingEnabled = (): boolean => process.env.STAGE === 'aws';

/**
 * The tracer's modules, loaded only where tracing is on: the X-Ray SDK under them takes about
 * 100 ms to load, which the render's cold start (docs/performance.md) must not pay locally.
 */
const modules = tracingEnabled()
  ? await Promise.all([
      import('@aws-lambda-powertools/tracer'),
      import('@aws-lambda-powertools/tracer/middleware'),
    ])
  : undefined;

let tracer: Tracer | undefined;

/** The process's tracer (created once), or undefined when tracing is off. */
function processTracer(): Tracer | undefined {
  if (!modules) return undefined;
  tracer ??= new modules[0].Tracer({ serviceName: process.env.FEATURE ?? 'picsnippets' });
  return tracer;
}

/**
 * An AWS SDK v3 client whose calls are traced in AWS; the client itself elsewhere.
 * @param client any SDK v3 client (`DynamoDBClient`, `S3Client`, …).
 * @returns the same client, instrumented when tracing is on.
 */
export function traced<T>(client: T): T {
  const t = processTracer();
  return t ? t.captureAWSv3Client(client) : client;
}

/**
 * The middy middleware that opens the invocation's handler subsegment in AWS, or none.
 * Responses are not captured as metadata: they may hold personal data.
 */
export function tracingMiddleware(): MiddlewareObj[] {
  const t = processTracer();
  return t && modules
    ? [modules[1].captureLambdaHandler(t, { captureResponse: false }) as MiddlewareObj]
    : [];
}
