/**
 * E-mail in AWS goes through the real `@aws-sdk/client-sesv2` (functions/lib/mailer.ts), tested
 * at the SDK boundary (docs/adr/0042-e-mail-at-the-sdk-boundary.md "E-mail at the SDK boundary"): a
 * recording request handler takes the signed HTTP request the SDK would send to SES and answers as
 * SES does. The local stack gives the mailer its DynamoDB (the suppression check before each send).
 * Asserted: what a recipient and an operator would check (sender, recipient, reply-to,
 * configuration set, subject, text and HTML parts, custom headers, the SES v2 endpoint and a SigV4
 * signature), that an SES refusal reaches the caller, and that a suppressed address makes no
 * request at all.
 */
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { suppressAddress } from '#lib/mail-suppression.ts';
import { passwordResetMail, supportMail } from '#domain/mail-templates.ts';
import { sendMail, setSesClientOptions } from '#lib/mailer.ts';
import { metricTotals } from '#lib/metrics.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

interface Recorded {
  method: string;
  hostname: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

let recorded: Recorded[] = [];
let answer: { status: number; body: unknown; headers?: Record<string, string> };
let saved: NodeJS.ProcessEnv;

beforeEach(() => {
  stack();
  saved = { ...process.env };
  recorded = [];
  answer = { status: 200, body: { MessageId: 'msg-1' } };
  Object.assign(process.env, {
    MAIL_TRANSPORT: 'ses',
    AWS_REGION: 'eu-west-1',
    MAIL_FROM: 'PicSnippets <no-reply@picsnippets.example>',
    SES_CONFIGURATION_SET: 'PicSnippetsMail-abc123',
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
              : new TextDecoder().decode(request.body ?? new Uint8Array()),
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
  process.env = saved;
  resetConfig();
  setSesClientOptions();
});

describe('e-mail through SES (AWS)', () => {
  it('sends one signed SendEmail request: sender, recipient, configuration set, both parts', async () => {
    const link = 'https://app.example/password/reset/t0k3n?email=ana%40example.org';
    const mail = passwordResetMail({ name: 'Ana <&>', link });
    await sendMail({ to: 'ana@example.org', ...mail });
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
      ConfigurationSetName: 'PicSnippetsMail-abc123',
      Content: {
        Simple: {
          Subject: { Data: 'Reset your PicSnippets password', Charset: 'UTF-8' },
          Body: {
            Text: { Data: mail.text, Charset: 'UTF-8' },
            Html: { Data: mail.html, Charset: 'UTF-8' },
          },
        },
      },
    });
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.html).toContain(
      'href="https://app.example/password/reset/t0k3n?email=ana%40example.org"',
    );
    expect(mail.html).toContain('Hello Ana &lt;&amp;&gt;,');
  });

  it('sends Reply-To as the reply address and other headers as message headers', async () => {
    await sendMail({
      to: 'support@picsnippets.example',
      ...supportMail({ from: 'ana@example.org', subject: 'Export', message: 'Hi' }),
      headers: { 'Reply-To': 'ana@example.org', 'X-PicSnippets-Team': 'team-demo' },
    });
    const body = JSON.parse(recorded[0]!.body) as {
      ReplyToAddresses: string[];
      Content: { Simple: { Subject: { Data: string }; Headers: unknown } };
    };
    expect(body.ReplyToAddresses).toEqual(['ana@example.org']);
    expect(body.Content.Simple.Subject.Data).toBe('[Support] Export');
    expect(body.Content.Simple.Headers).toEqual([
      { Name: 'X-PicSnippets-Team', Value: 'team-demo' },
    ]);
  });

  it("hands SES's refusal to the caller and counts it", async () => {
    answer = {
      status: 400,
      body: { message: 'Email address is not verified.' },
      headers: { 'x-amzn-errortype': 'MessageRejected' },
    };
    const before = metricTotals()['Mail{outcome=failed}'] ?? 0;
    await expect(
      sendMail({ to: 'ana@example.org', subject: 'Hello', text: 'Hi' }),
    ).rejects.toMatchObject({ name: 'MessageRejected' });
    expect(metricTotals()['Mail{outcome=failed}']).toBe(before + 1);
  });

  it('makes no request for a suppressed address, and does not throw', async () => {
    await suppressAddress({ email: 'Gone@Example.org', reason: 'bounce' });
    await sendMail({ to: 'gone@example.org', subject: 'Hello', text: 'Hi' });
    await sendMail({ to: 'Ana <GONE@example.org>', subject: 'Hello', text: 'Hi' });
    expect(recorded).toEqual([]);
  });

  it('sends nothing with MAIL_TRANSPORT=off (a stage without a mail domain)', async () => {
    process.env.MAIL_TRANSPORT = 'off';
    resetConfig();
    await sendMail({ to: 'ana@example.org', subject: 'Hello', text: 'Hi' });
    expect(recorded).toEqual([]);
    expect(metricTotals()['Mail{outcome=off}']).toBeGreaterThanOrEqual(1);
  });
});
