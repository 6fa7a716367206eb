/**
 * The render's quota notice step in AWS (docs/security.md "Render limits";
 * functions/render/quota.ts `notifyRenderQuota`): with STAGE=aws and
 * RENDER_NOTICES_FUNCTION_NAME set, the notice is handed to the render-notices function by an
 * asynchronous Lambda Invoke (`InvocationType: 'Event'`) carrying the notice as its payload, and
 * a failed invoke is logged, never thrown into the render. The real SDK client sends to a local
 * HTTP server (its `endpoint`), so the request is checked as Lambda would receive it; no network.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifyRenderQuota, setNoticeLambdaOptions } from '#functions/render/quota.ts';
import { resetConfig } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let received: Received[] = [];
/** What the fake Lambda answers: 202 (queued) or an error. */
let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 202 };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  setNoticeLambdaOptions({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  vi.stubEnv('STAGE', 'aws');
  vi.stubEnv('RENDER_NOTICES_FUNCTION_NAME', 'picsnippets-render-notices');
  resetConfig();
});

afterEach(() => {
  received = [];
  answer = { status: 202 };
  vi.restoreAllMocks();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfig();
  setNoticeLambdaOptions();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const NOTICE = {
  teamId: 'team-1',
  month: '2026-11',
  threshold: 80,
  quota: 10_000,
  used: 8_004,
} as const;

describe('the render quota notice in AWS', () => {
  it('invokes the render-notices function asynchronously with the notice as payload', async () => {
    await notifyRenderQuota(NOTICE);
    expect(received).toHaveLength(1);
    const [invoke] = received;
    expect(invoke!.method).toBe('POST');
    expect(invoke!.url).toBe('/2015-03-31/functions/picsnippets-render-notices/invocations');
    expect(invoke!.headers['x-amz-invocation-type']).toBe('Event');
    expect(JSON.parse(invoke!.body)).toEqual({
      teamId: 'team-1',
      threshold: 80,
      month: '2026-11',
      used: 8_004,
      allowance: 10_000,
    });
  });

  it('logs a failed invoke and never throws into the render', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    answer = {
      status: 403,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' },
      body: JSON.stringify({ Type: 'User', Message: 'not authorised' }),
    };
    await expect(notifyRenderQuota({ ...NOTICE, threshold: 100 })).resolves.toBeUndefined();
    expect(received).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      'render quota notice not handed to the render-notices function',
      expect.objectContaining({ teamId: 'team-1', threshold: 100 }),
    );
  });

  it('logs and sends nothing when the function name is missing', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    vi.stubEnv('RENDER_NOTICES_FUNCTION_NAME', '');
    resetConfig();
    try {
      await expect(notifyRenderQuota(NOTICE)).resolves.toBeUndefined();
    } finally {
      vi.stubEnv('RENDER_NOTICES_FUNCTION_NAME', 'picsnippets-render-notices');
      resetConfig();
    }
    expect(received).toHaveLength(0);
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('RENDER_NOTICES_FUNCTION_NAME is unset'),
      expect.objectContaining({ teamId: 'team-1' }),
    );
  });
});
