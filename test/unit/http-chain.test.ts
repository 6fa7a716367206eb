import { describe, expect, it, vi } from 'vitest';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { httpChain, json, type ApiEvent } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';

const context = { getRemainingTimeInMillis: () => 30_000 } as Context;

function event(body: string | undefined, contentType: string, base64 = false): ApiEvent {
  return {
    version: '2.0',
    routeKey: 'POST /echo',
    rawPath: '/echo',
    rawQueryString: '',
    headers: { 'Content-Type': contentType },
    requestContext: {
      http: {
        method: 'POST',
        path: '/echo',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test',
      },
      requestId: 'req-1',
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: base64,
  } as unknown as ApiEvent;
}

const Title = z.object({
  title: z.string().max(255, 'The title may not be greater than 255 characters'),
});
const echo = httpChain('test', async (e) => json(200, { body: Title.parse(e.body) }));

describe('the middy chain', () => {
  it('parses a JSON body and validates it with zod', async () => {
    const res = await echo(event('{"title":"Welcome"}', 'application/json'), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!)).toEqual({ body: { title: 'Welcome' } });
  });

  it("answers 422 with the spec's message as a field error", async () => {
    const res = await echo(
      event(JSON.stringify({ title: 'x'.repeat(256) }), 'application/json'),
      context,
    );
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body!)).toMatchObject({
      message: 'The title may not be greater than 255 characters',
      errors: { title: ['The title may not be greater than 255 characters'] },
    });
  });

  it('parses a multipart body into fields', async () => {
    const boundary = 'XyZ';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      '',
      'From a form',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await echo(
      event(
        Buffer.from(body).toString('base64'),
        `multipart/form-data; boundary=${boundary}`,
        true,
      ),
      context,
    );
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!)).toEqual({ body: { title: 'From a form' } });
  });

  it('accepts a JSON content type with no body (clients send it on GETs)', async () => {
    const get = httpChain('test', async () => json(200, { ok: true }));
    const res = await get(event(undefined, 'application/json'), context);
    expect(res.statusCode).toBe(200);
  });

  it('answers malformed JSON with a 4xx and adds security headers', async () => {
    const res = await echo(event('{"title":', 'application/json'), context);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const headers = Object.fromEntries(
      Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-request-id']).toBe('req-1');
  });
});

describe('logs (docs/infra.md "Observability")', () => {
  it("puts the request id and the Lambda context on every line of an invocation, and no other's", async () => {
    const lines: string[] = [];
    // Powertools writes errors to stderr and the rest to stdout.
    const capture = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const writeErr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const lambdaContext = {
      ...context,
      functionName: 'picsnippets-test',
      awsRequestId: 'lambda-req-9',
      functionVersion: '$LATEST',
      memoryLimitInMB: '512',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:1:function:picsnippets-test',
    } as Context;
    const chain = httpChain('test', async () => {
      logger.error('inside the handler');
      return json(200, {});
    });
    try {
      await chain(event('{}', 'application/json'), lambdaContext);
      await chain(
        { ...event('{}', 'application/json'), requestContext: undefined } as never,
        lambdaContext,
      );
    } finally {
      write.mockRestore();
      writeErr.mockRestore();
    }
    const inside = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('inside the handler'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inside).toHaveLength(2);
    expect(inside[0]).toMatchObject({
      requestId: 'req-1',
      function_request_id: 'lambda-req-9',
      function_name: 'picsnippets-test',
      cold_start: expect.any(Boolean),
    });
    expect(inside[1]!.requestId).toBeUndefined();
  });
});
