/**
 * SES sending events as the configuration set publishes them to SNS (docs/infra.md "E-mail";
 * the record shapes of the SES developer guide, "Contents of event data that Amazon SES
 * publishes to Amazon SNS"): `eventType` (or `notificationType` when the notification comes from
 * an identity's feedback forwarding instead of event publishing) `Bounce` or `Complaint`, with a
 * `bounce` or `complaint` object naming the recipients.
 */
import { z } from 'zod';

const Recipient = z.object({ emailAddress: z.string().min(3).max(320) });

const SesEventSchema = z.object({
  eventType: z.string().optional(),
  notificationType: z.string().optional(),
  bounce: z
    .object({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      bouncedRecipients: z.array(Recipient),
      timestamp: z.string().optional(),
      feedbackId: z.string().optional(),
    })
    .optional(),
  complaint: z
    .object({
      complainedRecipients: z.array(Recipient),
      complaintFeedbackType: z.string().optional(),
      timestamp: z.string().optional(),
      feedbackId: z.string().optional(),
    })
    .optional(),
});

/** What one SES event says about its recipients. */
export interface MailFeedback {
  /**
   * `permanent`: a hard bounce (the address does not exist or refuses mail for good);
   * `transient`: a soft bounce (SES retried and gave up for now); `undetermined`: SES could not
   * tell; `complaint`: the recipient marked the mail as spam.
   */
  kind: 'permanent' | 'transient' | 'undetermined' | 'complaint';
  /** The addresses as SES wrote them. */
  recipients: string[];
  /** `Permanent/General`, or the complaint's feedback type (`abuse`, or `complaint` when SES had none). */
  detail: string;
  feedbackId?: string | undefined;
  /** ISO 8601, when the bounce or complaint happened. */
  eventAt?: string | undefined;
}

/** SES's bounce types (SES developer guide, "Bounce types") in our words. */
const BOUNCE_KINDS: Record<string, MailFeedback['kind']> = {
  Permanent: 'permanent',
  Transient: 'transient',
  Undetermined: 'undetermined',
};

/**
 * Reads one SNS message body as an SES event.
 * @param message the SNS record's `Message` (a JSON string)
 * @returns the bounce or complaint it reports, or null for another event type (delivery, send…)
 *   or a body that is not an SES event (SNS's own subscription messages never reach a Lambda).
 */
export function parseSesEvent(message: string): MailFeedback | null {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return null;
  }
  const parsed = SesEventSchema.safeParse(json);
  if (!parsed.success) return null;
  const event = parsed.data;
  const type = event.eventType ?? event.notificationType;
  if (type === 'Bounce' && event.bounce) {
    const b = event.bounce;
    return {
      kind: BOUNCE_KINDS[b.bounceType] ?? 'undetermined',
      recipients: b.bouncedRecipients.map((r) => r.emailAddress),
      detail: `${b.bounceType}/${b.bounceSubType ?? ''}`.slice(0, 120),
      feedbackId: b.feedbackId,
      eventAt: b.timestamp,
    };
  }
  if (type === 'Complaint' && event.complaint) {
    const c = event.complaint;
    return {
      kind: 'complaint',
      recipients: c.complainedRecipients.map((r) => r.emailAddress),
      detail: (c.complaintFeedbackType ?? 'complaint').slice(0, 120),
      feedbackId: c.feedbackId,
      eventAt: c.timestamp,
    };
  }
  return null;
}
