/**
 * E-mail in AWS goes through the real `@aws-sdk/client-sesv2` (functions/lib/mailer.ts), tested
 * at the SDK boundary: a recording request handler takes the signed HTTP request the SDK would
 * send to SES and answers as SES does. The tests assert what a recipient and an operator would
 * check: the sender, the recipient, the subject and the text, the SES v2 endpoint and a SigV4
 * signature; and that an SES refusal reaches the caller.
 */
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { sendMail, setSesClientOptions } from '#lib/mailer.ts';

interface Recorded {
  method: string;
  hostname: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

let recorded: Recorded[] = [];
let answer: { status: number; body: unknown; headers?: Record<string, string> } = {
  status: 200,
  body: { MessageId: 'msg-1' },
};
const saved = { ...process.env };

beforeEach(() => {
  recorded = [];
  answer = { status: 200, body: { MessageId: 'msg-1' } };
  Object.assign(process.env, {
    STAGE: 'aws',
    AWS_REGION: 'eu-west-1',
    MAIL_FROM: 'PicSnippets <no-reply@picsnippets.example>',
  });
  resetConfig();
  setSesClientOptions({
    credentials: { accessKeyId: 'AKIATESTSES000000001', secretAccessKey: 'test-secret-key' },
    requestHandler: {
      handle: async (request: {
        method: string;
        hostname: string;
        path: string;
        headers: Record<string, string>;
        body?: string | Uint8Array;
      }) => {
        recorded.push({
          method: request.method,
          hostname: request.hostname,
          path: request.path,
          headers: request.headers,
          body:
            typeof request.body === 'string'
              ? request.body
              : Buffer.from(request.body ?? []).toString('utf8'),
        });
        return {
          response: {
            statusCode: answer.status,
            headers: { 'content-type': 'application/json', ...answer.headers },
            body: Readable.from([Buffer.from(JSON.stringify(answer.body))]),
          },
        };
      },
    } as never,
  });
});

afterEach(() => {
  process.env = { ...saved };
  resetConfig();
  setSesClientOptions();
});

describe('e-mail through SES (AWS)', () => {
  it('sends one signed SendEmail request with the sender, recipient, subject and text', async () => {
    await sendMail({
      to: 'ana@example.org',
      subject: 'Reset your PicSnippets password',
      text: 'Open this link within an hour:\n\nhttps://app.example/password/reset/t0k3n\n',
    });
    expect(recorded).toHaveLength(1);
    const [req] = recorded;
    expect(req!.method).toBe('POST');
    expect(req!.hostname).toBe('email.eu-west-1.amazonaws.com');
    expect(req!.path).toBe('/v2/email/outbound-emails');
    expect(req!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIATESTSES000000001\/\d{8}\/eu-west-1\/ses\/aws4_request/,
    );
    expect(JSON.parse(req!.body)).toEqual({
      FromEmailAddress: 'PicSnippets <no-reply@picsnippets.example>',
      Destination: { ToAddresses: ['ana@example.org'] },
      Content: {
        Simple: {
          Subject: { Data: 'Reset your PicSnippets password' },
          Body: {
            Text: {
              Data: 'Open this link within an hour:\n\nhttps://app.example/password/reset/t0k3n\n',
            },
          },
        },
      },
    });
  });

  it("hands SES's refusal to the caller", async () => {
    answer = {
      status: 400,
      body: { message: 'Email address is not verified.' },
      headers: { 'x-amzn-errortype': 'MessageRejected' },
    };
    await expect(
      sendMail({ to: 'ana@example.org', subject: 'Hello', text: 'Hi' }),
    ).rejects.toMatchObject({ name: 'MessageRejected' });
  });
});
