/**
 * The `auth` feature (issue: accounts): registration, sign-in, sign-out and the current user.
 * Also password reset by e-mail, password change, contact details and the profile photo,
 * two-factor authentication and API tokens.
 */
import { z } from 'zod';
import { ONBOARDING_USE_CASES, useCaseAddress } from '#shared/onboarding.ts';
import type { AuthUser } from '#lib/auth.ts';
import { db } from '#lib/db/index.ts';
import { ABILITIES, createApiToken } from '#lib/api-tokens.ts';
import {
  AppError,
  notFound,
  tooManyRequests,
  unauthenticated,
  validationFailed,
} from '#lib/errors.ts';
import { errorToResult, featureHandler, json, route } from '#lib/http.ts';
import { isPaidPlan, subscribeAtRegistration } from '#functions/billing/registration.ts';
import { verifyPassword } from '#lib/passwords.ts';
import { deleteUserFile, storePhoto } from '#lib/uploads.ts';
import { createSession, destroySession, sessionCookie } from '#lib/session.ts';
import { clearFailures, isThrottled, recordFailure } from './throttle.ts';
import {
  CODE_INVALID,
  CODE_NEEDED,
  beginTwoFactor,
  checkSecondFactor,
  confirmTwoFactor,
  disableTwoFactor,
} from './two-factor.ts';
import {
  MESSAGES,
  RegistrationFields,
  RegistrationSchema,
  emailTaken,
  register,
} from './registration.ts';
import {
  CURRENT_PASSWORD_WRONG,
  NewPassword,
  RESET_SENT,
  changePassword,
  requestPasswordReset,
  resetPassword,
  updateContact,
} from './account.ts';

/** Laravel's wording, which the spec's SPA shows on the e-mail field. */
export const BAD_CREDENTIALS = 'These credentials do not match our records.';

const LoginBody = z.object({
  email: z.string().trim().toLowerCase().email('Email must be valid email').max(255),
  password: z.string().min(1, 'The password field is required.').max(128),
  code: z.string().max(32).optional(),
});

const TokenBody = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  abilities: z
    .array(z.enum(ABILITIES.map((a) => a.value) as ['read', 'write']))
    .min(1, 'Choose at least one ability.'),
});

/** A hash of the password is computed even for unknown e-mails, so timing does not tell. */
const DUMMY_HASH =
  'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The current user as the SPA reads it (spec 001 §3 User, the fields this issue has). */
export async function currentUser(user: AuthUser) {
  const teams = (await db().Membership.query.byUser({ userId: user.userId }).go()).data;
  return {
    id: user.userId,
    name: user.name,
    email: user.email,
    photo_url: user.photoUrl ?? null,
    isAdmin: user.isAdmin,
    current_team_id: user.currentTeamId ?? null,
    two_factor_enabled: user.twoFactorEnabled ?? false,
    onboarding_use_case: user.onboardingUseCase ?? null,
    teams: teams.map((m) => ({ id: m.teamId, role: m.role })),
  };
}

