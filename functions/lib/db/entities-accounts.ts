/**
 * Accounts: users, sessions, sign-in throttles, e-mail claims, password resets and verifications,
 * API tokens (docs/security.md "Sessions and tokens").
 */
import { Entity } from 'electrodb';
import { type EntityKit, SERVICE, gsi, now } from './entity-kit.ts';

/** Builds these entities against one table. */
export function accountsEntities({ opts, primary }: EntityKit) {
  const User = new Entity(
    {
      model: { entity: 'user', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        email: { type: 'string', required: true, set: (v?: string) => v?.trim().toLowerCase() },
        name: { type: 'string', required: true },
        /** scrypt hash in PHC-like form `scrypt$N$r$p$salt$hash` (functions/lib/passwords.ts). */
        passwordHash: { type: 'string', required: true },
        isAdmin: { type: 'boolean', default: false },
        currentTeamId: { type: 'string' },
        photoUrl: { type: 'string' },
        /** The use case picked in onboarding (docs/adr/0016-onboarding.md "Onboarding"), one of `ONBOARDING_USE_CASES`. */
        onboardingUseCase: { type: 'string' },
        /**
         * When the user proved they read mail at `email` (ISO 8601): a verification link, or an
         * invitation code sent to that address (functions/auth/email-verification.ts). Unset
         * until then; an unverified address receives no team access (docs/security.md).
         */
        emailVerifiedAt: { type: 'string' },
        /**
         * Sessions created before this moment (ms since the epoch) are no longer valid: set when
         * the password is changed or reset (functions/lib/session.ts).
         */
        sessionsValidFrom: { type: 'number' },
        /**
         * TOTP secret once two-factor authentication is on, sealed with envelope encryption
         * (JSON of a `SealedSecret`, context `{ userId, purpose: 'totp' }`;
         * functions/auth/two-factor.ts). Accounts from before encryption may still hold the base32
         * secret; it is sealed on its next use.
         */
        twoFactorSecret: { type: 'string' },
        /** A secret shown but not yet confirmed with a code, sealed like `twoFactorSecret`. */
        twoFactorPendingSecret: { type: 'string' },
        /** SHA-256 of the one-time reset code. */
        twoFactorResetHash: { type: 'string' },
        /** Last TOTP time step accepted: codes are single-use. */
        twoFactorLastStep: { type: 'number' },
        /**
         * When the user last opened the announcements side of the notifications panel (ISO
         * 8601; docs/billing.md "Model" `last_read_announcements_at`); announcements created later
         * are unread (docs/notifications.md).
         */
        lastReadAnnouncementsAt: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now, watch: '*', set: now },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byEmail: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['email'] },
          sk: { field: gsi(1).sortKey, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * A signed-in session (docs/security.md "Sessions and tokens"). Keyed by the SHA-256 of the
   * opaque cookie value, so a read of the table gives no usable session. `ttl` (s) is the absolute
   * expiry; DynamoDB's TTL removes it, and reads check both timeouts themselves (TTL deletion
   * lags).
   */
  const Session = new Entity(
    {
      model: { entity: 'session', version: '1', service: SERVICE },
      attributes: {
        sessionHash: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        /** ms since the epoch */
        createdAt: { type: 'number', required: true },
        lastSeenAt: { type: 'number', required: true },
        ttl: { type: 'number', required: true },
        /**
         * Set on a session a platform admin started as another user (docs/kiosk.md "Users,
         * impersonation and discounts"): the admin's user id, and the audit record's id.
         */
        impersonatorId: { type: 'string' },
        impersonationId: { type: 'string' },
      },
      indexes: {
        byHash: {
          pk: { ...primary.pk, composite: ['sessionHash'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /** A failure counter for throttling (login per account and per IP), expiring with its window. */
  const Throttle = new Entity(
    {
      model: { entity: 'throttle', version: '1', service: SERVICE },
      attributes: {
        key: { type: 'string', required: true },
        count: { type: 'number', required: true },
        /** ms since the epoch */
        windowStart: { type: 'number', required: true },
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byKey: {
          pk: { ...primary.pk, composite: ['key'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * A claimed e-mail address: created in the same transaction as its user, with a
   * does-not-exist condition, so two registrations can never share an address (DynamoDB has no
   * unique secondary keys).
   */
  const EmailClaim = new Entity(
    {
      model: { entity: 'emailclaim', version: '1', service: SERVICE },
      attributes: {
        email: { type: 'string', required: true },
        userId: { type: 'string', required: true },
      },
      indexes: {
        byEmail: {
          pk: { ...primary.pk, composite: ['email'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /** A password reset: the SHA-256 of the e-mailed token, one per user, expiring in an hour. */
  const PasswordReset = new Entity(
    {
      model: { entity: 'passwordreset', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        tokenHash: { type: 'string', required: true },
        /** ms since the epoch */
        expiresAt: { type: 'number', required: true },
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * A link that proves a user reads mail at an address (docs/security.md "Invitations and
   * e-mail ownership"): `verify` confirms the account's own address, `change` moves the account
   * to a new one. Keyed by the SHA-256 of the e-mailed token; single-use, expiring at `expiresAt`
   * (DynamoDB's TTL removes it later).
   */
  const EmailVerification = new Entity(
    {
      model: { entity: 'emailverification', version: '1', service: SERVICE },
      attributes: {
        tokenHash: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        purpose: { type: ['verify', 'change'] as const, required: true },
        /** The address the link was sent to (the new address for `change`). */
        email: { type: 'string', required: true, set: (v?: string) => v?.trim().toLowerCase() },
        /** For `change`: the account's address when the change was asked for. */
        fromEmail: { type: 'string' },
        /** ms since the epoch */
        expiresAt: { type: 'number', required: true },
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byHash: {
          pk: { ...primary.pk, composite: ['tokenHash'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * An API token (docs/adr/0044-the-api-contract.md "The API contract": "Security and tokens"):
   * only the SHA-256 of the token is kept, the token itself is shown once at creation.
   */
  const ApiToken = new Entity(
    {
      model: { entity: 'apitoken', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        tokenId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        abilities: { type: 'list', items: { type: 'string' }, required: true },
        tokenHash: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
        lastUsedAt: { type: 'string' },
        /** When the token stops working (ISO 8601); unset: it works until revoked. */
        expiresAt: { type: 'string' },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: ['tokenId'] },
        },
        byHash: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['tokenHash'] },
          sk: { field: gsi(1).sortKey, composite: [] },
        },
      },
    },
    opts,
  );

  /** An invitation to a team (docs/billing.md "Model"): pending, then accepted, rejected or cancelled. */
  return { User, Session, Throttle, EmailClaim, PasswordReset, EmailVerification, ApiToken };
}
