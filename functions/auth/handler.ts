/**
 * The `auth` feature: registration, sign-in, sign-out and the current user.
 * Also password reset by e-mail, password change, contact details and the profile photo,
 * e-mail verification, two-factor authentication and API tokens (docs/security.md).
 */
import type { z } from 'zod';
import {
  ABILITIES,
  CODE_INVALID,
  VERIFY_MESSAGES,
  ContactBody,
  EmailCheckBody,
  EmailVerifyBody,
  LoginBody,
  NewTokenBody,
  OnboardingBody,
  PasswordEmailBody,
  TokenBody,
  TwoFactorBody,
  TwoFactorOffBody,
  passwordChangeBody,
  passwordResetBody,
  registrationBody,
  type CurrentUser,
} from '#shared/contract/auth.ts';
import { useCaseAddress } from '#shared/onboarding.ts';
import type { AuthUser } from '#lib/auth.ts';
import { db } from '#lib/db/index.ts';
import { createApiToken } from '#lib/api-tokens.ts';
import {
  AppError,
  notFound,
  tooManyRequests,
  unauthenticated,
  validationFailed,
} from '#lib/errors.ts';
import {
  errorToResult,
  featureHandler,
  json,
  route,
  type ApiResult,
  type RouteContext,
} from '#lib/http.ts';
import { isPaidPlan, subscribeAtRegistration } from '#functions/billing/registration.ts';
import { verifyPassword } from '#lib/passwords.ts';
import { deleteUserFile, storePhoto } from '#lib/uploads.ts';
import { createSession, destroySession, readCookies, sessionCookie } from '#lib/session.ts';
import { addressBucket, clientAddress } from '#lib/client-address.ts';
import { recordSignIn } from '#domain/sign-ins.ts';
import {
  TOO_MANY_LOGINS,
  isThrottled,
  limitPublicCall,
  loginSucceeded,
  recordFailure,
  takeLoginAttempt,
} from '#lib/limits/attempts.ts';
import {
  confirmEmail,
  sendVerification,
  sendVerificationAfterRegistration,
} from './email-verification.ts';
import {
  CODE_NEEDED,
  CURRENT_FACTOR_NEEDED,
  beginTwoFactor,
  checkSecondFactor,
  confirmTwoFactor,
  disableTwoFactor,
} from './two-factor.ts';
import { postMarketingHook } from './marketing-hook.ts';
import { MESSAGES, emailTaken, isCommonPassword, register } from './registration.ts';
import {
  EMAIL_CHANGE_SENT,
  MAX_API_TOKENS,
  RESET_SENT,
  answerPasswordResetRequest,
  changePassword,
  resetPassword,
  updateContact,
} from './account.ts';

/** Laravel's wording, which the spec's SPA shows on the e-mail field. */
export const BAD_CREDENTIALS = 'These credentials do not match our records.';

/** The bodies with a new password, with the common-password check the contract leaves out. */
const RegistrationBody = registrationBody(isCommonPassword);
const PasswordResetBody = passwordResetBody(isCommonPassword);
const PasswordChangeBody = passwordChangeBody(isCommonPassword);

/**
 * E-mail checks (`POST /if-mail-exists`, and registrations refused for a taken address) one IP
 * may make in 15 minutes: the registration form needs a few, harvesting addresses needs many
 * (docs/security.md "Account existence").
 */
export const MAX_EMAIL_CHECKS = 20;
const TOO_MANY_CHECKS = 'Too many attempts. Please try again in 15 minutes.';
const emailCheckKey = (ip: string) => `mail-exists#ip#${addressBucket(ip)}`;

/**
 * Checks a second factor of a signed-in user (replacing or turning off two-factor
 * authentication); wrong codes count like failed logins, so a stolen session cannot guess.
 * @throws AppError 429 after 10 wrong codes in 15 minutes.
 */
async function throttledFactorCheck(userId: string, code: string) {
  const key = `factor#user#${userId}`;
  if (await isThrottled(key))
    throw tooManyRequests('Too many wrong codes. Please try again in 15 minutes.');
  const factor = await checkSecondFactor(userId, code);
  if (!factor) await recordFailure(key);
  return factor;
}

/** A hash of the password is computed even for unknown e-mails, so timing does not tell. */
const DUMMY_HASH =
  'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The current user as the SPA reads it (shared/contract/auth.ts `CurrentUserSchema`). */