export const handler = featureHandler('auth', {
  'POST /login': route({
    body: LoginBody,
    handle: async ({ body, event, auth }) => {
      const ip = event.requestContext?.http?.sourceIp ?? 'unknown';
      const keys = [`login#email#${body.email}`, `login#ip#${ip}`];
      if ((await Promise.all(keys.map((k) => isThrottled(k)))).some(Boolean)) {
        throw tooManyRequests('Too many login attempts. Please try again in 15 minutes.');
      }
      const user = (await db().User.query.byEmail({ email: body.email }).go({ limit: 1 })).data[0];
      const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        await Promise.all(keys.map((k) => recordFailure(k)));
        throw validationFailed({ email: [BAD_CREDENTIALS] });
      }
      if (user.twoFactorSecret) {
        // The password was right; the second factor decides. A reset code signs in once and
        // turns two-factor authentication off (the user sets it up again).
        if (!body.code) throw validationFailed({ code: [CODE_NEEDED] }, CODE_NEEDED);
        const factor = await checkSecondFactor(user.userId, body.code);
        if (!factor) {
          await Promise.all(keys.map((k) => recordFailure(k)));
          throw validationFailed({ code: [CODE_INVALID] });
        }
        if (factor === 'reset') await disableTwoFactor(user.userId);
      }
      await clearFailures(keys[0]!);
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
      });
      return {
        ...json(200, { success: true, redirect: '/', user: me }),
        cookies: [sessionCookie(token)],
      };
    },
  }),

  /**
   * The visitor's country for the billing address default (spec 001 §7): CloudFront's
   * `CloudFront-Viewer-Country` header where the distribution forwards it, else ZZ (unknown).
   */
  'GET /geocode/country': route({
    handle: async ({ event }) => {
      const country = (event.headers?.['cloudfront-viewer-country'] ?? '').toUpperCase();
      return json(200, { country: /^[A-Z]{2}$/.test(country) ? country : 'ZZ' });
    },
  }),

  'POST /if-mail-exists': route({
    body: z.object({ email: z.string().trim().toLowerCase().email(MESSAGES.email) }).passthrough(),
    handle: async ({ body }) => {
      if (await emailTaken(body.email)) throw validationFailed({ email: [MESSAGES.emailTaken] });
      return json(200, { success: true });
    },
  }),

  'POST /register': route({
    body: RegistrationSchema,
    handle: async ({ body, auth, event, requestId }) => {
      const { userId, teamId } = await register(body);
      // A paid plan subscribes with the form's card (issue #8 item 2); a refusal removes the
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
          );
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'payment_action_required')) throw error;
          answer = errorToResult(error, requestId);
        }
      }
      await destroySession(auth.sessionToken);
      const token = await createSession(userId);
      return { ...answer, cookies: [sessionCookie(token)] };
    },
  }),

  'POST /password/email': route({
    body: z.object({ email: z.string().trim().toLowerCase().email(MESSAGES.email) }),
    handle: async ({ body }) => {
      await requestPasswordReset(body.email);
      return json(200, { success: true, message: RESET_SENT });
    },
  }),

  'POST /password/reset': route({
    body: z
      .object({
        token: z.string().min(10).max(200),
        email: z.string().trim().toLowerCase().email(MESSAGES.email),
        password: NewPassword,
        password_confirmation: z.string().optional(),
      })
      .refine((f) => f.password === f.password_confirmation, {
        path: ['password_confirmation'],
        message: MESSAGES.confirmation,
      }),
    handle: async ({ body }) => {
      await resetPassword(body.email, body.token, body.password);
      return json(200, { success: true, redirect: '/login' });
    },
  }),

  'PUT /settings/password': route({
    body: z
      .object({
        current_password: z.string().min(1, CURRENT_PASSWORD_WRONG).max(128),
        password: NewPassword,
        password_confirmation: z.string().optional(),
      })
      .refine((f) => f.password === f.password_confirmation, {
        path: ['password_confirmation'],
        message: MESSAGES.confirmation,
      }),
    handle: async ({ body, auth }) => {
      await changePassword(auth.user!.userId, body.current_password, body.password);
      return json(200, { success: true });
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
    body: z.object({
      use_case: z.enum(ONBOARDING_USE_CASES, { error: 'Choose one of the use cases.' }),
    }),
    handle: async ({ body, auth }) => {
      await db()
        .User.patch({ userId: auth.user!.userId })
        .set({ onboardingUseCase: body.use_case })
        .go();
      return json(200, { success: true, redirect: useCaseAddress(body.use_case) });
    },
  }),

  'PUT /settings/contact': route({
    body: z.object({
      name: RegistrationFields.name,
      email: RegistrationFields.email,
    }),
    handle: async ({ body, auth }) => {
      await updateContact(auth.user!.userId, body.name, body.email);
      return json(200, { success: true });
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
          })),
      );
    },
  }),

  'POST /settings/api/token': route({
    body: TokenBody,
    handle: async ({ auth, body }) => {
      const { token, tokenId } = await createApiToken(auth.user!.userId, body.name, body.abilities);
      return json(201, { token, id: tokenId });
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

  'POST /settings/two-factor-auth': route({
    body: z.object({ code: z.string().trim().max(32).optional() }).passthrough(),
    handle: async ({ auth, body }) => {
      const user = auth.user!;
      if (!body.code) return json(200, await beginTwoFactor(user.userId, user.email));
      const resetCode = await confirmTwoFactor(user.userId, body.code);
      return json(200, { success: true, reset_code: resetCode });
    },
  }),

  'DELETE /settings/two-factor-auth': route({
    body: z.object({ code: z.string().trim().min(1, CODE_INVALID).max(32) }),
    handle: async ({ auth, body }) => {
      if (!(await checkSecondFactor(auth.user!.userId, body.code)))
        throw validationFailed({ code: [CODE_INVALID] });
      await disableTwoFactor(auth.user!.userId);
      return json(200, { success: true });
    },
  }),

  'PUT /spark/token': route({
    // The SPA's refresh loop (spec 001 §7: every 240 s): reading the session above already
    // renewed its idle timeout.
    handle: async () => json(200, { success: true }),
  }),

  'GET /logout': route({
    handle: async ({ auth }) => {
      await destroySession(auth.sessionToken);
      return {
        statusCode: 302,
        headers: { location: '/', 'cache-control': 'no-store' },
        cookies: [sessionCookie('')],
        body: '',
      };
    },
  }),

  'GET /user/current': route({
    handle: async ({ auth }) => {
      if (!auth.user) throw unauthenticated();
      return json(200, await currentUser(auth.user));
    },
  }),
});
