/**
 * The contract of the `auth` routes (shared/routes.ts; docs/adr/0044-the-api-contract.md "The API
 * contract"): registration, sign-in and sign-out, the current user, password reset and change,
 * contact details, onboarding, e-mail verification, two-factor authentication and API tokens
 * (docs/security.md "Sessions and tokens": "Registration and lookups", "Profile, teams, members",
 * "Security and tokens"; docs/security.md). functions/auth parses its input with these schemas.
 *
 * The password rules' last check, the common-password list (functions/auth/registration.ts
 * `isCommonPassword`, zxcvbn's ~50,000 passwords), is not loaded here: it would weigh on the SPA
 * bundle and every Lambda. The bodies that take a new password are built by functions that take
 * that check; the contract's entries use them without it, the handler with it.
 */
import { z } from 'zod';
import { ONBOARDING_USE_CASES } from '../onboarding.ts';
import { PaymentActionRequiredSchema } from './billing.ts';
import { defineContract, IdParams, SuccessSchema } from './core.ts';

// ---------------------------------------------------------------------------------------------
// Messages and constants
// ---------------------------------------------------------------------------------------------

/** Messages of docs/accounts.md "Validation rules" (and Laravel's, which the spec's SPA shows, where it has none). */
export const REGISTRATION_MESSAGES = {
  name: 'Name required and must be a string',
  email: 'Email must be valid email',
  emailTaken: 'The email has already been taken.',
  team: 'Company name is required',
  password: 'The password must be at least 8 characters.',
  passwordLong: 'The password may not be greater than 128 characters.',
  passwordCommon: 'This password is too common. Please choose another one.',
  confirmation: 'The password confirmation does not match.',
  terms: 'The terms must be accepted.',
  plan: 'The selected plan is invalid.',
  planOffline:
    'Paid plans are not available: billing is not configured. Please choose the free plan.',
} as const;

/** The e-mail confirmation link's messages (functions/auth/email-verification.ts). */
export const VERIFY_MESSAGES = {
  invalid: 'This confirmation link is invalid or has expired.',
  verified: 'Your e-mail address is confirmed.',
  changed: 'Your e-mail address was changed.',
  alreadyVerified: 'Your e-mail address is already confirmed.',
  tooMany: 'Too many confirmation e-mails. Please try again in 15 minutes.',
} as const;

/** A wrong or missing two-factor code (functions/auth/two-factor.ts). */
export const CODE_INVALID = 'The code is invalid.';

/** The password change's refusal of a wrong current password (functions/auth/account.ts). */
export const CURRENT_PASSWORD_WRONG = 'The current password is incorrect.';

/**
 * What an API token may do (docs/security.md "Sessions and tokens"): `read` covers GET calls,
 * `write` every other call, `sign` only signing render URLs (a route's `ability`,
 * docs/developer-api.md "Signed render URLs"); the settings list them with their defaults.
 */
export const ABILITIES = [
  { value: 'read', text: 'Read designs, images and settings', default: true },
  { value: 'write', text: 'Create and change designs, images and settings', default: false },
  { value: 'sign', text: 'Sign render URLs', default: false },
] as const;
export type Ability = (typeof ABILITIES)[number]['value'];
const ABILITY_VALUES = ABILITIES.map((a) => a.value) as [Ability, ...Ability[]];

/** Lifetimes a token can be given, days (the settings' choices); none = until revoked. */
export const TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/**
 * True for a password too common to accept. The server passes functions/auth/registration.ts
 * `isCommonPassword`; without one, no password is refused for it.
 */
export type CommonPasswordCheck = (password: string) => boolean;
const noCommonPasswords: CommonPasswordCheck = () => false;

/**
 * A new password (docs/accounts.md "Validation rules"; docs/adr/0011-registration.md
 * "Registration"): 8 to 128 characters, not a common one.
 * @param isCommon the common-password check (the server's; none in the contract's entries).
 */
export const newPassword = (isCommon: CommonPasswordCheck = noCommonPasswords) =>
  z
    .string({ error: REGISTRATION_MESSAGES.password })
    .min(8, REGISTRATION_MESSAGES.password)
    .max(128, REGISTRATION_MESSAGES.passwordLong)
    .refine((p) => !isCommon(p), REGISTRATION_MESSAGES.passwordCommon);

