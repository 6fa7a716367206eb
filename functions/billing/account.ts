/**
 * Which team a billing call acts on (docs/adr/0032-billing-server.md "Billing is per team"): team
 * paths name it (`/settings/companies/{id}/…`, owner-only by the route table); user paths act on
 * the caller's current team, which the caller must own (docs/adr/0023-team-roles.md "Team roles":
 * the owner keeps billing).
 */
import type { EntityItem } from 'electrodb';
import type { AuthUser } from '#lib/auth.ts';
import type { Entities } from '#lib/db/entities.ts';
import { db } from '#lib/db/index.ts';
import { assertStorableId, forbidden, notFound, unauthenticated } from '#lib/errors.ts';

export type TeamRecord = EntityItem<Entities['Team']>;
export type UserRecord = EntityItem<Entities['User']>;
export type SubscriptionRecord = EntityItem<Entities['Subscription']>;

/** The message when a member who is not the owner calls a user billing path. */
export const OWNER_ONLY = 'Only the team owner can manage billing.';

/** A team and its owner, as billing needs them. */
export interface BillingTeam {
  team: TeamRecord;
  owner: UserRecord;
}

/** Reads a team and its owner. @throws AppError 404 when either is gone. */
export async function loadBillingTeam(teamId: string): Promise<BillingTeam> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  const owner = (await db().User.get({ userId: team.ownerId }).go()).data;
  if (!owner) throw notFound();
  return { team, owner };
}

/**
 * The team a billing call acts on.
 * @param teamId the `{id}` of a team path (its owner was checked by the route table), or
 *   undefined for a user path (the caller's current team).
 * @throws AppError 401 without a user, 404 without a current team or for an id longer than any
 *   id can be (`assertStorableId`: `team_id` comes from queries and bodies too, and
 *   DynamoDB refuses over-long keys with an error), 403 for a non-owner.
 */
export async function billingTeamOf(
  user: AuthUser | undefined,
  teamId?: string | null,
): Promise<BillingTeam> {
  if (!user) throw unauthenticated();
  const id = teamId ?? user.currentTeamId;
  if (!id) throw notFound('You have no current team.');
  assertStorableId(id);
  const found = await loadBillingTeam(id);
  if (found.team.ownerId !== user.userId) {
    // A team the caller does not belong to stays hidden (docs/security.md "Authorization matrix").
    const member = (await db().Membership.get({ teamId: id, userId: user.userId }).go()).data;
    if (!member) throw notFound();
    throw forbidden(OWNER_ONLY);
  }
  return found;
}

/** The team's subscription record, or null. */
export async function subscriptionOf(teamId: string): Promise<SubscriptionRecord | null> {
  return (await db().Subscription.get({ teamId, name: 'default' }).go()).data;
}

/** The team a Stripe customer bills, or undefined. */
export async function teamOfCustomer(customerId: string): Promise<string | undefined> {
  return (await db().StripeCustomer.get({ customerId }).go()).data?.teamId;
}

/** The Stripe customers of the teams a user owns (for checking invoice and payment ids). */
export async function ownedCustomerIds(userId: string): Promise<string[]> {
  const memberships = (await db().Membership.query.byUser({ userId }).go({ pages: 'all' })).data;
  const owned = memberships.filter((m) => m.role === 'owner');
  const teams = await Promise.all(owned.map((m) => db().Team.get({ teamId: m.teamId }).go()));
  return teams.flatMap((t) => (t.data?.stripeCustomerId ? [t.data.stripeCustomerId] : []));
}
