/**
 * Password reset by e-mail link, password change and contact details, hardened (docs/security.md
 * "Sessions and tokens", "Account existence"): a new password ends every other session and can
 * revoke the API tokens in the same transaction; a reset request answers alike, in about the same
 * time, whether or not the address has an account; a new e-mail address needs the password and the
 * new address's confirmation link.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import { sendMail } from '#lib/mailer.ts';
import { emailChangeNoticeMail, passwordResetMail } from '#domain/mail-templates.ts';
import { hashPassword, verifyPassword } from '#lib/passwords.ts';
import { CURRENT_PASSWORD_WRONG } from '#shared/contract/auth.ts';
import { MESSAGES, emailTaken } from './registration.ts';
import { sendVerification } from './email-verification.ts';
import { isThrottled, recordFailure } from '#lib/limits/attempts.ts';

/** How long a reset link works, ms. */
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
/** The same answer whether or not the address has an account (no account discovery). */
export const RESET_SENT =
  'If an account uses that address, we have e-mailed a password reset link.';
export const RESET_INVALID = 'This password reset link is invalid or has expired.';

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * The least time a reset request takes, ms, whether or not the address has an account: the
 * account's path (token write, SES call) finishes well within it, so the answer's timing does
 * not tell the two apart (test/integration/account.test.ts).
 */
export const RESET_REQUEST_MIN_MS = 700;
/** At most this many reset mails per address in the throttle window (15 minutes). */
export const MAX_RESET_MAILS = 5;

/**
 * Answers a reset request: e-mails a one-hour link when the address has an account (and has
 * not had `MAX_RESET_MAILS` in 15 minutes), and in every case returns no sooner than
 * `RESET_REQUEST_MIN_MS` after it started, so neither the answer nor its timing reveals whether
 * the account exists. A mail failure is logged, not answered (that too would tell).
 * @param started when the request started, ms since the epoch.
 */
export async function answerPasswordResetRequest(
  email: string,
  started = Date.now(),
): Promise<void> {
  try {
    await requestPasswordReset(email, started);
  } catch (error) {
    logger.error('password reset request failed', { error });
  }
  const left = started + RESET_REQUEST_MIN_MS - Date.now();
  if (left > 0) await sleep(left);
}

/** E-mails a one-hour reset link to the account's address, if there is an account. */
export async function requestPasswordReset(email: string, now = Date.now()): Promise<void> {
  const address = email.trim().toLowerCase();
  const user = (await db().User.query.byEmail({ email: address }).go({ limit: 1 })).data[0];
  if (!user) return;
  const key = `reset-mail#email#${address}`;
  if (await isThrottled(key, now, MAX_RESET_MAILS)) return;
  await recordFailure(key, now);
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
  await sendMail({ to: user.email, ...passwordResetMail({ name: user.name, link }) });
}

/** What a new password also does (docs/security.md "Sessions and tokens"). */
export interface NewPasswordEffects {
  /** Delete every API token of the account too. */
  revokeTokens: boolean;
  /** Also delete the pending password reset (a reset uses it up). */
  usedReset?: boolean;
}

/** A user can have at most this many API tokens (so revoking them fits one transaction). */
export const MAX_API_TOKENS = 50;

/**
 * Stores a new password hash and ends every session started before now (the caller starts a
 * new one for the current browser, if any), with the token deletions and the reset's removal
 * in the same transaction: all of it happens or none.
 * @throws Error when the transaction is cancelled (the user was deleted meanwhile).
 */
async function setPassword(
  userId: string,
  password: string,
  effects: NewPasswordEffects,
  now = Date.now(),
): Promise<void> {
  const passwordHash = await hashPassword(password);
  const tokens = effects.revokeTokens
    ? (await db().ApiToken.query.byUser({ userId }).go({ pages: 'all' })).data
    : [];
  const result = await db()
    .service.transaction.write(({ User, ApiToken, PasswordReset }) => [
      User.patch({ userId }).set({ passwordHash, sessionsValidFrom: now }).commit(),
      ...tokens
        .slice(0, MAX_API_TOKENS)
        .map((t) => ApiToken.delete({ userId, tokenId: t.tokenId }).commit()),
      ...(effects.usedReset ? [PasswordReset.delete({ userId }).commit()] : []),
    ])
    .go();
  if (result.canceled)
    throw new Error(`password change cancelled: ${result.data.map((d) => d.code).join(', ')}`);
}

/**
 * Sets a new password with a reset token; the token works once. Every session of the account
 * ends; with `revokeTokens` its API tokens are deleted too.
 * @throws AppError 422 on `email` for a wrong, used or expired token.
 */
export async function resetPassword(
  email: string,
  token: string,
  password: string,
  revokeTokens = false,
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
  await setPassword(user.userId, password, { revokeTokens, usedReset: true }, now);
}

/**
 * Changes the signed-in user's password after checking the current one. Every session started
 * before now ends (the handler gives the current browser a new one); with `revokeTokens` the
 * API tokens are deleted too.
 * @returns the moment the change took effect (ms since the epoch); sessions from before it end.
 * @throws AppError 422 on `current_password`.
 */
export async function changePassword(
  userId: string,
  current: string,
  next: string,
  revokeTokens = false,
  now = Date.now(),
): Promise<number> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user || !(await verifyPassword(current, user.passwordHash))) {
    throw validationFailed({ current_password: [CURRENT_PASSWORD_WRONG] });
  }
  await setPassword(userId, next, { revokeTokens }, now);
  return now;
}

/** The answer's message when a new address waits for its confirmation link. */
export const EMAIL_CHANGE_SENT = (email: string) =>
  `We have e-mailed a confirmation link to ${email}. Your e-mail address changes when you open it.`;

/**
 * Updates the name at once and asks for a new e-mail address: that needs the current password
 * and the link e-mailed to the new address (functions/auth/email-verification.ts); until it is
 * opened the account keeps its address. The old address is told about the request.
 * @returns `pendingEmail`, the address waiting for confirmation, when the e-mail changes.
 * @throws AppError 422 on `current_password` (missing or wrong) or `email` (taken), 429 after
 *   too many confirmation mails.
 */
export async function updateContact(
  userId: string,
  name: string,
  email: string,
  currentPassword?: string,
): Promise<{ pendingEmail?: string }> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user) throw validationFailed({ email: [MESSAGES.email] });
  const next = email.trim().toLowerCase();
  if (next === user.email) {
    await db().User.patch({ userId }).set({ name }).go();
    return {};
  }
  if (!currentPassword || !(await verifyPassword(currentPassword, user.passwordHash))) {
    throw validationFailed({ current_password: [CURRENT_PASSWORD_WRONG] });
  }
  if (await emailTaken(next)) throw validationFailed({ email: [MESSAGES.emailTaken] });
  await sendVerification({ userId, name }, 'change', next, user.email);
  await db().User.patch({ userId }).set({ name }).go();
  await sendMail({
    to: user.email,
    ...emailChangeNoticeMail({ name, newEmail: next }),
  }).catch((error: unknown) => logger.warn('address change notice not sent', { error }));
  return { pendingEmail: next };
}
