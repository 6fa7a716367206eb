/**
 * The mail-events function (AWS): SES's bounce and complaint events, delivered by the
 * configuration set's SNS topic (infra/constructs/email.ts), mark addresses the product stops
 * mailing (docs/infra.md "E-mail"; functions/lib/mail-suppression.ts). Not an HTTP route.
 *
 * - A permanent bounce or a complaint marks each recipient; a transient or undetermined bounce
 *   is counted and logged only.
 * - Each event is counted as `MailBounced{type=permanent|transient|undetermined}` or
 *   `MailComplained` (shared/metrics.ts), which the "mails bounced" alarm reads.
 * - Logs name the recipient's first character and domain only, never the whole address.
 * - A failed write throws: Lambda retries an SNS delivery twice. A message that is not a bounce
 *   or complaint is skipped.
 */
import type { SNSEvent } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { maskAddress, suppressAddress } from '#lib/mail-suppression.ts';
import { METRIC, recordMetric } from '#lib/metrics.ts';
import { parseSesEvent } from './events.ts';

/**
 * Lambda entry: one SNS delivery (usually one record).
 * @returns how many addresses were marked, for tests and the log.
 * @throws the DynamoDB error of a failed mark (the delivery is retried).
 */
export async function handler(event: SNSEvent): Promise<{ suppressed: number }> {
  let suppressed = 0;
  for (const record of event.Records ?? []) {
    const feedback = parseSesEvent(record.Sns?.Message ?? '');
    if (!feedback) {
      logger.info('SES event ignored (not a bounce or complaint)', {
        snsMessageId: record.Sns?.MessageId,
      });
      continue;
    }
    if (feedback.kind === 'complaint') recordMetric(METRIC.mailComplained, 1);
    else recordMetric(METRIC.mailBounced, 1, ['type', feedback.kind]);
    const marks = feedback.kind === 'permanent' || feedback.kind === 'complaint';
    for (const address of feedback.recipients) {
      if (marks) {
        await suppressAddress({
          email: address,
          reason: feedback.kind === 'complaint' ? 'complaint' : 'bounce',
          detail: feedback.detail,
          feedbackId: feedback.feedbackId,
          eventAt: feedback.eventAt,
        });
        suppressed++;
      }
      logger.info(marks ? 'mail address suppressed' : 'mail bounced (address kept)', {
        to: maskAddress(address),
        kind: feedback.kind,
        detail: feedback.detail,
      });
    }
  }
  return { suppressed };
}
