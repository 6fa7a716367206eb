/**
 * The kiosk's performance indicators, computed from the local records (docs/kiosk.md kiosk
 * indicators, docs/accounts.md "Constants"; docs/kiosk.md "Metrics and the daily snapshot"): the
 * Subscription items (kept true by the Stripe webhooks), the Plan items and the users' creation
 * times. Never a call to Stripe. Pure functions over plain records, so the unit tests give them a
 * fixed clock (test/unit/kiosk-snapshot.test.ts).
 *
 * Days are UTC days written `YYYY-MM-DD`; amounts are US cents.
 */

/** What the figures read of a subscription (functions/lib/db/entities.ts Subscription). */
export interface SubscriptionFacts {
  planId: string;
  /** Stripe's status: active, trialing, past_due, canceled, … */
  stripeStatus: string;
  /** Seats. */
  quantity: number;
  /** ISO 8601: set once cancelled (it ends then). */
  endsAt?: string | undefined;
  /** ISO 8601: the end of the period paid for. */
  currentPeriodEnd?: string | undefined;
}

/** What the figures read of a plan. */
export interface PlanFacts {
  planId: string;
  name: string;
  /** Cents per interval. */
  price: number;
  interval: 'monthly' | 'yearly';
}

/** The records one snapshot run reads. */
export interface SnapshotRecords {
  /** ISO 8601 creation time of every user. */
  userCreatedAt: readonly string[];
  subscriptions: readonly SubscriptionFacts[];
  plans: readonly PlanFacts[];
}

/** One day's figures, as the KioskSnapshot item stores them. */
export interface DayFigures {
  day: string;
  /** Cents per month; undefined on a backfilled day. */
  monthlyRecurringRevenue?: number;
  /** Cents per year; undefined on a backfilled day. */
  yearlyRecurringRevenue?: number;
  dailyVolume: number;
  newUsers: number;
  backfilled: boolean;
}

/**
 * How many days before the snapshot's day a run fills in when they have no snapshot (a new
 * install, a missed run): enough for the 30-day charts and for the day one calendar month
 * before the newest (at most 31 days; docs/accounts.md "Constants").
 */
export const BACKFILL_DAYS = 31;

const DAY_MS = 86_400_000;

/** The UTC day of an instant: `2026-03-05`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `day` moved by `n` days (negative: earlier). */
export function addDays(day: string, n: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/**
 * The same day `months` calendar months earlier, clamped to the end of a shorter month
 * (`2026-03-31` one month back is `2026-02-28`; a year back from `2024-02-29` is `2023-02-28`).
 */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = index - year * 12; // 0-based
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return utcDay(new Date(Date.UTC(year, month, Math.min(d, last))));
}

/**
 * True when a subscription brings recurring revenue: paying (`active`, or `past_due` while
 * Stripe retries) and not cancelled (no `endsAt`: it will not renew). Trials bring none yet.
 */
export function isRecurring(sub: SubscriptionFacts): boolean {
  return (sub.stripeStatus === 'active' || sub.stripeStatus === 'past_due') && !sub.endsAt;
}

/** Cents per month of one subscription on `plan` (a yearly price spread over 12 months). */
export function monthlyValue(sub: SubscriptionFacts, plan: PlanFacts): number {
  const perInterval = plan.price * Math.max(1, sub.quantity);
  return plan.interval === 'yearly' ? perInterval / 12 : perInterval;
}

/** A plan's live subscriptions and the monthly revenue they bring (cents, rounded). */
export interface PlanRevenue {
  plan: PlanFacts;
  /** Subscriptions that are not over: active, trialing, past due, or cancelled but not ended. */
  subscribers: number;
  monthlyRecurringRevenue: number;
}

/** True while a subscription is not over (the team still has the plan). */
function isLive(sub: SubscriptionFacts, at: Date): boolean {
  if (!['active', 'trialing', 'past_due'].includes(sub.stripeStatus)) return false;
  return !sub.endsAt || Date.parse(sub.endsAt) > at.getTime();
}

