import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  MAX_ID_BYTES,
  assertStorableId,
  notImplemented,
  validationFailed,
} from '#lib/errors.ts';
import { GENERIC_ERROR, errorToResult } from '#lib/http.ts';
import { loadConfig } from '#lib/config.ts';

const body = (r: { body?: string }) => JSON.parse(r.body ?? '{}') as Record<string, unknown>;

describe('errorToResult: typed errors become JSON answers', () => {
  it('keeps the status and message of an AppError', () => {
    const r = errorToResult(new AppError(404, 'not_found', 'Not found.'), 'req-1');
    expect(r.statusCode).toBe(404);
    expect(body(r)).toMatchObject({ success: false, message: 'Not found.' });
  });

  it('gives field errors for a 422', () => {
    const r = errorToResult(validationFailed({ email: ['Email must be valid email'] }), 'req-1');
    expect(r.statusCode).toBe(422);
    expect(body(r)).toMatchObject({
      message: 'Email must be valid email',
      errors: { email: ['Email must be valid email'] },
    });
  });

  it('turns a zod error into field errors', () => {
    const parsed = z.object({ title: z.string().max(3, 'Too long') }).safeParse({ title: 'long' });
    const r = errorToResult(parsed.error, 'req-1');
    expect(r.statusCode).toBe(422);
    expect(body(r).errors).toEqual({ title: ['Too long'] });
  });

  it('names the feature in a 501', () => {
    const r = errorToResult(notImplemented('designs', 'GET /getActive'), 'req-1');
    expect(r.statusCode).toBe(501);
    expect(body(r)).toMatchObject({
      feature: 'designs',
      message: 'designs: GET /getActive is not available yet.',
    });
  });

  it('hides internals of unexpected errors', () => {
    const r = errorToResult(
      new Error('connect ECONNREFUSED 10.0.0.1:5432 password=hunter2'),
      'req-9',
    );
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('hunter2');
    expect(body(r)).toMatchObject({ message: GENERIC_ERROR, requestId: 'req-9' });
  });
});

describe('errorToResult: a service that cannot be reached is 503, not a bug', () => {
  const refused = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

  it('answers 503 "Service unavailable, try again." with Retry-After for a refused connection', () => {
    const r = errorToResult(refused(), 'req-2');
    expect(r.statusCode).toBe(503);
    expect(r.headers?.['retry-after']).toBe('5');
    expect(body(r)).toMatchObject({
      success: false,
      code: 'service_unavailable',
      message: 'Service unavailable, try again.',
    });
    expect(r.body).not.toContain('127.0.0.1');
  });

  it('finds the SDK error inside ElectroDB’s wrapper (cause) and in an AggregateError', () => {
    const wrapped = Object.assign(new Error('Error thrown by DynamoDB client'), {
      name: 'ElectroError',
      cause: refused(),
    });
    expect(errorToResult(wrapped, 'r').statusCode).toBe(503);
    expect(errorToResult(new AggregateError([refused()]), 'r').statusCode).toBe(503);
  });

  it('counts throttling and an HTTP 503 from the service, not a refused request', () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const busy = Object.assign(new Error('busy'), { $metadata: { httpStatusCode: 503 } });
    const invalid = Object.assign(new Error('Key too long'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(errorToResult(throttled, 'r').statusCode).toBe(503);
    expect(errorToResult(busy, 'r').statusCode).toBe(503);
    expect(errorToResult(invalid, 'r').statusCode).toBe(500);
  });
});

describe('assertStorableId', () => {
  it(`accepts ids up to ${MAX_ID_BYTES} UTF-8 bytes and answers 404 past them`, () => {
    expect(() => assertStorableId('a'.repeat(MAX_ID_BYTES))).not.toThrow();
    expect(() => assertStorableId('a'.repeat(MAX_ID_BYTES + 1))).toThrow(AppError);
    // 64 four-byte characters are 256 bytes; one more is past the bound.
    expect(() => assertStorableId('😀'.repeat(64))).not.toThrow();
    expect(() => assertStorableId('😀'.repeat(65))).toThrow('Not found.');
  });
});

describe('loadConfig', () => {
  it('has local defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ STAGE: 'local', PORT: 3000, PUBLIC_URL: 'http://localhost:3000' });
    expect(c.STRIPE_SECRET_KEY).toBeUndefined();
  });

  it('lists every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', STAGE: 'prod' })).toThrow(
      /PORT[\s\S]*STAGE|STAGE[\s\S]*PORT/,
    );
  });

  it('treats blank secrets as absent (offline billing)', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: '  ' }).STRIPE_SECRET_KEY).toBeUndefined();
  });
});
