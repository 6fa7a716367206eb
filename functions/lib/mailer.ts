/**
 * Product e-mail (DESIGN.md §3): Amazon SES (v2 API) in AWS; locally an outbox folder, one JSON
 * file per message, listed by the local stack at /__outbox. Message bodies may hold one-time
 * links: they are never logged.
 */
import { SESv2Client, SendEmailCommand, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from './config.ts';
import { logger } from './logger.ts';
import { METRIC, recordMetric } from './metrics.ts';

export interface Mail {
  to: string;
  subject: string;
  /** Plain text; links on their own lines. */
  text: string;
  /** Where replies go (the support form: the signed-in user's address). */
  replyTo?: string;
  /**
   * Extra message headers, name → value (the support form's `X-PicSnippets-User-Id` and
   * `X-PicSnippets-Team-Id`; docs/notifications.md "Support"). Kept in the outbox file as is.
   */
  headers?: Record<string, string>;
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
 * exercise the real SDK up to the HTTP request it would send (docs/decisions.md "E-mail at the
 * SDK boundary"). Resets the client.
 */
export function setSesClientOptions(options: SESv2ClientConfig = {}): void {
  sesOptions = options;
  ses = undefined;
}

/**
 * Sends one e-mail.
 * @throws the SES error in AWS (the caller decides whether that fails the request).
 */
export async function sendMail(mail: Mail): Promise<void> {
  const c = config();
  const message: SentMail = {
    ...mail,
    id: randomUUID(),
    from: c.MAIL_FROM,
    sentAt: new Date().toISOString(),
  };
  if (c.STAGE === 'aws') {
    ses ??= new SESv2Client({ region: c.AWS_REGION, ...sesOptions });
    await sendBySes(ses, c.MAIL_FROM, mail);
  } else {
    await mkdir(c.OUTBOX_DIR, { recursive: true });
    await writeFile(
      join(c.OUTBOX_DIR, `${message.sentAt.replace(/[:.]/g, '-')}-${message.id}.json`),
      JSON.stringify(message, null, 2),
    );
  }
  // The address's first character and domain only: `a…@example.com`.
  const at = mail.to.indexOf('@');
  const to = at > 0 ? `${mail.to[0]}…${mail.to.slice(at)}` : mail.to;
  recordMetric(METRIC.mail, 1, ['outcome', 'sent']);
  logger.info('mail sent', { to, subject: mail.subject });
}

/** One SES send; a refusal is counted (`Mail{outcome=failed}`) and thrown. */
async function sendBySes(client: SESv2Client, from: string, mail: Mail): Promise<void> {
  try {
    await client.send(
      new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [mail.to] },
        ...(mail.replyTo ? { ReplyToAddresses: [mail.replyTo] } : {}),
        Content: {
          Simple: {
            Subject: { Data: mail.subject },
            Body: { Text: { Data: mail.text } },
            ...(mail.headers
              ? { Headers: Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value })) }
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
