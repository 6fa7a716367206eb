/**
 * In-app notifications (docs/notifications.md "What notifies": "Notification",
 * docs/adr/0044-the-api-contract.md "The API contract": "Notifications and support";
 * docs/notifications.md "What notifies"): the code path that causes one calls a helper here once
 * its own work has succeeded.
 *
 * Every exported helper **never throws**: a failure (DynamoDB down, a team gone) is logged and
 * swallowed, so a notification can never fail the action that caused it
 * (test/integration/notifications.test.ts). Callers `await` them anyway, so a Lambda does not
 * freeze with the write half done; each costs one or two DynamoDB calls.
 *
 * The texts of every kind live in {@link NOTICES}, so docs/notifications.md can list them from
 * one place.
 */
import { randomBytes } from 'node:crypto';
import type { NotificationKind } from '#shared/contract/notifications.ts';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';

/** Days a notification is kept before DynamoDB's TTL removes it (docs/notifications.md). */
export const NOTIFICATION_TTL_DAYS = 90;
/** Recipients one call notifies at most (a bundle assigned to many teams; the log says when cut). */
export const MAX_RECIPIENTS = 1000;

/** What one notification says and where its action leads. */
export interface Notice {
  kind: NotificationKind;
  /** Plain text, one sentence or two. */
  body: string;
  actionText?: string;
  /** A path of the SPA (`/settings#/companies`): starts with one `/`. */
  actionUrl?: string;
  /** An icon name the SPA draws (web/src/features/notifications/icons.tsx). */
  icon?: string;
}

/** The team fields a notice names. */
export interface TeamRef {
  teamId: string;
  name: string;
}

/**
 * A new notification id: 9 base-36 digits of `now` (ms since the epoch, good until the year
 * 5188) and 12 random hex digits, so ids sort by creation time (the user's partition is read
 * newest first by id; shared/contract/notifications.ts `NOTIFICATION_ID`). Within one process
 * the time part grows by at least 1 ms per id, so ids made in a burst keep their order.
 */
export function newNotificationId(now = Date.now()): string {
  // Monotonic within the process: ids made in the same ms still sort in the order made.
  lastIdTime = Math.max(now, lastIdTime + 1);
  return lastIdTime.toString(36).padStart(9, '0') + randomBytes(6).toString('hex');
}
let lastIdTime = 0;

const teamPath = (teamId: string, tab: string) =>
  `/settings/companies/${encodeURIComponent(teamId)}#/${tab}`;

const roleName = (role: string) =>
  role === 'admin' ? 'Admin' : role === 'owner' ? 'Owner' : 'Member';

/** The date of an ISO 8601 time as the spec shows trial dates ('MMMM Do, YYYY', docs/notifications.md "What notifies"). */
export function longDate(iso: string): string {
  const d = new Date(iso);
  const day = d.getUTCDate();
  const suffix =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  const month = d.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return `${month} ${day}${suffix}, ${d.getUTCFullYear()}`;
}