export async function currentUser(user: AuthUser): Promise<CurrentUser> {
  const teams = (await db().Membership.query.byUser({ userId: user.userId }).go()).data;
  return {
    id: user.userId,
    name: user.name,
    email: user.email,
    photo_url: user.photoUrl ?? null,
    isAdmin: user.isAdmin,
    current_team_id: user.currentTeamId ?? null,
    email_verified: user.emailVerified ?? false,
    two_factor_enabled: user.twoFactorEnabled ?? false,
    onboarding_use_case: user.onboardingUseCase ?? null,
    teams: teams.map((m) => ({ id: m.teamId, role: m.role })),
    impersonator: user.impersonator
      ? {
          id: user.impersonator.userId,
          name: user.impersonator.name,
          email: user.impersonator.email,
        }
      : null,
  };
}

/** What a registration route receives. */
type RegistrationContext = RouteContext<z.output<typeof RegistrationBody>>;

/**
 * `POST /register` and `POST /register/partner`: creates the account (limited per client
 * address, `PUBLIC_CALL_LIMITS`), subscribes a paid plan, signs in.
 * @param partner true only on the partner route: the campaign's configured coupon applies.
 * @throws AppError 422 (fields, a taken address), 429, billing errors (functions/billing).
 */
async function registerAnswer(
  { body, auth, event, requestId }: RegistrationContext,
  partner: boolean,
): Promise<ApiResult> {
  await limitPublicCall('register', clientAddress(event));
  // A refusal for a taken address is an e-mail check too: it counts towards the same limit.
  const key = emailCheckKey(clientAddress(event));
  if (await isThrottled(key, Date.now(), MAX_EMAIL_CHECKS)) throw tooManyRequests(TOO_MANY_CHECKS);
  let created: Awaited<ReturnType<typeof register>>;
  try {
    created = await register(body);
  } catch (error) {
    if (error instanceof AppError && error.message === MESSAGES.emailTaken)
      await recordFailure(key);
    throw error;
  }
  const { userId, teamId, verified } = created;
  if (!verified)
    await sendVerificationAfterRegistration({ userId, name: body.name, email: body.email });
  // A paid plan subscribes with the form's card; a refusal removes the
  // account again, a payment needing 3-D Secure keeps it (400 with paymentId, signed in).
  let answer = json(201, { success: true, redirect: '/confirmation' });
  if (isPaidPlan(body.plan)) {
    try {
      await subscribeAtRegistration(
        { userId, teamId },
        body.plan,
        body.coupon,
        event.body,
        requestId,
        partner,
      );
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'payment_action_required')) throw error;
      answer = errorToResult(error, requestId);
    }
  }
  // The account exists: the marketing hook hears of it, with consent (docs/accounts.md
  // "Marketing hook"); it never fails registration and waits at most its budget.
  await postMarketingHook(body.marketing_consent, {
    name: body.name,
    team: body.team,
    email: body.email,
    planId: body.plan,
    cookies: readCookies(event),
  });
  await destroySession(auth.sessionToken);
  const token = await createSession(userId);
  return { ...answer, cookies: [sessionCookie(token)] };
}

