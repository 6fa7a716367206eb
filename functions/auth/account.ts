/**
 * Password reset by e-mail link, password change and contact details (issue: accounts §2–4).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { sendMail } from '#lib/mailer.ts';
import { hashPassword, verifyPassword } from '#lib/passwords.ts';
import { MESSAGES, isCommonPassword } from './registration.ts';

/** How long a reset link works, ms. */
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
/** The same answer whether or not the address has an account (no account discovery). */
export const RESET_SENT =
  'If an account uses that address, we have e-mailed a password reset link.';
export const RESET_INVALID = 'This password reset link is invalid or has expired.';
export const CURRENT_PASSWORD_WRONG = 'The current password is incorrect.';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** A new password: the registration rules (spec 001 §5 and issue: accounts §2). */
export const NewPassword = z
  .string({ error: MESSAGES.password })
  .min(8, MESSAGES.password)
  .max(128, MESSAGES.passwordLong)
  .refine((p) => !isCommonPassword(p), MESSAGES.passwordCommon);

/** E-mails a one-hour reset link to the account's address, if there is an account. */
export async function requestPasswordReset(email: string, now = Date.now()): Promise<void> {
  const user = (
    await db().User.query.byEmail({ email: email.trim().toLowerCase() }).go({ limit: 1 })
  ).data[0];
  if (!user) return;
  const token = randomBytes(32).toString('base64url');
  await db()
    .PasswordReset.put({
      userId: user.userId,
      tokenHash: sha256(token).toString('base64url'),
      expiresAt: now + RESET_LIFETIME_MS,
      ttl: Math.ceil((now + RESET_LIFETIME_MS) / 1000),
    })
    .go();
  const link = `${config().PUBLIC_URL}/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
  await sendMail({
    to: user.email,
    subject: 'Reset your PicSnippets password',
    text: `Hello ${user.name},\n\nSomeone asked to reset the password of your PicSnippets account. To choose a new password, open this link within an hour:\n\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
  });
}

/**
 * Sets a new password with a reset token; the token works once.
 * @throws AppError 422 on `email` for a wrong, used or expired token.
 */
export async function resetPassword(
  email: string,
  token: string,
  password: string,
  now = Date.now(),
): Promise<void> {
  const user = (
    await db().User.query.byEmail({ email: email.trim().toLowerCase() }).go({ limit: 1 })
  ).data[0];
  const reset = user ? (await db().PasswordReset.get({ userId: user.userId }).go()).data : null;
  const expected = reset ? Buffer.from(reset.tokenHash, 'base64url') : Buffer.alloc(32);
  const given = sha256(token);
  if (!user || !reset || reset.expiresAt < now || !timingSafeEqual(expected, given)) {
    throw validationFailed({ email: [RESET_INVALID] });
  }
  await db()
    .User.patch({ userId: user.userId })
    .set({ passwordHash: await hashPassword(password) })
    .go();
  await db().PasswordReset.delete({ userId: user.userId }).go();
}

/**
 * Changes the signed-in user's password after checking the current one.
 * @throws AppError 422 on `current_password`.
 */
export async function changePassword(userId: string, current: string, next: string): Promise<void> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user || !(await verifyPassword(current, user.passwordHash))) {
    throw validationFailed({ current_password: [CURRENT_PASSWORD_WRONG] });
  }
  await db()
    .User.patch({ userId })
    .set({ passwordHash: await hashPassword(next) })
    .go();
}

/**
 * Updates name and e-mail; a new e-mail moves its claim in the same transaction as the user, so
 * two accounts can never share an address.
 * @throws AppError 422 on `email` when the address is taken.
 */
export async function updateContact(userId: string, name: string, email: string): Promise<void> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user) throw validationFailed({ email: [MESSAGES.email] });
  const next = email.trim().toLowerCase();
  if (next === user.email) {
    await db().User.patch({ userId }).set({ name }).go();
    return;
  }
  const result = await db()
    .service.transaction.write(({ EmailClaim, User }) => [
      EmailClaim.create({ email: next, userId }).commit(),
      EmailClaim.delete({ email: user.email }).commit(),
      User.patch({ userId }).set({ name, email: next }).commit(),
    ])
    .go();
  if (result.canceled) throw validationFailed({ email: [MESSAGES.emailTaken] });
}