/** Every notice the product sends, by cause (docs/notifications.md "What notifies"). */
export const NOTICES = {
  /** To an existing user with a verified address who was invited (besides the e-mail). */
  invitation: (team: TeamRef, role: string, inviter: string): Notice => ({
    kind: 'invitation',
    body: `${inviter} invited you to join ${team.name} as ${role === 'admin' ? 'an admin' : 'a member'}.`,
    actionText: 'View invitation',
    actionUrl: '/settings#/companies',
    icon: 'invitation',
  }),
  /** To the team's owner and admins when someone joins. */
  memberJoined: (team: TeamRef, member: string): Notice => ({
    kind: 'member-joined',
    body: `${member} joined ${team.name}.`,
    actionText: 'View members',
    actionUrl: teamPath(team.teamId, 'membership'),
    icon: 'team',
  }),
  /** To the team's owner and admins when someone leaves or is removed. */
  memberLeft: (team: TeamRef, member: string): Notice => ({
    kind: 'member-left',
    body: `${member} left ${team.name}.`,
    actionText: 'View members',
    actionUrl: teamPath(team.teamId, 'membership'),
    icon: 'team',
  }),
  /** To a member someone else removed. */
  memberRemoved: (team: TeamRef): Notice => ({
    kind: 'member-removed',
    body: `You were removed from ${team.name}.`,
    actionText: 'Your companies',
    actionUrl: '/settings#/companies',
    icon: 'team',
  }),
  /** To the member whose role changed. */
  roleChanged: (team: TeamRef, role: string): Notice => ({
    kind: 'role-changed',
    body: `Your role in ${team.name} is now ${roleName(role)}.`,
    actionText: 'View company',
    actionUrl: teamPath(team.teamId, 'membership'),
    icon: 'role',
  }),
  /** To the team's owner when a renewal payment fails (Stripe `invoice.payment_failed`). */
  paymentFailed: (team: TeamRef): Notice => ({
    kind: 'payment-failed',
    body: `A payment for ${team.name} failed. Please check the card on file.`,
    actionText: 'Update card',
    actionUrl: teamPath(team.teamId, 'payment-method'),
    icon: 'payment',
  }),
  /** To the team's owner when the bank asks for confirmation (3-D Secure). */
  paymentActionRequired: (team: TeamRef, confirmationPath: string): Notice => ({
    kind: 'payment-action-required',
    body: `Your bank asks you to confirm a payment for ${team.name}.`,
    actionText: 'Confirm payment',
    actionUrl: confirmationPath,
    icon: 'payment',
  }),
  /** To the team's owner when the subscription changed (see {@link subscriptionNotice}). */
  subscriptionChanged: (team: TeamRef, body: string): Notice => ({
    kind: 'subscription-changed',
    body,
    actionText: 'View subscription',
    actionUrl: teamPath(team.teamId, 'subscription'),
    icon: 'subscription',
  }),
  /** To the team's owner a few days before the trial ends (Stripe `trial_will_end`). */
  trialEnding: (team: TeamRef, endsAt: string): Notice => ({
    kind: 'trial-ending',
    body: `The trial of ${team.name} ends on ${longDate(endsAt)}.`,
    actionText: 'View subscription',
    actionUrl: teamPath(team.teamId, 'subscription'),
    icon: 'subscription',
  }),
  /** To every member of a team a template bundle was assigned to. */
  bundleAssigned: (team: TeamRef, bundle: string): Notice => ({
    kind: 'bundle-assigned',
    body: `New Bonus templates for ${team.name}: ${bundle}.`,
    actionText: 'View templates',
    actionUrl: '/dashboard?view=bonus',
    icon: 'bundle',
  }),
  /**
   * To the team's owner when this month's renders reach 80 % or 100 % of the plan's quota
   * (functions/render/quota.ts; docs/security.md "Render limits"), once each per month.
   * @param percent 80 or 100; `quota` in renders a month.
   */
  renderQuota: (team: TeamRef, percent: 80 | 100, quota: number): Notice => ({
    kind: 'render-quota',
    body:
      percent >= 100
        ? `${team.name} has used all ${quota.toLocaleString('en-US')} renders of this month. New personalised images show the design's fallback image until next month or a larger plan.`
        : `${team.name} has used ${percent}% of its ${quota.toLocaleString('en-US')} renders this month.`,
    actionText: 'View plans',
    actionUrl: teamPath(team.teamId, 'subscription'),
    icon: 'subscription',
  }),
} as const;

/** Runs `work`, logging and swallowing what it throws (the never-throw rule above). */
async function quietly(what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.warn('notification not created', { what, error });
  }
}

/** Writes one notice to each user, once each, in batches (at most {@link MAX_RECIPIENTS}). */
async function write(userIds: readonly string[], notice: Notice): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length > MAX_RECIPIENTS)
    logger.warn('notification recipients cut', { kind: notice.kind, count: unique.length });
  const now = Date.now();
  const ttl = Math.ceil(now / 1000) + NOTIFICATION_TTL_DAYS * 86_400;
  const items = unique.slice(0, MAX_RECIPIENTS).map((userId) => ({
    userId,
    notificationId: newNotificationId(now),
    kind: notice.kind,
    body: notice.body,
    ...(notice.actionText ? { actionText: notice.actionText } : {}),
    ...(notice.actionUrl ? { actionUrl: notice.actionUrl } : {}),
    ...(notice.icon ? { icon: notice.icon } : {}),
    ttl,
  }));
  if (items.length === 0) return;
  if (items.length === 1) {
    await db().Notification.create(items[0]!).go({ response: 'none' });
    return;
  }
  const { unprocessed } = await db().Notification.put(items).go();
  if (unprocessed.length > 0)
    logger.warn('notifications not written', { kind: notice.kind, count: unprocessed.length });
}

/**
 * Notifies one user. Never throws.
 * @param userId the recipient.
 */
export async function notify(userId: string, notice: Notice): Promise<void> {
  await quietly(notice.kind, () => write([userId], notice));
}

/** The ids of a team's members: all, or the owner and admins (`managers`). */
async function membersOf(teamId: string, who: 'all' | 'managers'): Promise<string[]> {
  const memberships = (await db().Membership.query.byTeam({ teamId }).go({ pages: 'all' })).data;
  return memberships
    .filter((m) => who === 'all' || m.role === 'owner' || m.role === 'admin')
    .map((m) => m.userId);
}

