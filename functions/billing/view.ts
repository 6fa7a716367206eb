/**
 * The subscription view (shared/billing.ts SubscriptionView; docs/billing.md "Model",
 * docs/billing.md "Flows" states) and the capabilities the team's plan gives (docs/billing.md),
 * read from our own records: no Stripe call, so the settings tabs load fast and work offline.
 */
import {
  FREEZE_PLAN_ID,
  type Capabilities,
  type SubscriptionStatus,
  type SubscriptionView,
} from '#shared/billing.ts';
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import type { TeamRecord } from './account.ts';
import { subscriptionOf } from './account.ts';
import { teamDiscount } from './coupons.ts';
import { freePlan, planById } from './plans.ts';

/** Stripe statuses that are not active (docs/billing.md "Flows"). */
const NOT_ACTIVE = new Set([
  'incomplete',
  'incomplete_expired',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
]);

const blankToNull = (v: string | undefined): string | null => (v && v !== '' ? v : null);

/** The capabilities of the team's plan as data (`Team.planId`, which billing keeps in step). */
export function capabilitiesOf(team: TeamRecord): Capabilities {
  const plan = planById(team.planId) ?? freePlan();
  return {
    can_export_pdf: plan.can_export_pdf,
    can_upload_custom_fonts: plan.can_upload_custom_fonts,
    teams: plan.teams,
    teamMembers: plan.teamMembers,
    frozen: team.frozen ?? false,
  };
}

/**
 * "On trial" (docs/billing.md "Trials"): the team's generic trial (`Team.trialEndsAt`, set at
 * registration) before its end while no subscription replaced it, or a subscription trialing
 * before its trial end.
 * @param future true for an ISO time after now.
 */
export function onTrial(
  teamTrialEndsAt: string | undefined,
  sub: { stripeStatus: string; trialEndsAt?: string | undefined } | null,
  future: (at: string | undefined) => boolean,
): boolean {
  if (sub) return sub.stripeStatus === 'trialing' && future(sub.trialEndsAt ?? teamTrialEndsAt);
  return future(teamTrialEndsAt);
}

/**
 * The team's billing as the settings tabs show it.
 * @param nowMs the clock, ms (tests pass their own).
 */
export async function subscriptionView(
  teamId: string,
  nowMs = Date.now(),
): Promise<SubscriptionView> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw new Error(`team ${teamId} is gone`);
  const sub = await subscriptionOf(teamId);
  const future = (at: string | undefined) => at !== undefined && Date.parse(at) > nowMs;
  const status = (sub?.stripeStatus ?? null) as SubscriptionStatus | null;
  const ended = sub
    ? sub.stripeStatus === 'canceled' || (!!sub.endsAt && !future(sub.endsAt))
    : true;
  const onGrace = !!sub && !ended && future(sub.endsAt);
  return {
    team_id: teamId,
    billing_online: billingOnline(),
    plan: team.planId,
    subscription_id: sub?.stripeId ?? null,
    status,
    quantity: sub?.quantity ?? null,
    active: !!sub && !ended && !NOT_ACTIVE.has(sub.stripeStatus),
    on_trial: onTrial(team.trialEndsAt, sub, future),
    trial_ends_at: sub?.trialEndsAt ?? team.trialEndsAt ?? null,
    on_grace_period: onGrace,
    ends_at: sub?.endsAt ?? null,
    current_period_end: sub?.currentPeriodEnd ?? null,
    needs_subscription: ended || (sub ? NOT_ACTIVE.has(sub.stripeStatus) : true),
    frozen: team.frozen ?? false,
    frozenPlan: blankToNull(sub?.frozenPlan),
    cancel_type: team.planId === FREEZE_PLAN_ID ? 'cancel' : 'freeze',
    card:
      team.cardBrand && team.cardLastFour
        ? { brand: team.cardBrand, last4: team.cardLastFour, exp_month: null, exp_year: null }
        : null,
    billing_address: team.billingCountry
      ? {
          address: blankToNull(team.billingAddress),
          address_line_2: blankToNull(team.billingAddressLine2),
          city: blankToNull(team.billingCity),
          state: blankToNull(team.billingState),
          zip: blankToNull(team.billingZip),
          country: team.billingCountry,
        }
      : null,
    vat_id: blankToNull(team.vatId),
    extra_billing_information: blankToNull(team.extraBillingInformation),
    discount: await teamDiscount(teamId),
    capabilities: capabilitiesOf(team),
  };
}
