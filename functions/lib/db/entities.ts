/**
 * The single-table entities (docs/infra.md "What the stack creates"), declared once with ElectroDB
 * over the key layout in shared/resources.ts. Entities are built per table name and client, so the
 * local stack, tests (in-memory DynamoDB Local on a free port) and AWS share one declaration.
 *
 * Access patterns served here (the first ones; later features add their own):
 * - user by id; user by e-mail (gsi1);
 * - team by id; members of a team (primary) and teams of a user (gsi1) through Membership;
 * - plan by id; all plans (gsi1);
 * - library image by id; images of a scope (global or a team) by creation (gsi1);
 * - design by id; design by public render id (gsi2); a dashboard list (a team's active or
 *   archived designs, or the templates) by last update (gsi1), creation (gsi3), name (gsi4)
 *   and views (gsi5).
 */
import { Entity, Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { entityKit, gsi, now, SERVICE } from './entity-kit.ts';
import { kioskMetricsEntities } from './entities-kiosk-metrics.ts';
import { kioskUserEntities } from './entities-kiosk-users.ts';
import { mailEntities } from './entities-mail.ts';
import { notificationEntities } from './entities-notifications.ts';
import { signingEntities } from './entities-signing.ts';
import { sendListEntities } from './entities-send-lists.ts';
import { dataSourceEntities } from './entities-data-sources.ts';
import { usageEntities } from './entities-usage.ts';
import { firstOpenEntities } from './entities-first-open.ts';
import { pollEntities } from './entities-polls.ts';
import { analyticsEntities } from './entities-analytics.ts';
import { webhookEntities } from './entities-webhooks.ts';

/** A dashboard list index of designs: one list (`listKey`) ordered by `sortAttribute`. */
const designListIndex = <S extends string>(n: 1 | 3 | 4 | 5, sortAttribute: S) =>
  ({
    index: gsi(n).indexName,
    pk: { field: gsi(n).partitionKey, composite: ['listKey'] },
    sk: { field: gsi(n).sortKey, composite: [sortAttribute, 'designId'] },
  }) as const;

/** Width of `titleSort`, characters: enough to order any two real titles, well under key limits. */
const TITLE_SORT_LENGTH = 64;

/**
 * The list a design is in: `team:{teamId}:{status}`, or `templates:{status}` for a template
 * (a template's status is its enabled/disabled state, docs/decisions.md "Design lists"). Templates
 * are listed across teams, not in their team's lists.
 * @throws Error when `teamId` or `status` is missing (a write that changes one of the three
 *   attributes must set all three).
 */
export function designListKey(item: Record<string, unknown>): string {
  const { teamId, status, isTemplate } = item;
  if (typeof status !== 'string' || (isTemplate !== true && typeof teamId !== 'string')) {
    throw new Error('a design list key needs teamId, status and isTemplate together');
  }
  return isTemplate === true ? `templates:${status}` : `team:${teamId}:${status}`;
}

/**
 * A title as the name sort compares it: accents and case folded (`Éclair` sorts with
 * `eclair`), whitespace runs and control characters made single spaces, cut and padded with
 * spaces to a fixed width so that `abc` sorts before `abc def` inside the composite key.
 */
export function designTitleSortKey(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, TITLE_SORT_LENGTH)
    .padEnd(TITLE_SORT_LENGTH, ' ');
}

