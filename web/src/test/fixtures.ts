/**
 * Records the component tests start from, each a valid answer of its route (shared/contract;
 * ./api.ts checks them again when a test answers with them). Each takes the fields a test
 * cares about and fills in the rest.
 */
import type { AnswerOf } from '#shared/contract/index.ts';
import type { CurrentUser } from '#shared/contract/auth.ts';
import { providerOf } from '#shared/providers/index.ts';

/**
 * A signed-in user (`GET /user/current`, shared/contract/auth.ts `CurrentUserSchema`): Ana
 * Example, owner of `team-1`, address confirmed, two-factor authentication off.
 */
export function aUser(fields: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'user-1',
    name: 'Ana Example',
    email: 'ana@example.com',
    photo_url: null,
    isAdmin: false,
    current_team_id: 'team-1',
    email_verified: true,
    two_factor_enabled: false,
    onboarding_use_case: null,
    teams: [{ id: 'team-1', role: 'owner' }],
    impersonator: null,
    ...fields,
  };
}

/** `POST /login`'s success answer for `user`: signed in, go to `redirect`. */
export function aSignIn(user: CurrentUser = aUser(), redirect = '/'): AnswerOf<'POST /login'> {
  return { success: true, redirect, user };
}

/** The 422 of a refused form: Laravel's summary message and `errors` by field. */
export function invalid(errors: Record<string, string[]>) {
  return { message: 'The given data was invalid.', errors };
}

type Token = AnswerOf<'GET /settings/api/tokens'>[number];

/** An API token as the settings list it (`GET /settings/api/tokens`): read-only, never used. */
export function aToken(fields: Partial<Token> = {}): Token {
  return {
    id: 'token-1',
    name: 'Shop sync',
    metadata: { abilities: ['read'] },
    created_at: '2026-01-05T10:00:00.000Z',
    last_used_at: null,
    expires_at: null,
    ...fields,
  };
}

type Endpoint = AnswerOf<'GET /settings/companies/{id}/webhooks'>['endpoints'][number];

/** A webhook endpoint (`GET /settings/companies/{id}/webhooks`): on, for saved designs. */
export function anEndpoint(fields: Partial<Endpoint> = {}): Endpoint {
  return {
    id: 'hook-1',
    url: 'https://example.com/hooks',
    description: '',
    events: ['design.saved'],
    enabled: true,
    created_at: '2026-01-05T10:00:00.000Z',
    failing_since: null,
    disabled_reason: null,
    ...fields,
  };
}

type Card = AnswerOf<'GET /getActive'>['active']['data'][number];

/** An active dashboard card (`GET /getActive`), without a preview (no image to load). */
export function aDesignCard(fields: Partial<Card> = {}): Card {
  const id = fields.id ?? 'design-1';
  return {
    id,
    public_id: `public-${id}`,
    title: 'Spring sale',
    version: 1,
    status: 'active',
    isTemplate: false,
    counter: 0,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    archived_at: null,
    base_url: `http://localhost:3000/r/public-${id}`,
    preview_url: '',
    showurl: `/pic-snippet/${id}`,
    editurl: `/pic-snippet/${id}/edit`,
    archiveurl: `/api/pic-snippet/${id}/archive`,
    unarchiveurl: `/api/pic-snippet/${id}/unarchive`,
    ...fields,
  };
}

type PlanAnswer = AnswerOf<'GET /spark/plans'>[number];

/**
 * A plan of `GET /spark/plans` (shared/contract/billing.ts `PlanSchema`): Pro, $29 a month per
 * user, available (billing online), with PDF export and custom fonts.
 */
export function aPlan(fields: Partial<PlanAnswer> = {}): PlanAnswer {
  return {
    id: 'pro-monthly',
    name: 'Pro',
    price: 2900,
    interval: 'monthly',
    type: 'user',
    active: true,
    attributes: { teams: 5, teamMembers: 10 },
    features: { can_export_pdf: true, can_upload_custom_fonts: true },
    available: true,
    ...fields,
  };
}