export const handler = featureHandler('auth', {
  'POST /login': route({
    body: LoginBody,
    handle: async ({ body, event, auth }) => {
      // Counted before the password is checked, atomically: parallel guesses cannot all pass
      // (docs/security.md "Login throttling").
      const ip = clientAddress(event);
      if (!(await takeLoginAttempt(body.email, ip))) throw tooManyRequests(TOO_MANY_LOGINS);
      const user = (await db().User.query.byEmail({ email: body.email }).go({ limit: 1 })).data[0];
      const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) throw validationFailed({ email: [BAD_CREDENTIALS] });
      if (user.twoFactorSecret) {
        // The password was right; the second factor decides. A reset code signs in once and
        // turns two-factor authentication off (the user sets it up again).
        if (!body.code) throw validationFailed({ code: [CODE_NEEDED] }, CODE_NEEDED);
        const factor = await checkSecondFactor(user.userId, body.code);
        if (!factor) throw validationFailed({ code: [CODE_INVALID] });
        if (factor === 'reset') await disableTwoFactor(user.userId);
      }
      await loginSucceeded(body.email, ip);
      await recordSignIn(user.userId, ip, event.headers?.['user-agent']);
      // Rotation: the old session (if any) ends, a new id is issued.
      await destroySession(auth.sessionToken);
      const token = await createSession(user.userId);
      const me = await currentUser({
        userId: user.userId,
        email: user.email,
        name: user.name,
        isAdmin: user.isAdmin ?? false,
        currentTeamId: user.currentTeamId,
        photoUrl: user.photoUrl,
        emailVerified: user.emailVerifiedAt !== undefined,
        twoFactorEnabled: user.twoFactorSecret !== undefined,
      });
      return {
        // Signed in, a user goes to their designs (docs/accounts.md "Screens": "Sign-in").
        ...json(200, { success: true, redirect: '/dashboard', user: me }),
        cookies: [sessionCookie(token)],
      };
    },
  }),

  /**
   * The visitor's country for the billing address default (docs/security.md "Sessions and tokens"):
   * CloudFront's `CloudFront-Viewer-Country` header where the distribution forwards it, else ZZ
   * (unknown).
   */
  'GET /geocode/country': route({
    handle: async ({ event }) => {
      const country = (event.headers?.['cloudfront-viewer-country'] ?? '').toUpperCase();
      return json(200, { country: /^[A-Z]{2}$/.test(country) ? country : 'ZZ' });
    },
  }),

  /**
   * The registration form's e-mail check (docs/adr/0011-registration.md "Registration",
   * docs/accounts.md "Validation rules": step 0 needs it, its message goes on the e-mail field). It
   * must say when an address is taken, so it is rate-limited per IP instead (`MAX_EMAIL_CHECKS` in
   * 15 minutes, then 429; docs/security.md "Account existence").
   */
  'POST /if-mail-exists': route({
    body: EmailCheckBody,
    handle: async ({ body, event }) => {
      const key = emailCheckKey(clientAddress(event));
      if (await isThrottled(key, Date.now(), MAX_EMAIL_CHECKS))
        throw tooManyRequests(TOO_MANY_CHECKS);
      await recordFailure(key);
      if (await emailTaken(body.email)) throw validationFailed({ email: [MESSAGES.emailTaken] });
      return json(200, { success: true });
    },
  }),

  'POST /register': route({
    body: RegistrationBody,
    handle: (ctx) => registerAnswer(ctx, false),
  }),

  /** The partner campaign's registration: as `POST /register`, with the campaign's coupon. */
  'POST /register/partner': route({
    body: RegistrationBody,
    handle: (ctx) => registerAnswer(ctx, true),
  }),

  /** The same answer, in about the same time, whether or not the address has an account. */
  'POST /password/email': route({
    body: PasswordEmailBody,
    handle: async ({ body, event }) => {
      await limitPublicCall('password-email', clientAddress(event));
      await answerPasswordResetRequest(body.email);
      return json(200, { success: true, message: RESET_SENT });
    },
  }),

  'POST /password/reset': route({
    body: PasswordResetBody,
    handle: async ({ body }) => {
      // Every session of the account ends (docs/security.md "Sessions and tokens").
      await resetPassword(body.email, body.token, body.password, body.revoke_tokens);
      return json(200, { success: true, redirect: '/login' });
    },
  }),

  'PUT /settings/password': route({
    body: PasswordChangeBody,
    handle: async ({ body, auth }) => {
      const userId = auth.user!.userId;
      await changePassword(userId, body.current_password, body.password, body.revoke_tokens);
      // Every other session has ended; this browser continues in a new one.
      await destroySession(auth.sessionToken);
      const token = await createSession(userId);
      return {
        ...json(200, { success: true, tokens_revoked: body.revoke_tokens }),
        cookies: [sessionCookie(token)],
      };
    },
  }),

  'POST /settings/photo': route({
    handle: async ({ body, auth }) => {
      const user = auth.user!;
      const url = await storePhoto(body, 'users');
      await db().User.patch({ userId: user.userId }).set({ photoUrl: url }).go();
      await deleteUserFile(user.photoUrl);
      return json(200, { success: true, photo_url: url });
    },
  }),

  'PUT /settings/onboarding': route({
    body: OnboardingBody,
    handle: async ({ body, auth }) => {
      await db()
        .User.patch({ userId: auth.user!.userId })
        .set({ onboardingUseCase: body.use_case })
        .go();
      return json(200, { success: true, redirect: useCaseAddress(body.use_case) });
    },
  }),

  /**
   * Name at once; a new e-mail address needs `current_password` and is changed only when the
   * link sent to it is opened (`pending_email` and a message say so).
   */
  'PUT /settings/contact': route({
    body: ContactBody,
    handle: async ({ body, auth }) => {
      const { pendingEmail } = await updateContact(
        auth.user!.userId,
        body.name,
        body.email,
        body.current_password,
      );
      return json(
        200,
        pendingEmail
          ? { success: true, pending_email: pendingEmail, message: EMAIL_CHANGE_SENT(pendingEmail) }
          : { success: true },
      );
    },
  }),

  /** Opens an e-mailed confirmation link (`{ token }`): verifies or changes the address. */
  'POST /email/verify': route({
    body: EmailVerifyBody,
    handle: async ({ body }) => {
      const { message, email } = await confirmEmail(body.token);
      return json(200, { success: true, message, email });
    },
  }),

  /** Sends the signed-in user a new verification link for their address. */
  'POST /email/verification-notification': route({
    handle: async ({ auth }) => {
      const user = auth.user!;
      if (user.emailVerified)
        return json(200, { success: true, message: VERIFY_MESSAGES.alreadyVerified });
      await sendVerification(user, 'verify', user.email);
      return json(200, {
        success: true,
        message: `We have e-mailed a confirmation link to ${user.email}.`,
      });
    },
  }),

  'GET /settings/api/token/abilities': route({
    handle: async () => json(200, ABILITIES),
  }),

  'GET /settings/api/tokens': route({
    handle: async ({ auth }) => {
      const tokens = (
        await db().ApiToken.query.byUser({ userId: auth.user!.userId }).go({ pages: 'all' })
      ).data;
      return json(
        200,
        tokens
          .sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? 1 : -1))
          .map((t) => ({
            id: t.tokenId,
            name: t.name,
            metadata: { abilities: t.abilities },
            created_at: t.createdAt,
            last_used_at: t.lastUsedAt ?? null,
            expires_at: t.expiresAt ?? null,
          })),
      );
    },
  }),

  'POST /settings/api/token': route({
    body: NewTokenBody,
    handle: async ({ auth, body }) => {
      const userId = auth.user!.userId;
      const existing = (await db().ApiToken.query.byUser({ userId }).go({ pages: 'all' })).data;
      if (existing.length >= MAX_API_TOKENS)
        throw validationFailed({
          name: [`You can have at most ${MAX_API_TOKENS} API tokens. Delete one first.`],
        });
      const expiresAt = body.expires_in_days
        ? new Date(Date.now() + body.expires_in_days * 24 * 60 * 60 * 1000).toISOString()
        : undefined;
      const { token, tokenId } = await createApiToken(userId, body.name, body.abilities, expiresAt);
      return json(201, { token, id: tokenId, expires_at: expiresAt ?? null });
    },
  }),

  'PUT /settings/api/token/{id}': route({
    body: TokenBody,
    handle: async ({ auth, body, params }) => {
      const key = { userId: auth.user!.userId, tokenId: params.id! };
      if (!(await db().ApiToken.get(key).go()).data) throw notFound();
      await db().ApiToken.patch(key).set({ name: body.name, abilities: body.abilities }).go();
      return json(200, { success: true });
    },
  }),

  'DELETE /settings/api/token/{id}': route({
    handle: async ({ auth, params }) => {
      const key = { userId: auth.user!.userId, tokenId: params.id! };
      if (!(await db().ApiToken.get(key).go()).data) throw notFound();
      await db().ApiToken.delete(key).go();
      return json(200, { success: true });
    },
  }),

  /**
   * Two calls (two-factor.ts): without `code`, a new secret; with it, the confirmation. While
   * two-factor authentication is on, a new secret (replacing the factor) needs `current_code`,
   * a code of the current factor or the reset code.
   */
  'POST /settings/two-factor-auth': route({
    body: TwoFactorBody,
    handle: async ({ auth, body }) => {
      const user = auth.user!;
      if (!body.code) {
        if (user.twoFactorEnabled) {
          if (!body.current_code) throw validationFailed({ current_code: [CURRENT_FACTOR_NEEDED] });
          if (!(await throttledFactorCheck(user.userId, body.current_code)))
            throw validationFailed({ current_code: [CODE_INVALID] });
        }
        return json(200, await beginTwoFactor(user.userId, user.email));
      }
      const resetCode = await confirmTwoFactor(user.userId, body.code);
      return json(200, { success: true, reset_code: resetCode });
    },
  }),

  'DELETE /settings/two-factor-auth': route({
    body: TwoFactorOffBody,
    handle: async ({ auth, body }) => {
      if (!(await throttledFactorCheck(auth.user!.userId, body.code)))
        throw validationFailed({ code: [CODE_INVALID] });
      await disableTwoFactor(auth.user!.userId);
      return json(200, { success: true });
    },
  }),

  'PUT /spark/token': route({
    // The SPA's refresh loop (docs/security.md "Sessions and tokens": every 240 s): reading the
    // session above already renewed its idle timeout.
    handle: async () => json(200, { success: true }),
  }),

  /**
   * Signs out: ends the session and clears its cookie. A POST with the CSRF check, so a
   * cross-site link, image or form cannot sign anyone out; `redirect` is where the SPA goes next.
   */
  'POST /logout': route({
    handle: async ({ auth }) => {
      await destroySession(auth.sessionToken);
      return { ...json(200, { success: true, redirect: '/' }), cookies: [sessionCookie('')] };
    },
  }),

  'GET /user/current': route({
    handle: async ({ auth }) => {
      if (!auth.user) throw unauthenticated();
      return json(200, await currentUser(auth.user));
    },
  }),
});
