/**
 * The kiosk's users: search, profile, impersonation and discounts (docs/kiosk.md "Kiosk";
 * docs/kiosk.md "Users, impersonation and discounts").
 */
import {
  DiscountSchema,
  SubscriptionStatusSchema,
  type Invoice,
} from '#shared/contract/billing.ts';
import {
  KioskDiscountBody,
  KioskUserSearchBody,
  type KioskSubscription,
  type KioskUserProfile,
  type KioskUserRow,
  type KioskUserTeam,
} from '#shared/contract/kiosk-users.ts';
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { signIns } from '#domain/sign-ins.ts';
import { subscriptionOf, type TeamRecord, type UserRecord } from '#functions/billing/account.ts';
import { listInvoices } from '#functions/billing/invoices.ts';
import { isLive } from '#functions/billing/subscriptions.ts';
import { applyKioskDiscount } from './discounts.ts';
import { impersonationsOf, startImpersonation, stopImpersonation } from './impersonation.ts';

/** Users per search page. */
export const USERS_PER_PAGE = 25;

const row = (u: UserRecord): KioskUserRow => ({
  id: u.userId,
  name: u.name,
  email: u.email,
  isAdmin: u.isAdmin ?? false,
  created_at: u.createdAt ?? '',
});

/**
 * Users whose name or e-mail contains the query (case-insensitive; empty: everyone), by name,
 * {@link USERS_PER_PAGE} a page. A scan of the users: fine for an admin screen at this scale
 * (docs/kiosk.md says when it needs an index).
 */
async function searchUsers(query: string, page: number) {
  const q = query.toLowerCase();
  const users = (await db().User.scan.go({ pages: 'all' })).data;
  const found = users
    .filter((u) => q === '' || u.name.toLowerCase().includes(q) || u.email.includes(q))
    .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  const lastPage = Math.max(1, Math.ceil(found.length / USERS_PER_PAGE));
  return {
    data: found.slice((page - 1) * USERS_PER_PAGE, page * USERS_PER_PAGE).map(row),
    current_page: page,
    last_page: lastPage,
    per_page: USERS_PER_PAGE,
    total: found.length,
  };
}

/** A team's stored subscription as the profile shows it, or null (none, or an unknown state). */
async function subscriptionSummary(teamId: string): Promise<KioskSubscription | null> {
  const sub = await subscriptionOf(teamId);
  const status = SubscriptionStatusSchema.safeParse(sub?.stripeStatus);
  if (!sub || !status.success) return null;
  const discount =
    isLive(sub) && sub.discount ? DiscountSchema.safeParse(JSON.parse(sub.discount)) : undefined;
  return {
    status: status.data,
    plan: sub.planId,
    ends_at: sub.endsAt ?? null,
    trial_ends_at: sub.trialEndsAt ?? null,
    discount: discount?.success ? discount.data : null,
  };
}

/** A team's invoices for the profile; null when Stripe could not be read (logged). */
async function invoicesOf(team: TeamRecord): Promise<Invoice[] | null> {
  try {
    return await listInvoices(team);
  } catch (error) {
    logger.warn('kiosk profile: invoices could not be read', { teamId: team.teamId, error });
    return null;
  }
}

/** One of the user's teams: role, plan, subscription, and invoices where the user owns it. */
async function teamOfProfile(userId: string, teamId: string, role: string) {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) return undefined;
  const plan = (await db().Plan.get({ planId: team.planId }).go()).data;
  const owner = team.ownerId === userId;
  return {
    id: team.teamId,
    name: team.name,
    role: owner ? 'owner' : role,
    plan: { id: team.planId, name: plan?.name ?? team.planId },
    subscription: await subscriptionSummary(team.teamId),
    invoices: owner ? await invoicesOf(team) : [],
  } satisfies KioskUserTeam;
}

/**
 * A user's kiosk profile: the account, teams with roles, plans, subscriptions (with any
 * discount) and invoices, the last sign-ins and impersonations.
 * @throws AppError 404 for an unknown user.
 */
async function userProfile(userId: string): Promise<KioskUserProfile> {
  const user = (await db().User.get({ userId }).go()).data;
  if (!user) throw notFound();
  const memberships = (await db().Membership.query.byUser({ userId }).go({ pages: 'all' })).data;
  const teams = await Promise.all(memberships.map((m) => teamOfProfile(userId, m.teamId, m.role)));
  return {
    ...row(user),
    photo_url: user.photoUrl ?? null,
    email_verified: user.emailVerifiedAt !== undefined,
    two_factor_enabled: user.twoFactorSecret !== undefined,
    current_team_id: user.currentTeamId ?? null,
    teams: teams.filter((t) => t !== undefined).sort((a, b) => a.name.localeCompare(b.name)),
    sign_ins: (await signIns(userId)).map((s) => ({ at: s.at, ip: s.ip, user_agent: s.userAgent })),
    impersonations: await impersonationsOf(userId),
    billing_online: billingOnline(),
  };
}

/** The kiosk's user routes, by route key. */
export const USER_ROUTES: Record<string, RouteDefinition> = {
  'POST /spark/kiosk/users/search': route({
    body: KioskUserSearchBody,
    handle: async ({ body }) => json(200, await searchUsers(body.query, body.page)),
  }),

  'GET /spark/kiosk/users/{id}/profile': route({
    handle: async ({ params }) => json(200, await userProfile(params.id!)),
  }),

  'POST /spark/kiosk/users/impersonate/{id}': route({
    handle: async ({ auth, params }) => {
      const started = await startImpersonation(auth, params.id!);
      return {
        ...json(200, { success: true, redirect: started.redirect }),
        cookies: [started.cookie],
      };
    },
  }),

  'POST /spark/kiosk/users/stop-impersonating': route({
    handle: async ({ auth }) => {
      const stopped = await stopImpersonation(auth);
      return {
        ...json(200, { success: true, redirect: stopped.redirect }),
        cookies: [stopped.cookie],
      };
    },
  }),

  'POST /spark/kiosk/users/discount/{id}': route({
    body: KioskDiscountBody,
    handle: async ({ params, body, requestId }) => {
      const applied = await applyKioskDiscount(params.id!, body, requestId);
      return json(200, { success: true, team_id: applied.teamId, discount: applied.discount });
    },
  }),
};
