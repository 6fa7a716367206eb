/**
 * Secrets from SSM at cold start (functions/lib/ssm-secrets.ts, docs/infra.md "Deploy"): the real
 * `SSMClient`, with the HTTP exchange answered at the SDK's request-handler boundary (SSM cannot
 * run offline). Checked: which settings are asked for, the one batched GetParameters call with
 * decryption, the values reaching `config()`, nothing asked when no `*_PARAMETER` is set or on
 * warm requests, a parameter not created yet leaving its setting unset (the feature's offline
 * mode), and a failing SSM failing the request, then retried.
 */
import { afterEach, describe, expect, it } from 'vitest';
import middy from '@middy/core';
import { config, resetConfig } from '#lib/config.ts';
import { ssmSecretParameters, ssmSecrets } from '#lib/ssm-secrets.ts';

/** What the SDK hands its request handler (the fields this endpoint reads). */
interface HttpRequest {
  headers: Record<string, string>;
  body?: unknown;
}

const STORE: Record<string, string> = {
  '/picsnippets/keap/client-id': 'keap-id-123',
  '/picsnippets/keap/client-secret': 'keap-secret-456',
};

/** The SDK's request handler, answering GetParameters from STORE and keeping each request. */
function ssmEndpoint() {
  const requests: Array<{ target: string; body: { Names: string[]; WithDecryption: boolean } }> =
    [];
  const requestHandler = {
    handle: async (request: HttpRequest) => {
      const body = JSON.parse(String(request.body)) as { Names: string[]; WithDecryption: boolean };
      requests.push({ target: String(request.headers['x-amz-target']), body });
      const answer = {
        Parameters: body.Names.filter((n) => n in STORE).map((n) => ({
          Name: n,
          Type: 'SecureString',
          Value: STORE[n],
          Version: 1,
        })),
        InvalidParameters: body.Names.filter((n) => !(n in STORE)),
      };
      const { Readable } = await import('node:stream');
      return {
        response: {
          statusCode: 200,
          reason: 'OK',
          headers: { 'content-type': 'application/x-amz-json-1.1' },
          body: Readable.from([Buffer.from(JSON.stringify(answer))]),
        },
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
  return {
    requests,
    options: {
      clientConfig: {
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
        requestHandler,
      },
    },
  };
}

const KEYS = [
  'KEAP_CLIENT_ID',
  'KEAP_CLIENT_SECRET',
  'KEAP_CLIENT_ID_PARAMETER',
  'KEAP_CLIENT_SECRET_PARAMETER',
];
afterEach(() => {
  for (const key of KEYS) delete process.env[key];
  resetConfig();
});

/** A handler that answers the setting it reads through config(). */
const reading = (setting: 'KEAP_CLIENT_SECRET' | 'KEAP_CLIENT_ID') =>
  middy(async () => config()[setting] ?? null);

describe('secrets from SSM', () => {
  it('maps each *_PARAMETER variable of a known setting not already set', () => {
    expect(
      ssmSecretParameters({
        KEAP_CLIENT_SECRET_PARAMETER: '/picsnippets/keap/client-secret',
        STRIPE_SECRET_KEY: 'sk_set_directly',
        STRIPE_SECRET_KEY_PARAMETER: '/picsnippets/stripe/secret-key',
        NOT_A_SETTING_PARAMETER: '/x',
      }),
    ).toEqual({ KEAP_CLIENT_SECRET: '/picsnippets/keap/client-secret' });
  });

  it('reads them in one decrypted GetParameters call and config() sees them', async () => {
    process.env.KEAP_CLIENT_ID_PARAMETER = '/picsnippets/keap/client-id';
    process.env.KEAP_CLIENT_SECRET_PARAMETER = '/picsnippets/keap/client-secret';
    const endpoint = ssmEndpoint();
    const handler = reading('KEAP_CLIENT_SECRET');
    for (const m of ssmSecrets(endpoint.options)) handler.use(m);
    expect(await handler({}, {} as never)).toBe('keap-secret-456');
    expect(config().KEAP_CLIENT_ID).toBe('keap-id-123');
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]!.target).toBe('AmazonSSM.GetParameters');
    expect(endpoint.requests[0]!.body).toEqual({
      Names: ['/picsnippets/keap/client-id', '/picsnippets/keap/client-secret'],
      WithDecryption: true,
    });
    // Warm invocations ask nothing more.
    expect(await handler({}, {} as never)).toBe('keap-secret-456');
    expect(endpoint.requests).toHaveLength(1);
  });

  it('adds nothing to the chain when no parameter is configured', () => {
    expect(ssmSecrets(ssmEndpoint().options)).toEqual([]);
  });

  it('leaves a setting unset when its parameter does not exist, and sets the others', async () => {
    process.env.KEAP_CLIENT_ID_PARAMETER = '/picsnippets/keap/client-id';
    process.env.KEAP_CLIENT_SECRET_PARAMETER = '/picsnippets/keap/missing';
    const endpoint = ssmEndpoint();
    const handler = reading('KEAP_CLIENT_SECRET');
    for (const m of ssmSecrets(endpoint.options)) handler.use(m);
    expect(await handler({}, {} as never)).toBeNull();
    expect(config().KEAP_CLIENT_ID).toBe('keap-id-123');
    expect(process.env.KEAP_CLIENT_SECRET).toBeUndefined();
    await handler({}, {} as never);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('fails the request when SSM fails, and asks again on the next one', async () => {
    process.env.KEAP_CLIENT_SECRET_PARAMETER = '/picsnippets/keap/client-secret';
    const endpoint = ssmEndpoint();
    let fail = true;
    const handle = endpoint.options.clientConfig.requestHandler.handle;
    endpoint.options.clientConfig.requestHandler.handle = async (request: HttpRequest) => {
      if (fail) {
        fail = false;
        throw Object.assign(new Error('socket hang up'), { $metadata: {} });
      }
      return handle(request);
    };
    const handler = reading('KEAP_CLIENT_SECRET');
    for (const m of ssmSecrets(endpoint.options)) handler.use(m);
    await expect(handler({}, {} as never)).rejects.toThrow();
    expect(await handler({}, {} as never)).toBe('keap-secret-456');
  });
});