/**
 * Per plan (in the plans' order): live subscriptions and monthly recurring revenue at `at`.
 * Subscriptions on a plan the records do not have are left out.
 */
export function revenueByPlan(records: SnapshotRecords, at: Date): PlanRevenue[] {
  return records.plans.map((plan) => {
    const subs = records.subscriptions.filter((s) => s.planId === plan.planId);
    const monthly = subs.filter(isRecurring).reduce((sum, sub) => sum + monthlyValue(sub, plan), 0);
    return {
      plan,
      subscribers: subs.filter((s) => isLive(s, at)).length,
      monthlyRecurringRevenue: Math.round(monthly),
    };
  });
}

/** The monthly recurring revenue of all plans, cents (rounded once, after the sum). */
export function monthlyRecurringRevenue(records: SnapshotRecords): number {
  const plans = new Map(records.plans.map((p) => [p.planId, p]));
  let total = 0;
  for (const sub of records.subscriptions) {
    const plan = plans.get(sub.planId);
    if (plan && isRecurring(sub)) total += monthlyValue(sub, plan);
  }
  return Math.round(total);
}

/**
 * The start of a subscription's current period: its end less one interval of its plan.
 * Undefined without a period end.
 */
function periodStart(sub: SubscriptionFacts, plan: PlanFacts): string | undefined {
  if (!sub.currentPeriodEnd || !Number.isFinite(Date.parse(sub.currentPeriodEnd))) return undefined;
  const end = utcDay(new Date(sub.currentPeriodEnd));
  return monthsBefore(end, plan.interval === 'yearly' ? 12 : 1);
}

/**
 * Daily volume (docs/kiosk.md `daily_volume`): the cents charged on `day` by
 * subscription renewals, read from the records, at list price × seats: each active paid
 * subscription whose current period began that day. Taxes, proration and discounts are not in
 * the records and are left out; a renewal before the current period is no longer known.
 */
export function dailyVolume(records: SnapshotRecords, day: string): number {
  const plans = new Map(records.plans.map((p) => [p.planId, p]));
  let total = 0;
  for (const sub of records.subscriptions) {
    const plan = plans.get(sub.planId);
    if (!plan || plan.price <= 0 || sub.stripeStatus !== 'active') continue;
    if (periodStart(sub, plan) === day) total += plan.price * Math.max(1, sub.quantity);
  }
  return total;
}

/** Accounts created on `day`. */
export function newUsers(records: SnapshotRecords, day: string): number {
  return records.userCreatedAt.filter((at) => at.slice(0, 10) === day).length;
}

/**
 * What one run of the daily job writes (docs/kiosk.md "Metrics and the daily snapshot"): the
 * snapshot of the day that ended last (`now`'s UTC day less one), with the recurring revenue
 * as the records say now, unless `existing` has it; and each of the {@link BACKFILL_DAYS} days
 * before it that has no snapshot, backfilled with what the records still tell (new users,
 * renewals) and no recurring revenue.
 * @param existing the days that already have a snapshot.
 * @returns the snapshots to create, oldest first; empty when every day has one.
 */
export function plannedSnapshots(
  records: SnapshotRecords,
  existing: ReadonlySet<string>,
  now: Date,
): DayFigures[] {
  const day = addDays(utcDay(now), -1);
  const out: DayFigures[] = [];
  for (let back = BACKFILL_DAYS; back >= 1; back--) {
    const past = addDays(day, -back);
    if (existing.has(past)) continue;
    out.push({
      day: past,
      dailyVolume: dailyVolume(records, past),
      newUsers: newUsers(records, past),
      backfilled: true,
    });
  }
  if (!existing.has(day)) {
    const monthly = monthlyRecurringRevenue(records);
    out.push({
      day,
      monthlyRecurringRevenue: monthly,
      yearlyRecurringRevenue: monthly * 12,
      dailyVolume: dailyVolume(records, day),
      newUsers: newUsers(records, day),
      backfilled: false,
    });
  }
  return out;
}