/** Builds every entity against one table and client. */
export function createEntities(table: string, client: DynamoDBDocumentClient) {
  const kit = entityKit(table, client);
  const { opts, primary } = kit;

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
        /** The use case picked in onboarding (docs/decisions.md "Onboarding"), one of `ONBOARDING_USE_CASES`. */
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

  const Team = new Entity(
    {
      model: { entity: 'team', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        slug: { type: 'string', required: true },
        ownerId: { type: 'string', required: true },
        planId: { type: 'string', required: true },
        /** Set by billing (freeze) or an admin; blocks design actions (docs/decisions.md "Design lists"). */
        frozen: { type: 'boolean', default: false },
        /** Extra designs beyond the plan, set by an admin (docs/billing.md "Model" `additional_{product}`). */
        additionalPicsnippets: { type: 'number', default: 0 },
        /** Admin-set restriction flag (docs/billing.md "Model" `limited_permission`). */
        limitedPermission: { type: 'boolean', default: false },
        /**
         * ISO 8601: the end of the generic trial registration started (docs/billing.md "Trials"
         * `trial_ends_at`); absent: no trial.
         */
        trialEndsAt: { type: 'string' },
        photoUrl: { type: 'string' },
        /** The team's watermark image: `/files/watermarks/…png` and its size, px (docs/decisions.md "Watermark"). */
        watermarkUrl: { type: 'string' },
        watermarkWidth: { type: 'number' },
        watermarkHeight: { type: 'number' },
        /**
         * The platform the team's members last chose on an export screen and its Klaviyo store
         * front; absent: Custom or never chosen (docs/export.md "The screen").
         */
        exportProvider: { type: 'string' },
        exportStorefront: { type: 'string' },
        /** Billing (docs/billing.md; docs/billing.md "Model" billing fields): the team's Stripe customer (`cus_…`). */
        stripeCustomerId: { type: 'string' },
        /** The default card: brand (`visa`, …) and last four digits (docs/billing.md "Model"). */
        cardBrand: { type: 'string' },
        cardLastFour: { type: 'string' },
        /** Billing address (docs/billing.md "Model" `billing_address`, … `billing_country`, ISO alpha-2). */
        billingAddress: { type: 'string' },
        billingAddressLine2: { type: 'string' },
        billingCity: { type: 'string' },
        billingState: { type: 'string' },
        billingZip: { type: 'string' },
        billingCountry: { type: 'string' },
        vatId: { type: 'string' },
        extraBillingInformation: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now, watch: '*', set: now },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  const Membership = new Entity(
    {
      model: { entity: 'membership', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        role: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['userId'] },
        },
        byUser: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['userId'] },
          sk: { field: gsi(1).sortKey, composite: ['teamId'] },
        },
      },
    },
    opts,
  );

  const Plan = new Entity(
    {
      model: { entity: 'plan', version: '1', service: SERVICE },
      attributes: {
        planId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** cents per interval; the free plan is 0 (docs/billing.md "Model"). */
        price: { type: 'number', required: true, padding: { length: 10, char: '0' } },
        interval: { type: ['monthly', 'yearly'] as const, required: true },
        type: { type: ['user', 'team'] as const, required: true },
        active: { type: 'boolean', default: true },
        /** Team limit (attributes.teams) and member limit (attributes.teamMembers), docs/billing.md "Model". */
        teams: { type: 'number', required: true },
        teamMembers: { type: 'number', required: true },
        /** Active designs allowed; unset: no limit (functions/billing/plans.ts). */
        designs: { type: 'number' },
        can_export_pdf: { type: 'boolean', default: false },
        can_upload_custom_fonts: { type: 'boolean', default: false },
        /** Days of free trial at registration; unset: none (docs/billing.md "Trials"). */
        trialDays: { type: 'number' },
        /** False: registration asks for no card (docs/billing.md "Trials"). */
        cardUpFront: { type: 'boolean', default: true },
        stripePriceId: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['planId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['price', 'planId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's Stripe subscription (docs/billing.md; docs/billing.md "Model" Subscription), one per
   * team (`name` default), mirrored from Stripe: webhooks are the source of truth. `eventAt` (s
   * since the epoch, Stripe's clock) is the newest snapshot applied, so an older event never
   * overwrites a newer state (functions/billing/subscriptions.ts).
   */
  const Subscription = new Entity(
    {
      model: { entity: 'subscription', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        name: { type: 'string', required: true, default: 'default' },
        stripeId: { type: 'string', required: true },
        stripeCustomerId: { type: 'string', required: true },
        /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, … */
        stripeStatus: { type: 'string', required: true },
        stripePriceId: { type: 'string', required: true },
        /** Our plan id for the price (docs/billing.md "Model" `provider_plan`). */
        planId: { type: 'string', required: true },
        /** Seats (the item quantity). */
        quantity: { type: 'number', required: true, default: 1 },
        /** ISO 8601 */
        trialEndsAt: { type: 'string' },
        /** ISO 8601: set while cancelled (grace period until then), docs/billing.md "Model". */
        endsAt: { type: 'string' },
        currentPeriodEnd: { type: 'string' },
        /** The plan before freezing (docs/billing.md "Model" `canceled_data.frozenPlan`). */
        frozenPlan: { type: 'string' },
        /** Cancel reason and description (docs/billing.md "Model" Cancel reasons; metaData call). */
        cancelReason: { type: 'string' },
        cancelDescription: { type: 'string' },
        /** JSON of the applied discount (shared/billing.ts Discount), kept from Stripe's answers. */
        discount: { type: 'string' },
        /** s since the epoch, Stripe's clock: the snapshot's time. */
        eventAt: { type: 'number', required: true },
        updatedAt: { type: 'string', default: now, watch: '*', set: now },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['name'] },
        },
      },
    },
    opts,
  );

  /** Which team a Stripe customer (`cus_…`) bills, for webhooks that name only the customer. */
  const StripeCustomer = new Entity(
    {
      model: { entity: 'stripecustomer', version: '1', service: SERVICE },
      attributes: {
        customerId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
      },
      indexes: {
        byCustomer: {
          pk: { ...primary.pk, composite: ['customerId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /**
   * A processed Stripe webhook event (docs/billing.md: each event id once). Created with a
   * does-not-exist condition; `ttl` (s) keeps it 7 days, past Stripe's 3-day retry window.
   */
  const StripeEvent = new Entity(
    {
      model: { entity: 'stripeevent', version: '1', service: SERVICE },
      attributes: {
        eventId: { type: 'string', required: true },
        type: { type: 'string', required: true },
        receivedAt: { type: 'string', default: now, readOnly: true },
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['eventId'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  const LibraryImage = new Entity(
    {
      model: { entity: 'image', version: '1', service: SERVICE },
      attributes: {
        imageId: { type: 'string', required: true },
        /** `global` for the library, else the owning team id. */
        scope: { type: 'string', required: true },
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        contentType: { type: 'string', required: true },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        bytes: { type: 'number', required: true },
        title: { type: 'string', required: true },
        author: { type: 'string' },
        /** The photographer's page, for the attribution link (stock photos). */
        authorUrl: { type: 'string' },
        licence: { type: 'string' },
        /**
         * Search words an admin gives a global library photo in the kiosk (lower case;
         * functions/kiosk/library.ts, docs/kiosk.md "The global image library").
         */
        tags: { type: 'list', items: { type: 'string' } },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['imageId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byScope: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['scope'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'imageId'] },
        },
      },
    },
    opts,
  );

  const Design = new Entity(
    {
      model: { entity: 'design', version: '1', service: SERVICE },
      attributes: {
        designId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        /** The public render id in `/r/{publicId}`; created once. */
        publicId: { type: 'string', required: true, readOnly: true },
        status: { type: ['active', 'archived'] as const, required: true, default: 'active' },
        title: { type: 'string', required: true },
        isTemplate: { type: 'boolean', default: false },
        /** Optimistic lock: every write checks and bumps it (docs/infra.md "What the stack creates"). */
        version: { type: 'number', required: true, default: 1 },
        /** The design document (shared/design.ts), validated with zod at the edges. */
        document: { type: 'any', required: true },
        /**
         * Views (docs/decisions.md "The design document: versions and restore" `counter`): opens,
         * the render URL's answers to anyone but a mail proxy, flushed in aggregate by the render
         * service (functions/render/service.ts `ViewCounter`). Before proxies were told apart it
         * counted their fetches too.
         */
        counter: { type: 'number', default: 0 },
        /**
         * The render URL's answers to mail image proxies (functions/render/mail-proxies.ts):
         * prefetches and proxied opens, which cannot be told apart. Absent on older designs: 0.
         */
        proxyFetches: { type: 'number' },
        /**
         * When the render last added to `counter` or `proxyFetches` (ISO 8601): the design page
         * and the dashboard say how fresh the counts are (docs/analytics.md "Counts on the
         * dashboard"). Absent: never counted.
         */
        countedAt: { type: 'string' },
        /**
         * The campaign the design is in (docs/analytics.md "Campaigns"): a name of 1–60
         * characters, '' or absent for none. Set by `PUT /api/pic-snippet/{id}/campaign`.
         */
        campaign: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
        /** Set by design writes (docs/decisions.md "Design API shapes"); view counts and renders never touch it. */
        updatedAt: { type: 'string', default: now },
        archivedAt: { type: 'string' },
        /**
         * The dashboard list the design is in (functions/designs/lists.ts, docs/decisions.md
         * "Design lists"): `team:{teamId}:{status}`, or `templates:{status}` for a template.
         * Derived; a write that changes `teamId`, `status` or `isTemplate` must set all three.
         */
        listKey: {
          type: 'string',
          watch: ['teamId', 'status', 'isTemplate'],
          set: (_value: unknown, item: Record<string, unknown>) => designListKey(item),
        },
        /** The title as the name sort compares it (`designTitleSortKey`); derived from `title`. */
        titleSort: {
          type: 'string',
          watch: ['title'],
          set: (_value: unknown, item: Record<string, unknown>) =>
            designTitleSortKey(String(item.title ?? '')),
        },
        /**
         * `counter` as of the design's last write or view flush, the key of the views sort: the
         * render service adds views with an atomic ADD that cannot rebuild a string key, so the
         * sort key is copied by `recordDesignViews` (functions/designs/store.ts).
         */
        listedViews: { type: 'number', default: 0, padding: { length: 12, char: '0' } },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['designId'] },
          sk: { ...primary.sk, composite: [] },
        },
        /** A list by last update (the dashboard's default sort, docs/decisions.md "Dashboard SPA"). */
        byListUpdated: designListIndex(1, 'updatedAt'),
        byPublicId: {
          index: gsi(2).indexName,
          pk: { field: gsi(2).partitionKey, composite: ['publicId'] },
          sk: { field: gsi(2).sortKey, composite: [] },
        },
        byListCreated: designListIndex(3, 'createdAt'),
        byListName: designListIndex(4, 'titleSort'),
        byListViews: designListIndex(5, 'listedViews'),
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
   * An API token (docs/decisions.md "The API contract": "Security and tokens"): only the SHA-256 of
   * the token is kept, the token itself is shown once at creation.
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
  const Invitation = new Entity(
    {
      model: { entity: 'invitation', version: '1', service: SERVICE },
      attributes: {
        invitationId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        email: { type: 'string', required: true, set: (v?: string) => v?.trim().toLowerCase() },
        role: { type: 'string', required: true },
        /** SHA-256 of the code in the e-mailed link. */
        codeHash: { type: 'string', required: true },
        invitedBy: { type: 'string', required: true },
        status: { type: ['pending', 'accepted', 'rejected', 'cancelled'] as const, required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['invitationId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byCode: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['codeHash'] },
          sk: { field: gsi(1).sortKey, composite: [] },
        },
        byTeam: {
          index: gsi(2).indexName,
          pk: { field: gsi(2).partitionKey, composite: ['teamId'] },
          sk: { field: gsi(2).sortKey, composite: ['createdAt', 'invitationId'] },
        },
        byEmail: {
          index: gsi(3).indexName,
          pk: { field: gsi(3).partitionKey, composite: ['email'] },
          sk: { field: gsi(3).sortKey, composite: ['createdAt', 'invitationId'] },
        },
      },
    },
    opts,
  );

  /**
   * A sticker pack of the library (docs/decisions.md "The design document: versions and restore":
   * "Sticker pack": id, pack_name, cover_image; docs/decisions.md "Sticker library"). Packs are
   * global; `status` is `removed` once an admin removes one (docs/decisions.md "The API contract"
   * Kiosk packs), which hides it and its stickers from every list.
   */
  const StickerPack = new Entity(
    {
      model: { entity: 'stickerpack', version: '1', service: SERVICE },
      attributes: {
        packId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** Order of the pack in the library, ascending. */
        position: { type: 'number', required: true, padding: { length: 6, char: '0' } },
        /** Assets-bucket key of the cover image (a thumbnail under `files/`). */
        coverKey: { type: 'string', required: true },
        stickerCount: { type: 'number', required: true },
        /** Where the artwork comes from and under which licence, e.g. `Twemoji, CC BY 4.0`. */
        attribution: { type: 'string', required: true },
        status: { type: ['active', 'removed'] as const, required: true, default: 'active' },
        /** Hash of the seed definition the pack was built from (infra/local/seed-stickers.ts). */
        seedVersion: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['packId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['position', 'packId'] },
        },
      },
    },
    opts,
  );

  /** A sticker of a pack (docs/decisions.md "The design document: versions and restore": "Sticker library items", type `icon`). */
  const Sticker = new Entity(
    {
      model: { entity: 'sticker', version: '1', service: SERVICE },
      attributes: {
        stickerId: { type: 'string', required: true },
        packId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** Search words besides the name (lower case). */
        keywords: { type: 'list', items: { type: 'string' }, default: () => [] },
        /** Assets-bucket keys under `files/`: the image drawn (512 px) and the picker's thumbnail. */
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        /** Order inside the pack, ascending. */
        position: { type: 'number', required: true, padding: { length: 6, char: '0' } },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['stickerId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byPack: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['packId'] },
          sk: { field: gsi(1).sortKey, composite: ['position', 'stickerId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's own sticker (docs/decisions.md "The design document: versions and restore": "Upload":
   * image_name, icon_url; `POST /image` with `type=asIcon`), listed newest first.
   */
  const StickerUpload = new Entity(
    {
      model: { entity: 'stickerupload', version: '1', service: SERVICE },
      attributes: {
        stickerId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        imageName: { type: 'string', required: true },
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        /** An animated GIF upload's animated original, fitted as `key` (docs/editor.md "Animated GIF stickers"); absent for every other upload. */
        gifKey: { type: 'string' },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        bytes: { type: 'number', required: true },
        uploadedBy: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['stickerId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byTeam: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['teamId'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'stickerId'] },
        },
      },
    },
    opts,
  );

  /** A user's favourite pack, sticker or uploaded sticker (docs/decisions.md "The design document: versions and restore" `is_favorite`). */
  const StickerFavorite = new Entity(
    {
      model: { entity: 'stickerfavorite', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        kind: { type: ['pack', 'icon', 'custom_sticker'] as const, required: true },
        targetId: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: ['kind', 'targetId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's credential for a merge-tag platform (docs/export.md: Klaviyo private key, Keap
   * OAuth token, ManyChat page API key), sealed with envelope encryption
   * (functions/lib/secrets.ts; encryption context `{ teamId, provider }`). One per team and
   * provider; never answered to clients.
   */
  const ProviderCredential = new Entity(
    {
      model: { entity: 'providercredential', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        provider: { type: 'string', required: true },
        /** JSON of a `SealedSecret`. */
        sealed: { type: 'string', required: true },
        savedBy: { type: 'string', required: true },
        savedAt: { type: 'string', required: true, default: now, set: () => now() },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['provider'] },
        },
      },
    },
    opts,
  );

  /**
   * A template bundle (docs/decisions.md "The design document: versions and restore": "Template
   * bundle": id, title/name, status, bundle_images, teams, created_at, archived_at): a set of
   * templates an admin assigns to teams, whose members see its templates in the editor's Bonus tab.
   * The template ids and team ids are lists on the bundle (docs/templates.md "Storage and
   * queries"): bundles are few, so every bundle call is one query of `all` (or one get) plus one
   * batch get of the templates or teams it shows. Writes check `version` (optimistic lock).
   */
  const TemplateBundle = new Entity(
    {
      model: { entity: 'templatebundle', version: '1', service: SERVICE },
      attributes: {
        bundleId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** docs/decisions.md "Design lists": "Bundle: status 0/1": `active` is 1. */
        status: { type: ['active', 'inactive'] as const, required: true, default: 'active' },
        /** Template design ids, in the order they joined the bundle. */
        templateIds: { type: 'list', items: { type: 'string' }, default: () => [] },
        /** Ids of the teams the bundle is assigned to. */
        teamIds: { type: 'list', items: { type: 'string' }, default: () => [] },
        version: { type: 'number', required: true, default: 1 },
        createdAt: { type: 'string', default: now, readOnly: true },
        updatedAt: { type: 'string', default: now },
        /** Set while the bundle is deactivated (docs/decisions.md "The design document: versions and restore" `archived_at`). */
        archivedAt: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['bundleId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'bundleId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's uploaded font (docs/decisions.md "The design document: versions and restore" Fonts
   * "custom font names and path"; docs/decisions.md "Design API shapes" `POST /storeFont`): one per
   * team and family (`familyKey`, the family name in lower case, so a second upload of a family is
   * found). The file is in the assets bucket at `key`.
   */
  const CustomFont = new Entity(
    {
      model: { entity: 'customfont', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        familyKey: { type: 'string', required: true },
        family: { type: 'string', required: true },
        key: { type: 'string', required: true },
        format: { type: ['truetype', 'opentype', 'woff'] as const, required: true },
        bytes: { type: 'number', required: true },
        /** SHA-256 of the file, hex: the same file uploaded again is the same font. */
        sha256: { type: 'string', required: true },
        uploadedBy: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['familyKey'] },
        },
      },
    },
    opts,
  );

  /**
   * A design as it was at one version, kept when Generate names that version in the export's
   * URL (`/r/{publicId}/v{version}`, docs/export.md "Cache id"): the render service draws
   * it for that URL after later edits, so e-mails already sent keep their image. Its own
   * partition (`snapshotOf`), never listed; written once per version, never changed.
   */
  const DesignSnapshot = new Entity(
    {
      model: { entity: 'designsnapshot', version: '1', service: SERVICE },
      attributes: {
        snapshotOf: { type: 'string', required: true },
        version: { type: 'number', required: true },
        /** The design document (shared/design.ts) as stored at that version. */
        document: { type: 'any', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byVersion: {
          pk: { ...primary.pk, composite: ['snapshotOf'] },
          sk: { ...primary.sk, composite: ['version'] },
        },
      },
    },
    opts,
  );

  const entities = {
    DesignSnapshot,
    CustomFont,
    TemplateBundle,
    ProviderCredential,
    StickerPack,
    Sticker,
    StickerUpload,
    StickerFavorite,
    Invitation,
    ApiToken,
    EmailVerification,
    User,
    Team,
    Membership,
    Plan,
    LibraryImage,
    Design,
    Session,
    Throttle,
    EmailClaim,
    PasswordReset,
    Subscription,
    StripeCustomer,
    StripeEvent,
    ...notificationEntities(kit),
    ...kioskMetricsEntities(kit),
    ...kioskUserEntities(kit),
    ...mailEntities(kit),
    ...usageEntities(kit),
    ...firstOpenEntities(kit),
    ...pollEntities(kit),
    ...analyticsEntities(kit),
    ...webhookEntities(kit),
    ...signingEntities(kit),
    ...sendListEntities(kit),
    ...dataSourceEntities(kit),
  };
  return { ...entities, service: new Service(entities, opts) };
}

export type Entities = ReturnType<typeof createEntities>;