/** A team's id and name, or null when it is gone. */
async function teamRef(teamId: string): Promise<(TeamRef & { ownerId: string }) | null> {
  const team = (await db().Team.get({ teamId }).go()).data;
  return team ? { teamId: team.teamId, name: team.name, ownerId: team.ownerId } : null;
}

/**
 * Notifies a team's members: every member (`all`), its owner and admins (`managers`), or its
 * owner alone (`owner`). Never throws.
 * @param notice built from the team (its current name).
 * @param except a user left out (whoever caused it: a member who left is not told they left).
 */
export async function notifyTeam(
  teamId: string,
  who: 'all' | 'managers' | 'owner',
  notice: (team: TeamRef) => Notice,
  except?: string,
): Promise<void> {
  await quietly(`team ${who}`, async () => {
    const team = await teamRef(teamId);
    if (!team) return;
    const ids = who === 'owner' ? [team.ownerId] : await membersOf(teamId, who);
    await write(
      ids.filter((id) => id !== except),
      notice(team),
    );
  });
}

/** Teams one {@link notifyTeams} call reaches at most (the log says when some were left out). */
export const MAX_TEAMS = 200;
/** Teams notified at once by {@link notifyTeams}. */
const TEAM_CONCURRENCY = 10;

/**
 * {@link notifyTeam} for several teams (a bundle assigned to many): ten at a time, at most
 * {@link MAX_TEAMS}. Never throws.
 */
export async function notifyTeams(
  teamIds: readonly string[],
  who: 'all' | 'managers' | 'owner',
  notice: (team: TeamRef) => Notice,
): Promise<void> {
  if (teamIds.length > MAX_TEAMS) logger.warn('notified teams cut', { count: teamIds.length });
  const list = teamIds.slice(0, MAX_TEAMS);
  for (let at = 0; at < list.length; at += TEAM_CONCURRENCY)
    await Promise.all(
      list.slice(at, at + TEAM_CONCURRENCY).map((id) => notifyTeam(id, who, notice)),
    );
}

/**
 * Notifies the user with e-mail `email`, if there is one and their address is verified: the
 * settings list shows invitations to verified addresses only, and an unverified address must
 * learn nothing from an invitation (docs/security.md "Invitations and e-mail ownership").
 * Never throws.
 */
export async function notifyAddress(email: string, notice: Notice): Promise<void> {
  await quietly(notice.kind, async () => {
    const address = email.trim().toLowerCase();
    const user = (await db().User.query.byEmail({ email: address }).go({ limit: 1 })).data[0];
    if (user?.emailVerifiedAt) await write([user.userId], notice);
  });
}

/** The parts of a subscription record a change is judged by (billing's `Subscription`). */
export interface SubscriptionState {
  planId: string;
  stripeStatus: string;
  endsAt?: string;
}

const PAID = new Set(['active', 'trialing']);

/**
 * What changed between two states of a team's subscription, as a sentence, or undefined when
 * nothing the owner would want to hear of did (a snapshot repeated by a webhook, an incomplete
 * first payment, a state a payment notice covers):
 * - paid now, on another plan or after not being paid: "… is now on the {plan} plan.";
 * - a cancellation scheduled (`endsAt` set): "… will end on {date}.";
 * - resumed (`endsAt` cleared while paid): "… was resumed.";
 * - ended (`canceled`): "… has ended.".
 */
export function subscriptionNotice(
  teamName: string,
  planName: string,
  before: SubscriptionState | null | undefined,
  after: SubscriptionState,
): string | undefined {
  const paidNow = PAID.has(after.stripeStatus);
  const paidBefore = before ? PAID.has(before.stripeStatus) : false;
  if (after.stripeStatus === 'canceled')
    return before?.stripeStatus === 'canceled'
      ? undefined
      : `The subscription of ${teamName} has ended.`;
  if (!paidNow) return undefined;
  if (!paidBefore || before?.planId !== after.planId)
    return `${teamName} is now on the ${planName} plan.`;
  if (after.endsAt && !before?.endsAt)
    return `The subscription of ${teamName} was cancelled and will end on ${longDate(after.endsAt)}.`;
  if (!after.endsAt && before?.endsAt) return `The subscription of ${teamName} was resumed.`;
  return undefined;
}

/**
 * Tells a team's owner that its subscription changed, when {@link subscriptionNotice} finds a
 * change worth saying. Never throws.
 */
export async function notifySubscriptionChange(
  teamId: string,
  before: SubscriptionState | null | undefined,
  after: SubscriptionState,
): Promise<void> {
  await quietly('subscription-changed', async () => {
    const team = await teamRef(teamId);
    if (!team) return;
    const plan = (await db().Plan.get({ planId: after.planId }).go()).data;
    const body = subscriptionNotice(team.name, plan?.name ?? after.planId, before, after);
    if (body) await write([team.ownerId], NOTICES.subscriptionChanged(team, body));
  });
}
