/**
 * Product e-mail (docs/infra.md "E-mail"): Amazon SES (v2 API) in AWS; locally an
 * outbox folder, one JSON file per message, listed by the local stack at /__outbox. Message
 * bodies may hold one-time links: they are never logged, and addresses are logged masked.
 *
 * Every send first asks whether the address is suppressed (it bounced for good or complained:
 * functions/lib/mail-suppression.ts). A suppressed address is skipped with a log line and a
 * `Mail{outcome=suppressed}` count, and the send returns normally: the action that mails (an
 * invitation, a reset) does not fail because of it. A failed lookup lets the mail go.
 *
 * The transport is `MAIL_TRANSPORT` (functions/lib/config.ts): `ses`, `outbox` or `off`.
 */
import { SESv2Client, SendEmailCommand, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config, type Config } from './config.ts';
import { logger } from './logger.ts';
import { maskAddress, suppressionOf } from './mail-suppression.ts';
import { METRIC, recordMetric } from './metrics.ts';
import { traced } from './tracing.ts';

export interface Mail {
  to: string;
  subject: string;
  /** Plain text; links on their own lines. Every mail has it (functions/domain/mail-templates.ts). */
  text: string;
  /** The HTML part, every value escaped (functions/domain/mail-templates.ts); absent, text only. */
  html?: string | undefined;
  /**
   * Extra message headers, by name (printable ASCII; SES's limits: name ≤ 126 characters, name
   * and value ≤ 996). `Reply-To` becomes SES's reply-to address; the rest are sent as written.
   */
  headers?: Record<string, string> | undefined;
}

export interface SentMail extends Mail {
  id: string;
  from: string;
  /** ISO 8601 */
  sentAt: string;
}

let ses: SESv2Client | undefined;
let sesOptions: SESv2ClientConfig = {};

/**
 * Test seam: options for the SES client (a recording `requestHandler`, credentials), so tests
 * exercise the real SDK up to the HTTP request it would send
 * (docs/adr/0042-e-mail-at-the-sdk-boundary.md "E-mail at the SDK boundary"). Resets the client.
 */
export function setSesClientOptions(options: SESv2ClientConfig = {}): void {
  sesOptions = options;
  ses = undefined;
}

/** The transport of a configuration: `MAIL_TRANSPORT`, else `ses` in AWS and `outbox` elsewhere. */
export function mailTransport(c: Config = config()): 'ses' | 'outbox' | 'off' {
  return c.MAIL_TRANSPORT ?? (c.STAGE === 'aws' ? 'ses' : 'outbox');
}

/**
 * Sends one e-mail, unless its address is suppressed (then logs and returns).
 * @throws the SES error in AWS (the caller decides whether that fails the request); never for a
 *   suppressed address or a failed suppression lookup.
 */
export async function sendMail(mail: Mail): Promise<void> {
  const c = config();
  const to = maskAddress(mail.to);
  const transport = mailTransport(c);
  if (transport === 'off') {
    recordMetric(METRIC.mail, 1, ['outcome', 'off']);
    logger.warn('mail not sent: e-mail is off in this stage (docs/infra.md "E-mail")', {
      to,
      subject: mail.subject,
    });
    return;
  }
  const suppressed = await suppressionOf(mail.to).catch((error: unknown) => {
    logger.warn('mail suppression not checked; sending', { to, error: (error as Error).name });
    return undefined;
  });
  if (suppressed) {
    recordMetric(METRIC.mail, 1, ['outcome', 'suppressed']);
    logger.info('mail skipped: the address bounced or complained', {
      to,
      subject: mail.subject,
      reason: suppressed.reason,
    });
    return;
  }
  if (transport === 'ses') {
    ses ??= traced(new SESv2Client({ region: c.AWS_REGION, ...sesOptions }));
    await sendBySes(ses, c, mail);
  } else {
    const message: SentMail = {
      ...mail,
      id: randomUUID(),
      from: c.MAIL_FROM,
      sentAt: new Date().toISOString(),
    };
    await mkdir(c.OUTBOX_DIR, { recursive: true });
    await writeFile(
      join(c.OUTBOX_DIR, `${message.sentAt.replace(/[:.]/g, '-')}-${message.id}.json`),
      JSON.stringify(message, null, 2),
    );
  }
  recordMetric(METRIC.mail, 1, ['outcome', 'sent']);
  logger.info('mail sent', { to, subject: mail.subject });
}

/**
 * One SES SendEmail (v2) request: sender `MAIL_FROM`, the configuration set
 * `SES_CONFIGURATION_SET` (its event destination reports bounces and complaints), a simple
 * message with the text part, the HTML part when given, UTF-8, and the extra headers. A refusal
 * is counted (`Mail{outcome=failed}`) and thrown.
 */
async function sendBySes(client: SESv2Client, c: Config, mail: Mail): Promise<void> {
  const headers = Object.entries(mail.headers ?? {});
  const replyTo = headers.filter(([name]) => name.toLowerCase() === 'reply-to').map(([, v]) => v);
  const others = headers.filter(([name]) => name.toLowerCase() !== 'reply-to');
  try {
    await client.send(
      new SendEmailCommand({
        FromEmailAddress: c.MAIL_FROM,
        Destination: { ToAddresses: [mail.to] },
        ...(replyTo.length > 0 ? { ReplyToAddresses: replyTo } : {}),
        ...(c.SES_CONFIGURATION_SET ? { ConfigurationSetName: c.SES_CONFIGURATION_SET } : {}),
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: mail.text, Charset: 'UTF-8' },
              ...(mail.html === undefined ? {} : { Html: { Data: mail.html, Charset: 'UTF-8' } }),
            },
            ...(others.length > 0
              ? { Headers: others.map(([Name, Value]) => ({ Name, Value })) }
              : {}),
          },
        },
      }),
    );
  } catch (error) {
    recordMetric(METRIC.mail, 1, ['outcome', 'failed']);
    throw error;
  }
}

/** The local outbox, newest first. */
export async function readOutbox(dir = config().OUTBOX_DIR): Promise<SentMail[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    files
      .filter((f) => f.endsWith('.json'))
      .map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as SentMail),
  );
  return mails.sort((a, b) => (a.sentAt < b.sentAt ? 1 : -1));
}