/** The free plan: one team of 2 members, no Pro features, always available. */
export function aFreePlan(fields: Partial<PlanAnswer> = {}): PlanAnswer {
  return aPlan({
    id: 'free',
    name: 'Free',
    price: 0,
    attributes: { teams: 1, teamMembers: 2 },
    features: { can_export_pdf: false, can_upload_custom_fonts: false },
    ...fields,
  });
}

type TeamAnswer = AnswerOf<'GET /settings/companies'>[number];

/** A team as the settings read it (`GET /settings/companies`): Acme, owned by Ana, free plan. */
export function aTeam(fields: Partial<TeamAnswer> = {}): TeamAnswer {
  return {
    id: 'team-1',
    name: 'Acme',
    slug: 'acme',
    owner_id: 'user-1',
    photo_url: null,
    current_billing_plan: 'free',
    can_export_pdf: false,
    can_upload_custom_fonts: false,
    frozen: false,
    watermark: null,
    product_watermark: true,
    export_provider: null,
    export_storefront: null,
    pivot: { role: 'owner' },
    ...fields,
  };
}

type TeamDetailsAnswer = AnswerOf<'GET /settings/companies/json/{id}'>;
type MemberAnswer = TeamDetailsAnswer['users'][number];

/** A member of a team (`GET /settings/companies/json/{id}`'s `users`): Ben Member, role member. */
export function aMember(fields: Partial<MemberAnswer> = {}): MemberAnswer {
  return {
    id: 'user-2',
    name: 'Ben Member',
    email: 'ben@example.com',
    pivot: { role: 'member' },
    ...fields,
  };
}

/**
 * A team with its members as the team settings read it (`GET /settings/companies/json/{id}`):
 * {@link aTeam}'s Acme with Ana, its owner, as the only member.
 */
export function aTeamWithMembers(fields: Partial<TeamDetailsAnswer> = {}): TeamDetailsAnswer {
  return {
    ...aTeam(),
    users: [
      aMember({
        id: 'user-1',
        name: 'Ana Example',
        email: 'ana@example.com',
        pivot: { role: 'owner' },
      }),
    ],
    ...fields,
  };
}

type SubscriptionViewAnswer = AnswerOf<'GET /settings/subscription'>;

/**
 * A team's billing (`GET /settings/subscription`, shared/contract/billing.ts
 * `SubscriptionViewSchema`) as a server without Stripe keys answers it (docs/billing.md
 * "Offline mode"): `billing_online` false, team-1 on the free plan as data, no subscription, no
 * card; the free plan's capabilities.
 */
export function anOfflineSubscription(
  fields: Partial<SubscriptionViewAnswer> = {},
): SubscriptionViewAnswer {
  return {
    team_id: 'team-1',
    billing_online: false,
    plan: 'free',
    subscription_id: null,
    status: null,
    quantity: null,
    active: false,
    on_trial: false,
    trial_ends_at: null,
    on_grace_period: false,
    ends_at: null,
    current_period_end: null,
    needs_subscription: true,
    frozen: false,
    frozenPlan: null,
    cancel_type: 'freeze',
    card: null,
    billing_address: null,
    vat_id: null,
    extra_billing_information: null,
    discount: null,
    capabilities: {
      can_export_pdf: false,
      can_upload_custom_fonts: false,
      teams: 1,
      teamMembers: 2,
      frozen: false,
    },
    ...fields,
  };
}

/**
 * `POST /api/merge-tag`'s answer without a connection: the platform's built-in catalogue
 * (shared/providers), free text allowed (docs/export.md "The screen").
 */
export function aMergeTagList(provider: string): AnswerOf<'POST /api/merge-tag'> {
  return {
    success: true,
    provider: provider as never,
    merge_tags: providerOf(provider).catalogue(),
    live: false,
    connection_needed: false,
    credentials_saved: false,
    free_text: true,
  };
}
