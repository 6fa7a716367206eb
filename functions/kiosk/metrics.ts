/**
 * The kiosk's performance indicators (docs/kiosk.md kiosk indicators, docs/kiosk.md "Kiosk",
 * docs/accounts.md "Constants" charts; docs/kiosk.md "Metrics and the daily snapshot"). The history
 * comes from the daily snapshots (functions/kiosk/snapshot.ts); today's revenue, plans and trials
 * are computed from the local subscription records at the time of the call. Nothing here calls
 * Stripe.
 */
import {
  REVENUE_CHART_DAYS,
  type Indicator,
  type PerformanceIndicators,
  type PlanFigure,
} from '#shared/contract/kiosk.ts';
import type { EntityItem } from 'electrodb';
import { db } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import {
  addDays,
  monthlyRecurringRevenue,
  monthsBefore,
  revenueByPlan,
  utcDay,
  type SnapshotRecords,
} from './snapshot-figures.ts';
import { readSnapshotRecords } from './snapshot.ts';

type SnapshotItem = EntityItem<Entities['KioskSnapshot']>;

/** A snapshot item as the API answers it (`IndicatorSchema`). */
function indicator(item: SnapshotItem): Indicator {
  return {
    day: item.day,
    monthly_recurring_revenue: item.monthlyRecurringRevenue ?? null,
    yearly_recurring_revenue: item.yearlyRecurringRevenue ?? null,
    daily_volume: item.dailyVolume,
    new_users: item.newUsers,
    backfilled: item.backfilled,
    created_at: item.createdAt ?? '',
  };
}

/** The snapshot of one day, or null. */
async function snapshotOf(day: string): Promise<Indicator | null> {
  const { data } = await db().KioskSnapshot.get({ scope: 'daily', day }).go();
  return data ? indicator(data) : null;
}

/**
 * The last {@link REVENUE_CHART_DAYS} days of snapshots up to yesterday (UTC), oldest first,
 * and the snapshots one calendar month and one year before the newest of them.
 */
export async function performanceIndicators(
  now: Date = new Date(),
): Promise<PerformanceIndicators> {
  const last = addDays(utcDay(now), -1);
  const { data } = await db()
    .KioskSnapshot.query.byDay({ scope: 'daily' })
    .between({ day: addDays(last, -(REVENUE_CHART_DAYS - 1)) }, { day: last })
    .go({ pages: 'all' });
  const indicators = data.map(indicator).sort((a, b) => a.day.localeCompare(b.day));
  const newest = indicators.at(-1)?.day;
  if (!newest) return { indicators, last_month: null, last_year: null };
  const [lastMonth, lastYear] = await Promise.all([
    snapshotOf(monthsBefore(newest, 1)),
    snapshotOf(monthsBefore(newest, 12)),
  ]);
  return { indicators, last_month: lastMonth, last_year: lastYear };
}

/** Every plan of the records with its live subscriptions and monthly revenue at `now`. */
function planFigures(records: SnapshotRecords, now: Date): PlanFigure[] {
  return revenueByPlan(records, now).map(({ plan, subscribers, monthlyRecurringRevenue }) => ({
    id: plan.planId,
    name: plan.name,
    interval: plan.interval,
    price: plan.price,
    subscribers,
    monthly_recurring_revenue: monthlyRecurringRevenue,
  }));
}

/**
 * The free plan has no subscriptions: its subscribers are the teams on it (Team `planId`).
 * Other plans keep their count of live subscriptions.
 */
async function withFreeTeams(plans: PlanFigure[]): Promise<PlanFigure[]> {
  const free = plans.filter((p) => p.price === 0);
  if (free.length === 0) return plans;
  const teams = (await db().Team.scan.go({ pages: 'all', attributes: ['planId'] })).data;
  return plans.map((p) =>
    p.price === 0 ? { ...p, subscribers: teams.filter((t) => t.planId === p.id).length } : p,
  );
}

/** These routes, by route key. */
export const METRICS_ROUTES: Record<string, RouteDefinition> = {
  'GET /spark/kiosk/performance-indicators': route({
    handle: async () => json(200, await performanceIndicators()),
  }),

  /** Recurring revenue now, in total and per plan (cents). */
  'GET /spark/kiosk/performance-indicators/revenue': route({
    handle: async () => {
      const records = await readSnapshotRecords();
      const plans = planFigures(records, new Date());
      // The total is rounded once (as the snapshots' is), not summed from rounded plans.
      const monthly = monthlyRecurringRevenue(records);
      return json(200, {
        monthly_recurring_revenue: monthly,
        yearly_recurring_revenue: monthly * 12,
        plans: plans.filter((p) => p.monthly_recurring_revenue > 0),
      });
    },
  }),

  /** Subscribers per plan now. */
  'GET /spark/kiosk/performance-indicators/plans': route({
    handle: async () =>
      json(200, await withFreeTeams(planFigures(await readSnapshotRecords(), new Date()))),
  }),

  /** Subscriptions in their trial now. */
  'GET /spark/kiosk/performance-indicators/trialing': route({
    handle: async () => {
      const now = Date.now();
      const subs = (await db().Subscription.scan.go({ pages: 'all' })).data;
      const trialing = subs.filter(
        (s) => s.stripeStatus === 'trialing' && (!s.trialEndsAt || Date.parse(s.trialEndsAt) > now),
      ).length;
      return json(200, { trialing });
    },
  }),
};
