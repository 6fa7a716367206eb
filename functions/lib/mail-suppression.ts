/**
 * The addresses the product stops mailing (docs/infra.md "E-mail"): SES reports a permanent
 * bounce or a complaint through the configuration set's SNS topic, functions/mail-events marks
 * the address here, and functions/lib/mailer.ts skips it on every later send.
 *
 * Only permanent bounces and complaints mark an address. A transient bounce (mailbox full,
 * message too large, greylisting) or an undetermined one says nothing lasting about the
 * address, and SES retries those itself (SES developer guide, "Bounce types").
 */
import { db } from './db/index.ts';

/** Why an address is suppressed. */
export type SuppressionReason = 'bounce' | 'complaint';

export interface Suppression {
  /** The address as given; stored trimmed and lower case. */
  email: string;
  reason: SuppressionReason;
  /** `Permanent/General` for a bounce, the feedback type (`abuse`) for a complaint. */
  detail?: string | undefined;
  feedbackId?: string | undefined;
  /** ISO 8601, when SES saw the event. */
  eventAt?: string | undefined;
}

/**
 * The form an address is stored and looked up in: the bare address of `Name <a@b>`, trimmed,
 * lower case (addresses are stored lower case everywhere in the product: users, invitations).
 */
export function normaliseAddress(address: string): string {
  const angle = /<([^<>]+)>\s*$/.exec(address);
  return (angle ? angle[1]! : address).trim().toLowerCase();
}

/** The address's first character and domain only, for logs: `a…@example.com`. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address[0]}…${address.slice(at)}` : '…';
}

/** Marks an address; a later event for the same address replaces the earlier one. */
export async function suppressAddress(entry: Suppression): Promise<void> {
  await db()
    .SuppressedAddress.put({
      email: normaliseAddress(entry.email),
      reason: entry.reason,
      ...(entry.detail ? { detail: entry.detail.slice(0, 120) } : {}),
      ...(entry.feedbackId ? { feedbackId: entry.feedbackId.slice(0, 200) } : {}),
      ...(entry.eventAt ? { eventAt: entry.eventAt } : {}),
    })
    .go();
}

/**
 * The suppression of an address, if it is marked.
 * @returns `{ reason, detail }`, or undefined when the address may be mailed.
 * @throws the DynamoDB error (the mailer decides what a failed lookup means).
 */
export async function suppressionOf(
  address: string,
): Promise<{ reason: SuppressionReason; detail?: string | undefined } | undefined> {
  const found = (
    await db()
      .SuppressedAddress.get({ email: normaliseAddress(address) })
      .go()
  ).data;
  return found ? { reason: found.reason, detail: found.detail } : undefined;
}

/** Lets an address be mailed again (an operator's fix after the mailbox is repaired). */
export async function releaseAddress(address: string): Promise<void> {
  await db()
    .SuppressedAddress.delete({ email: normaliseAddress(address) })
    .go();
}
