/**
 * Plans as configuration (docs/billing.md; docs/billing.md "Model" Plan, docs/accounts.md
 * "Validation rules", docs/accounts.md "Constants"): the catalogue below is the one list of plans,
 * each mapped to its Stripe price id from `STRIPE_PRICES`. It is written to the Plan items (which
 * the teams, fonts and render features read for limits and capabilities) by the local seed and, in
 * AWS, once per cold start of the billing functions ({@link ensurePlans}).
 */
import { FREE_PLAN_ID, FREEZE_PLAN_ID, type Plan as PlanView } from '#shared/billing.ts';
import { billingOnline, stripePrices } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';

/** One plan of the catalogue; `price` in cents per interval. */
export interface PlanDefinition {
  planId: string;
  name: string;
  /** cents per interval */
  price: number;
  interval: 'monthly' | 'yearly';
  /** `user`: billed per member (item quantity = members); `team`: one price per team. */
  type: 'user' | 'team';
  /** False for plans nobody can pick (plan-freeze). */
  active: boolean;
  /** Team limit (teams an owner may have) and member limit (docs/billing.md "Model" attributes). */
  teams: number;
  teamMembers: number;
  /**
   * Active designs a team on the plan may have; absent: no limit. A kiosk admin can allow a
   * team more (`Team.additionalPicsnippets`; docs/adr/0049-additional-permissions.md "Additional
   * permissions").
   */
  designs?: number;
  can_export_pdf: boolean;
  can_upload_custom_fonts: boolean;
  /**
   * Days of free trial a registration on the plan starts; absent: no trial (docs/billing.md
   * "Trials").
   */
  trialDays?: number;
  /**
   * False when registering on the plan asks for no card: the trial runs without one, and the
   * card is added on the Payment Method tab before it ends (docs/billing.md "Trials").
   */
  cardUpFront: boolean;
}

const free = { can_export_pdf: false, can_upload_custom_fonts: false, cardUpFront: true };
const pro = { can_export_pdf: true, can_upload_custom_fonts: true, cardUpFront: true };

/** Days of the Starter yearly plan's trial (docs/billing.md "Trials"). */
const STARTER_TRIAL_DAYS = 14;

/** Active designs a team on the free plan may have (docs/adr/0049-additional-permissions.md "Additional permissions"). */
export const FREE_PLAN_DESIGNS = 50;

/**
 * The plans (docs/billing.md "Model"): Free; Starter per user (seats = members); Pro per team
 * with PDF export and custom fonts (docs/billing.md "Model": "Pro plans only"); yearly prices are
 * ten months; `plan-freeze` keeps a team's designs, blocks design actions, and is never listed.
 */
export const PLAN_CATALOGUE: readonly PlanDefinition[] = [
  {
    planId: FREE_PLAN_ID,
    name: 'Free',
    price: 0,
    interval: 'monthly',
    type: 'user',
    active: true,
    teams: 1,
    teamMembers: 1,
    designs: FREE_PLAN_DESIGNS,
    ...free,
  },
  {
    planId: 'starter-monthly',
    name: 'Starter',
    price: 900,
    interval: 'monthly',
    type: 'user',
    active: true,
    teams: 2,
    teamMembers: 5,
    ...free,
  },
  {
    planId: 'starter-yearly',
    name: 'Starter',
    price: 9000,
    interval: 'yearly',
    type: 'user',
    active: true,
    teams: 2,
    teamMembers: 5,
    ...free,
    trialDays: STARTER_TRIAL_DAYS,
    cardUpFront: false,
  },
  {
    planId: 'pro-monthly',
    name: 'Pro',
    price: 2900,
    interval: 'monthly',
    type: 'team',
    active: true,
    teams: 10,
    teamMembers: 25,
    ...pro,
  },
  {
    planId: 'pro-yearly',
    name: 'Pro',
    price: 29000,
    interval: 'yearly',
    type: 'team',
    active: true,
    teams: 10,
    teamMembers: 25,
    ...pro,
  },
  {
    planId: FREEZE_PLAN_ID,
    name: 'Frozen',
    price: 0,
    interval: 'monthly',
    type: 'team',
    active: false,
    teams: 1,
    teamMembers: 1,
    ...free,
  },
];

/** The catalogue entry of a plan id, or undefined. */
export const planById = (planId: string): PlanDefinition | undefined =>
  PLAN_CATALOGUE.find((p) => p.planId === planId);

/** True when registering on the plan starts a trial without a card (docs/billing.md "Trials"). */
export const offersCardlessTrial = (planId: string): boolean => {
  const plan = planById(planId);
  return plan !== undefined && (plan.trialDays ?? 0) > 0 && !plan.cardUpFront;
};

/** The free plan (always there). */
export const freePlan = (): PlanDefinition => planById(FREE_PLAN_ID)!;

/** The Stripe price id of a plan (from `STRIPE_PRICES`), or undefined. */
export const priceIdOf = (planId: string): string | undefined => stripePrices()[planId];

/** The plan a Stripe price id stands for, or undefined for a price we do not sell. */
export function planOfPrice(priceId: string): PlanDefinition | undefined {
  const entry = Object.entries(stripePrices()).find(([, price]) => price === priceId);
  return entry ? planById(entry[0]) : undefined;
}

/** A plan as `GET /spark/plans` answers it (shared/billing.ts PlanSchema). */
export function planView(p: PlanDefinition, online = billingOnline()): PlanView {
  return {
    id: p.planId,
    name: p.name,
    price: p.price,
    interval: p.interval,
    type: p.type,
    active: p.active,
    attributes: { teams: p.teams, teamMembers: p.teamMembers },
    features: {
      can_export_pdf: p.can_export_pdf,
      can_upload_custom_fonts: p.can_upload_custom_fonts,
    },
    available: p.price === 0 || (online && priceIdOf(p.planId) !== undefined),
    ...(p.trialDays ? { trial_days: p.trialDays } : {}),
    card_up_front: p.cardUpFront,
  };
}

/** `GET /spark/plans`: the active plans, cheapest first (plan-freeze is never listed). */
export function listPlans(): PlanView[] {
  return PLAN_CATALOGUE.filter((p) => p.active)
    .map((p) => planView(p))
    .sort((a, b) => a.price - b.price || a.id.localeCompare(b.id));
}

/** Writes the catalogue (with price ids) to the Plan items: idempotent, a batch of puts. */
export async function writePlans(): Promise<void> {
  const prices = stripePrices();
  await db()
    .Plan.put(
      PLAN_CATALOGUE.map((p) => ({
        ...p,
        ...(prices[p.planId] ? { stripePriceId: prices[p.planId] } : {}),
      })),
    )
    .go();
}

let ensured: Promise<void> | undefined;

/** {@link writePlans} once per process (cold start); a failure is retried on the next call. */
export function ensurePlans(): Promise<void> {
  ensured ??= writePlans().catch((error: unknown) => {
    ensured = undefined;
    throw error;
  });
  return ensured;
}
