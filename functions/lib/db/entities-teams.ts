/**
 * Teams: the team, its memberships and invitations, the platform credentials it connected
 * (docs/adr/0023-team-roles.md "Team roles").
 */
import { Entity } from 'electrodb';
import { type EntityKit, SERVICE, gsi, now } from './entity-kit.ts';

/** Builds these entities against one table. */
export function teamsEntities({ opts, primary }: EntityKit) {
  const Team = new Entity(
    {
      model: { entity: 'team', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        slug: { type: 'string', required: true },
        ownerId: { type: 'string', required: true },
        planId: { type: 'string', required: true },
        /** Set by billing (freeze) or an admin; blocks design actions (docs/adr/0018-design-lists.md "Design lists"). */
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
        /** The team's watermark image: `/files/watermarks/…png` and its size, px (docs/adr/0057-watermark.md "Watermark"). */
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

  return { Team, Membership, Invitation, ProviderCredential };
}
