/**
 * Two-factor authentication with TOTP (authenticator apps; RFC 6238 via otplib) and a one-time
 * reset code (docs/security.md "Sessions and tokens"). It replaces the spec's phone variant
 * (docs/decisions.md, "Two-factor authentication").
 *
 * Enabling is two calls: the first returns a new secret and its QR code; the second confirms
 * with one valid code and returns the reset code, shown once. Codes are single-use: a code's
 * time step must be later than the last one accepted. Replacing the factor while it is on needs
 * a code of the current one (the handler checks it before `beginTwoFactor`).
 *
 * Secrets are stored sealed with envelope encryption like platform credentials
 * (functions/lib/secrets.ts; context `{ userId, purpose: 'totp' }`, so a sealed secret copied to
 * another user does not open): a copy of the table gives no one the codes (docs/security.md
 * "Sessions and tokens"). A secret stored before encryption (plain base32) still works and is
 * sealed on its next accepted code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { openSecret, sealSecret, secretKeys, type SealedSecret } from '#lib/secrets.ts';
import { CODE_INVALID } from '#shared/contract/auth.ts';

export const CODE_NEEDED = 'Enter the code from your authenticator app.';
export const CURRENT_FACTOR_NEEDED =
  'Enter a code from your current authenticator app (or your reset code) to replace it.';
const ISSUER = 'PicSnippets';

const sha256 = (s: string) =>
  createHash('sha256').update(s.trim().toUpperCase()).digest('base64url');

const context = (userId: string) => ({ userId, purpose: 'totp' });

/** Seals a TOTP secret for storage on the user (JSON of a `SealedSecret`). */
export async function sealTotpSecret(userId: string, secret: string): Promise<string> {
  return JSON.stringify(await sealSecret(secret, context(userId), secretKeys()));
}

/**
 * Opens a stored TOTP secret; a legacy plain base32 secret is returned as it is.
 * @throws SecretError when a sealed secret does not open (tampered, another user's, other key).
 */
export async function openTotpSecret(userId: string, stored: string): Promise<string> {
  if (!stored.startsWith('{')) return stored;
  return openSecret(JSON.parse(stored) as SealedSecret, context(userId), secretKeys());
}

/** Starts enabling: a new pending secret with its otpauth URI and QR code (PNG data URL). */
export async function beginTwoFactor(userId: string, email: string) {
  const secret = generateSecret();
  await db()
    .User.patch({ userId })
    .set({ twoFactorPendingSecret: await sealTotpSecret(userId, secret) })
    .go();
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
  const stored = user?.twoFactorPendingSecret;
  const pending = stored ? await openTotpSecret(userId, stored) : undefined;
  const step = pending ? await checkCode(pending, code) : undefined;
  if (!stored || step === undefined) throw validationFailed({ code: [CODE_INVALID] });
  const resetCode = randomBytes(10).toString('base64url').toUpperCase().slice(0, 12);
  await db()
    .User.patch({ userId })
    .set({
      twoFactorSecret: stored.startsWith('{') ? stored : await sealTotpSecret(userId, stored),
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
  const secret = await openTotpSecret(userId, user.twoFactorSecret);
  const step = await checkCode(secret, code, user.twoFactorLastStep);
  if (step !== undefined) {
    await db()
      .User.patch({ userId })
      .set({
        twoFactorLastStep: step,
        // A secret from before encryption is sealed now.
        ...(user.twoFactorSecret.startsWith('{')
          ? {}
          : { twoFactorSecret: await sealTotpSecret(userId, secret) }),
      })
      .go();
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
