/**
 * Tracing (functions/lib/tracing.ts, docs/infra.md "Tracing"): in a Lambda in AWS each SDK
 * client gets X-Ray's middleware, so its calls become subsegments; locally and in tests nothing
 * is added, so no segment is sent to a daemon that is not there.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The names of a client's middleware (the SDK lists them with `identify`). */
const middlewareOf = (client: DynamoDBClient): string[] =>
  client.middlewareStack.identify().map((entry) => entry.split(' ')[0]!);

it('leaves the clients alone outside AWS', async () => {
  const { traced, tracingMiddleware } = await import('#lib/tracing.ts');
  const client = new DynamoDBClient({ region: 'us-east-1' });
  const before = middlewareOf(client);
  expect(traced(client)).toBe(client);
  expect(middlewareOf(client)).toEqual(before);
  expect(tracingMiddleware()).toEqual([]);
});

it('instruments the clients and the handler in a Lambda in AWS', async () => {
  vi.stubEnv('STAGE', 'aws');
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'picsnippets-designs');
  vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
  vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1');
  const { traced, tracingMiddleware } = await import('#lib/tracing.ts');
  const client = traced(new DynamoDBClient({ region: 'us-east-1' }));
  expect(middlewareOf(client).some((name) => /xray/i.test(name))).toBe(true);
  expect(tracingMiddleware()).toHaveLength(1);
});
