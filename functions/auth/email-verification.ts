/**
 * Proof that a user reads mail at an address (docs/security.md "Invitations and e-mail
 * ownership"). Two kinds of link, both a 256-bit random token whose SHA-256 is stored with the
 * address and an expiry, used once:
 * - `verify`: confirms the account's own address (sent at registration and on request);
 * - `change`: moves the account to a new address, sent to that address after the password was
 *   checked (`PUT /settings/contact`). Until it is opened the account keeps its old address.
 * An address counts as verified only while it is the account's address: changing it needs the
 * new address's link, which verifies the new one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { tooManyRequests, validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { sendMail } from '#lib/mailer.ts';
import { emailChangeMail, emailVerificationMail } from '#domain/mail-templates.ts';
import { VERIFY_MESSAGES } from '#shared/contract/auth.ts';
import { MESSAGES } from './registration.ts';
import { isThrottled, recordFailure } from '#lib/limits/attempts.ts';

/** How long a verification link works, ms (a day: people read mail late). */
export const VERIFY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** How long a change-of-address link works, ms. */
export const CHANGE_LIFETIME_MS = 60 * 60 * 1000;
/** At most this many verification mails per account in the throttle window (15 minutes). */
export const MAX_VERIFICATION_MAILS = 5;

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/** The SPA page that opens a link's token (web/src/pages/VerifyEmailPage.tsx). */
export const verificationLink = (token: string): string =>
  `${config().PUBLIC_URL}/email/verify/${token}`;

/**
 * Stores a new link and e-mails it.
 * @param user the account (id, name).
 * @param purpose `verify` (the account's address) or `change` (to `email`).
 * @param email where the link goes: the account's address, or the new one.
 * @param fromEmail for `change`, the account's address now.
 * @throws AppError 429 after `MAX_VERIFICATION_MAILS` mails in 15 minutes for the account;
 *   the mailer's error in AWS.
 */
export async function sendVerification(
  user: { userId: string; name: string },
  purpose: 'verify' | 'change',
  email: string,
  fromEmail?: string,
  now = Date.now(),
): Promise<void> {
  const key = `verify-mail#user#${user.userId}`;
  if (await isThrottled(key, now, MAX_VERIFICATION_MAILS))
    throw tooManyRequests(VERIFY_MESSAGES.tooMany);
  await recordFailure(key, now);
  const token = randomBytes(32).toString('base64url');
  const lifetime = purpose === 'verify' ? VERIFY_LIFETIME_MS : CHANGE_LIFETIME_MS;
  await db()
    .EmailVerification.put({
      tokenHash: sha256(token),
      userId: user.userId,
      purpose,
      email,
      ...(fromEmail ? { fromEmail } : {}),
      expiresAt: now + lifetime,
      ttl: Math.ceil((now + lifetime) / 1000),
    })
    .go();
  const link = verificationLink(token);
  await sendMail({
    to: email,
    ...(purpose === 'verify'
      ? emailVerificationMail({ name: user.name, link })
      : emailChangeMail({ name: user.name, link, fromEmail })),
  });
}

/**
 * Sends the verification mail after registration; a mail failure does not fail the
 * registration (the user can ask again from the settings), it is logged.
 */
export async function sendVerificationAfterRegistration(user: {
  userId: string;
  name: string;
  email: string;
}): Promise<void> {
  try {
    await sendVerification(user, 'verify', user.email);
  } catch (error) {
    logger.warn('verification mail not sent', { userId: user.userId, error });
  }
}

/**
 * Opens a link: confirms the account's address (`verify`) or moves the account to the new one
 * (`change`: the new address's claim, the old claim's removal, the user and the link's removal
 * in one transaction, so two accounts never share an address and nothing is half done).
 * @returns what happened, as a message for the page, and the address now confirmed.
 * @throws AppError 422 on `token` for an unknown, used or expired link, or one whose account no
 *   longer has the address it was sent for; 422 on `email` when the new address was taken
 *   meanwhile.
 */
export async function confirmEmail(
  token: string,
  now = Date.now(),
): Promise<{ message: string; email: string }> {
  const tokenHash = sha256(token);
  const link = (await db().EmailVerification.get({ tokenHash }).go()).data;
  const invalid = () => validationFailed({ token: [VERIFY_MESSAGES.invalid] });
  if (!link || link.expiresAt < now) throw invalid();
  const user = (await db().User.get({ userId: link.userId }).go()).data;
  if (!user) throw invalid();
  const at = new Date(now).toISOString();
  if (link.purpose === 'verify') {
    if (user.email !== link.email) throw invalid();
    const result = await db()
      .service.transaction.write(({ User, EmailVerification }) => [
        User.patch({ userId: user.userId })
          .set({ emailVerifiedAt: at })
          .where((a, op) => op.eq(a.email, link.email))
          .commit(),
        EmailVerification.delete({ tokenHash }).commit(),
      ])
      .go();
    if (result.canceled) throw invalid();
    return { message: VERIFY_MESSAGES.verified, email: link.email };
  }
  // A change: the account must still have the address the change was asked from.
  if (!link.fromEmail || user.email !== link.fromEmail) throw invalid();
  const result = await db()
    .service.transaction.write(({ EmailClaim, User, EmailVerification }) => [
      EmailClaim.create({ email: link.email, userId: user.userId }).commit(),
      EmailClaim.delete({ email: link.fromEmail! }).commit(),
      User.patch({ userId: user.userId })
        .set({ email: link.email, emailVerifiedAt: at })
        .where((a, op) => op.eq(a.email, link.fromEmail!))
        .commit(),
      EmailVerification.delete({ tokenHash }).commit(),
    ])
    .go();
  if (result.canceled) {
    if (result.data[0]?.code === 'ConditionalCheckFailed')
      throw validationFailed({ email: [MESSAGES.emailTaken] });
    throw invalid();
  }
  return { message: VERIFY_MESSAGES.changed, email: link.email };
}