/** Fields shared by registration and the contact form (docs/accounts.md "Validation rules"). */
export const RegistrationFields = {
  /** Letters only (any script, spaces between words), at least 3 (docs/accounts.md "Validation rules"). */
  name: z
    .string({ error: REGISTRATION_MESSAGES.name })
    .trim()
    .min(3, REGISTRATION_MESSAGES.name)
    .max(255, REGISTRATION_MESSAGES.name)
    .regex(/^\p{L}+(?:[ '-]\p{L}+)*$/u, REGISTRATION_MESSAGES.name),
  email: z
    .string({ error: REGISTRATION_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(255, REGISTRATION_MESSAGES.email)
    .email(REGISTRATION_MESSAGES.email),
};

/** A new password and its confirmation, which must match. */
const confirmed = <T extends { password: string; password_confirmation?: string | undefined }>(
  f: T,
) => f.password === f.password_confirmation;

/**
 * `POST /register` and `POST /register/partner`: the account step (docs/accounts.md "Validation
 * rules" Registration form). A paid plan's billing fields (`RegistrationBillingSchema` of
 * shared/contract/billing.ts) travel in the same body and are read once the account exists
 * (functions/billing/registration.ts).
 * @param isCommon the common-password check (the server's).
 */
export const registrationBody = (isCommon?: CommonPasswordCheck) =>
  z
    .object({
      name: RegistrationFields.name,
      email: RegistrationFields.email,
      team: z
        .string({ error: REGISTRATION_MESSAGES.team })
        .trim()
        .min(1, REGISTRATION_MESSAGES.team)
        .max(255),
      team_slug: z.string().trim().max(255).optional(),
      password: newPassword(isCommon),
      password_confirmation: z.string().optional(),
      terms: z.union([z.literal(true), z.literal('on'), z.literal(1), z.literal('1')], {
        error: REGISTRATION_MESSAGES.terms,
      }),
      plan: z.string({ error: REGISTRATION_MESSAGES.plan }).min(1, REGISTRATION_MESSAGES.plan),
      invitation: z.string().max(128).optional().nullable(),
      coupon: z.string().max(128).optional().nullable(),
      /** Consent to the marketing hook (docs/accounts.md "Marketing hook"); absent: no. */
      marketing_consent: z.boolean().optional().default(false),
    })
    .refine(confirmed, {
      path: ['password_confirmation'],
      message: REGISTRATION_MESSAGES.confirmation,
    });
export type Registration = z.output<ReturnType<typeof registrationBody>>;
/** The account fields the SPA sends to `POST /register`. */
export type RegistrationRequest = z.input<ReturnType<typeof registrationBody>>;

/** `POST /login`: e-mail and password, and the second factor's code once it is asked for. */
export const LoginBody = z.object({
  email: z.string().trim().toLowerCase().email(REGISTRATION_MESSAGES.email).max(255),
  password: z.string().min(1, 'The password field is required.').max(128),
  code: z.string().max(32).optional(),
});

/** `POST /if-mail-exists`: the registration form's e-mail (other fields are let through). */
export const EmailCheckBody = z
  .object({ email: z.string().trim().toLowerCase().email(REGISTRATION_MESSAGES.email) })
  .passthrough();

/** `POST /password/email`: where to send a reset link. */
export const PasswordEmailBody = z.object({
  email: z.string().trim().toLowerCase().email(REGISTRATION_MESSAGES.email),
});

/** "Also revoke my API tokens" of the password forms. */
const RevokeTokens = z.boolean({ error: 'Choose yes or no.' }).optional().default(false);

/**
 * `POST /password/reset`: the e-mailed link's token, the address and the new password.
 * @param isCommon the common-password check (the server's).
 */
export const passwordResetBody = (isCommon?: CommonPasswordCheck) =>
  z
    .object({
      token: z.string().min(10).max(200),
      email: z.string().trim().toLowerCase().email(REGISTRATION_MESSAGES.email),
      password: newPassword(isCommon),
      password_confirmation: z.string().optional(),
      revoke_tokens: RevokeTokens,
    })
    .refine(confirmed, {
      path: ['password_confirmation'],
      message: REGISTRATION_MESSAGES.confirmation,
    });

/**
 * `PUT /settings/password`: the current password and the new one.
 * @param isCommon the common-password check (the server's).
 */
export const passwordChangeBody = (isCommon?: CommonPasswordCheck) =>
  z
    .object({
      current_password: z.string().min(1, CURRENT_PASSWORD_WRONG).max(128),
      password: newPassword(isCommon),
      password_confirmation: z.string().optional(),
      revoke_tokens: RevokeTokens,
    })
    .refine(confirmed, {
      path: ['password_confirmation'],
      message: REGISTRATION_MESSAGES.confirmation,
    });

/** `PUT /settings/onboarding`: the use case picked (shared/onboarding.ts). */
export const OnboardingBody = z.object({
  use_case: z.enum(ONBOARDING_USE_CASES, { error: 'Choose one of the use cases.' }),
});

/** `PUT /settings/contact`: the name, and the address (a new one needs the password). */
export const ContactBody = z.object({
  name: RegistrationFields.name,
  email: RegistrationFields.email,
  current_password: z.string().max(128).optional(),
});

/** `POST /email/verify`: an e-mailed confirmation link's token. */
export const EmailVerifyBody = z.object({
  token: z
    .string({ error: VERIFY_MESSAGES.invalid })
    .trim()
    .min(10, VERIFY_MESSAGES.invalid)
    .max(200, VERIFY_MESSAGES.invalid),
});

/**
 * `POST /settings/two-factor-auth`: without `code` a new secret (while two-factor
 * authentication is on, `current_code` proves the current factor); with it, the confirmation.
 */
export const TwoFactorBody = z
  .object({
    code: z.string().trim().max(32).optional(),
    current_code: z.string().trim().max(32).optional(),
  })
  .passthrough();

/** `DELETE /settings/two-factor-auth`: a code of the current factor (or the reset code). */
export const TwoFactorOffBody = z.object({ code: z.string().trim().min(1, CODE_INVALID).max(32) });

/** `PUT /settings/api/token/{id}`: a token's name and abilities. */
export const TokenBody = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  abilities: z.array(z.enum(ABILITY_VALUES)).min(1, 'Choose at least one ability.'),
});

/** `POST /settings/api/token`: may expire after one of `TOKEN_LIFETIMES_DAYS`; none = never. */
export const NewTokenBody = TokenBody.extend({
  expires_in_days: z
    .union(
      [z.null(), ...TOKEN_LIFETIMES_DAYS.map((d) => z.literal(d))] as unknown as [
        z.ZodNull,
        z.ZodLiteral<number>,
        z.ZodLiteral<number>,
      ],
      { error: `Choose an expiry of ${TOKEN_LIFETIMES_DAYS.join(', ')} days, or none.` },
    )
    .optional(),
});

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** The signed-in user (`GET /user/current`; docs/accounts.md "Validation rules" User, the fields so far). */
export const CurrentUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  photo_url: z.string().nullable(),
  isAdmin: z.boolean(),
  current_team_id: z.string().nullable(),
  /** The address is confirmed (a verification link or an invitation code; docs/security.md). */
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  /** The use case picked in onboarding (shared/onboarding.ts), null before. */
  onboarding_use_case: z.string().nullable(),
  /** The teams the user belongs to, with the user's role in each (`owner` or a team role). */
  teams: z.array(z.object({ id: z.string(), role: z.string() })),
  /**
   * The platform admin acting as this user (docs/kiosk.md "Users, impersonation and
   * discounts"), null otherwise; absent in answers from before impersonation existed.
   */
  impersonator: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullish(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** `{ success, redirect }`: where the SPA goes next (a path on this origin). */
export const RedirectAnswerSchema = z.object({ success: z.literal(true), redirect: z.string() });

/** `{ success, message }`: a message for the page. */
export const MessageAnswerSchema = z.object({ success: z.literal(true), message: z.string() });

/** A new second factor: its secret, otpauth URI and QR code (PNG data URL). */
export const TwoFactorSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

/** An API token as the settings list it (never the token itself). */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  metadata: z.object({ abilities: z.array(z.string()) }),
  /** ISO 8601. */
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** When it stops working (ISO 8601), or null: until deleted. */
  expires_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** One ability a token can be given (`GET /settings/api/token/abilities`). */
export const AbilitySchema = z.object({
  value: z.enum(ABILITY_VALUES),
  text: z.string(),
  default: z.boolean(),
});
export type AbilityOption = z.infer<typeof AbilitySchema>;

/** A registration's contract: 201 signed in; 400 `{ paymentId }` when the card needs 3-D Secure. */
const registration = defineContract({
  body: registrationBody(),
  answer: RedirectAnswerSchema,
  status: 201,
  errors: [400, 502],
  errorAnswers: { 400: PaymentActionRequiredSchema },
});

/** The `auth` routes' contracts, by route key. */
export const AUTH_CONTRACT = {
  'GET /geocode/country': defineContract({
    /** ISO 3166-1 alpha-2, or ZZ (unknown). */
    answer: z.object({ country: z.string() }),
  }),
  'POST /if-mail-exists': defineContract({ body: EmailCheckBody, answer: SuccessSchema }),
  'POST /register': registration,
  'POST /register/partner': registration,
  'POST /login': defineContract({
    body: LoginBody,
    answer: RedirectAnswerSchema.extend({ user: CurrentUserSchema }),
  }),
  'POST /logout': defineContract({ answer: RedirectAnswerSchema }),
  'POST /password/email': defineContract({ body: PasswordEmailBody, answer: MessageAnswerSchema }),
  'POST /password/reset': defineContract({
    body: passwordResetBody(),
    answer: RedirectAnswerSchema,
  }),
  'POST /email/verify': defineContract({
    body: EmailVerifyBody,
    answer: MessageAnswerSchema.extend({ email: z.string() }),
  }),
  'POST /email/verification-notification': defineContract({ answer: MessageAnswerSchema }),
  'GET /user/current': defineContract({ answer: CurrentUserSchema }),
  /** Multipart: the file is the field `photo` (functions/lib/uploads.ts `storePhoto`). */
  'POST /settings/photo': defineContract({
    answer: z.object({ success: z.literal(true), photo_url: z.string() }),
  }),
  'PUT /settings/contact': defineContract({
    body: ContactBody,
    /** A new address waits for its link: `pending_email` and a message say so. */
    answer: z.object({
      success: z.literal(true),
      pending_email: z.string().optional(),
      message: z.string().optional(),
    }),
  }),
  'PUT /settings/onboarding': defineContract({
    body: OnboardingBody,
    answer: RedirectAnswerSchema,
  }),
  'PUT /settings/password': defineContract({
    body: passwordChangeBody(),
    answer: z.object({ success: z.literal(true), tokens_revoked: z.boolean() }),
  }),
  'POST /settings/two-factor-auth': defineContract({
    body: TwoFactorBody,
    /** Without `code` the new secret; with it, the reset code (shown once). */
    answer: z.union([
      TwoFactorSetupSchema,
      z.object({ success: z.literal(true), reset_code: z.string() }),
    ]),
  }),
  'DELETE /settings/two-factor-auth': defineContract({
    body: TwoFactorOffBody,
    answer: SuccessSchema,
  }),
  'GET /settings/api/tokens': defineContract({ answer: z.array(ApiTokenSchema) }),
  'GET /settings/api/token/abilities': defineContract({ answer: z.array(AbilitySchema) }),
  'POST /settings/api/token': defineContract({
    body: NewTokenBody,
    /** The token itself is in this answer only. */
    answer: z.object({ token: z.string(), id: z.string(), expires_at: z.string().nullable() }),
    status: 201,
  }),
  'PUT /settings/api/token/{id}': defineContract({
    params: IdParams,
    body: TokenBody,
    answer: SuccessSchema,
  }),
  'DELETE /settings/api/token/{id}': defineContract({ params: IdParams, answer: SuccessSchema }),
  /** The SPA's session keep-alive (docs/security.md "Sessions and tokens": every 240 s). */
  'PUT /spark/token': defineContract({ answer: SuccessSchema }),
} as const;
