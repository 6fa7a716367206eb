/**
 * Two-factor authentication with TOTP (authenticator apps; RFC 6238 via otplib) and a one-time
 * reset code (DESIGN.md §6; issue: accounts §4). It replaces the spec's phone variant
 * (docs/decisions.md, "Two-factor authentication").
 *
 * Enabling is two calls: the first returns a new secret and its QR code; the second confirms
 * with one valid code and returns the reset code, shown once. Codes are single-use: a code's
 * time step must be later than the last one accepted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';

export const CODE_INVALID = 'The code is invalid.';
export const CODE_NEEDED = 'Enter the code from your authenticator app.';
const ISSUER = 'PicSnippets';

const sha256 = (s: string) =>
  createHash('sha256').update(s.trim().toUpperCase()).digest('base64url');

/** Starts enabling: a new pending secret with its otpauth URI and QR code (PNG data URL). */
export async function beginTwoFactor(userId: string, email: string) {
  const secret = generateSecret();
  await db().User.patch({ userId }).set({ twoFactorPendingSecret: secret }).go();
  const uri = generateURI({ issuer: ISSUER, label: email, secret });
  return { secret, otpauth_url: uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 240 }) };
}

/**
 * Checks a TOTP code against a secret, after the last accepted step (±30 s of clock drift).
 * @returns the accepted time step, or undefined.
 */
export async function checkCode(
  secret: string,
  code: string,
  lastStep?: number,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code.trim())) return undefined;
  try {
    const result = await verify({
      secret,
      token: code.trim(),
      epochTolerance: 30,
      ...(lastStep !== undefined ? { afterTimeStep: lastStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Confirms the pending secret with a code and turns two-factor authentication on.
 * @returns the one-time reset code (shown once).
 * @throws AppError 422 on `code`.
 */
export async function confirmTwoFactor(userId: string, code: string): Promise<string> {
  const user = (await db().User.get({ userId }).go()).data;
  const pending = user?.twoFactorPendingSecret;
  const step = pending ? await checkCode(pending, code) : undefined;
  if (!pending || step === undefined) throw validationFailed({ code: [CODE_INVALID] });
  const resetCode = randomBytes(10).toString('base64url').toUpperCase().slice(0, 12);
  await db()
    .User.patch({ userId })
    .set({
      twoFactorSecret: pending,
      twoFactorResetHash: sha256(resetCode),
      twoFactorLastStep: step,
    })
    .remove(['twoFactorPendingSecret'])
    .go();
  return resetCode;
}

/**
 * Checks a second factor at login or for disabling: a TOTP code (single-use) or the reset code.
 * @returns 'totp', 'reset' or undefined when neither matches.
 */
export async function checkSecondFactor(
  userId: string,
  code: string,
): Promise<'totp' | 'reset' | undefined> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user?.twoFactorSecret) return undefined;
  const step = await checkCode(user.twoFactorSecret, code, user.twoFactorLastStep);
  if (step !== undefined) {
    await db().User.patch({ userId }).set({ twoFactorLastStep: step }).go();
    return 'totp';
  }
  if (user.twoFactorResetHash && sha256(code) === user.twoFactorResetHash) return 'reset';
  return undefined;
}

/** Turns two-factor authentication off. */
export async function disableTwoFactor(userId: string): Promise<void> {
  await db()
    .User.patch({ userId })
    .remove([
      'twoFactorSecret',
      'twoFactorResetHash',
      'twoFactorLastStep',
      'twoFactorPendingSecret',
    ])
    .go();
}
