/**
 * The kiosk's performance indicators, daily snapshot and cancel reasons (docs/kiosk.md kiosk
 * indicators and cancel reasons, docs/kiosk.md "Kiosk", docs/accounts.md "Constants"; docs/kiosk.md
 * "Metrics and the daily snapshot", "Cancel reasons"), against the local stack with subscription
 * records stored as the Stripe webhooks store them. The answers are checked against the contract
 * (STAGE=test).
 *
 * @own-stack: counts subscribers and revenue over the whole table, which other files add to.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '#lib/db/index.ts';
import { runDailySnapshot } from '#functions/kiosk/snapshot.ts';
import { addDays, monthsBefore, utcDay } from '#functions/kiosk/snapshot-figures.ts';
import type { CancelReasons, Indicator } from '#shared/contract/kiosk.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });
const DAY_MS = 86_400_000;
let admin: TestClient;

/** A team with a subscription record on `planId` (what the webhook would have stored). */
async function subscribedTeam(
  teamId: string,
  planId: string,
  sub: {
    status: string;
    quantity?: number;
    endsAt?: string;
    trialEndsAt?: string;
    currentPeriodEnd?: string;
    cancelReason?: string;
    cancelDescription?: string;
  },
) {
  await db()
    .Team.create({ teamId, name: `Team ${teamId}`, slug: teamId, ownerId: 'user-demo', planId })
    .go();
  await db()
    .Subscription.put({
      teamId,
      name: 'default',
      stripeId: `sub_${teamId}`,
      stripeCustomerId: `cus_${teamId}`,
      stripeStatus: sub.status,
      stripePriceId: `price_${planId}`,
      planId,
      quantity: sub.quantity ?? 1,
      eventAt: Math.floor(Date.now() / 1000),
      ...(sub.endsAt ? { endsAt: sub.endsAt } : {}),
      ...(sub.trialEndsAt ? { trialEndsAt: sub.trialEndsAt } : {}),
      ...(sub.currentPeriodEnd ? { currentPeriodEnd: sub.currentPeriodEnd } : {}),
      ...(sub.cancelReason ? { cancelReason: sub.cancelReason } : {}),
      ...(sub.cancelDescription !== undefined ? { cancelDescription: sub.cancelDescription } : {}),
    })
    .go();
}

/** A user created at `createdAt` (the snapshot counts new users by their creation day). */
async function userCreatedAt(userId: string, createdAt: string) {
  await db()
    .User.create({
      userId,
      email: `${userId}@example.org`,
      name: 'New User',
      passwordHash: 'scrypt$unused',
      createdAt,
    })
    .go();
}

/**
 * The snapshot test's today: the 15th of the current month (UTC), so that a month before and
 * after any day of the test is the same day of the month; the clock is set to it (Date only:
 * timers run) so the route reads the same days the job wrote.
 */
const real = new Date();
const today = utcDay(new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), 15)));
const yesterday = addDays(today, -1);
/** After the real clock's now, and not a period end whose month-earlier start is `yesterday`. */
const future = `${addDays(today, 20)}T12:00:00.000Z`;

beforeAll(async () => {
  admin = new TestClient(stack().url);
  await admin.login('admin@example.com');
  // Recurring: 3 Starter seats (3 × $9) and one Pro yearly ($290 / 12).
  await subscribedTeam('t-starter', 'starter-monthly', {
    status: 'active',
    quantity: 3,
    currentPeriodEnd: future,
  });
  await subscribedTeam('t-pro-yearly', 'pro-yearly', {
    status: 'active',
    currentPeriodEnd: new Date(Date.now() + 200 * DAY_MS).toISOString(),
  });
  // On trial: live, no revenue yet.
  await subscribedTeam('t-trial', 'pro-monthly', { status: 'trialing', trialEndsAt: future });
  // Cancelled at the period end: still live, no longer recurring; with a comment.
  await subscribedTeam('t-leaving', 'starter-monthly', {
    status: 'active',
    endsAt: future,
    cancelReason: 'cost',
    cancelDescription: 'Too pricey for a team of two.',
  });
  // Ended, a reason without a comment.
  await subscribedTeam('t-gone', 'pro-monthly', {
    status: 'canceled',
    endsAt: new Date(Date.now() - DAY_MS).toISOString(),
    cancelReason: 'notUsingIt',
    cancelDescription: '',
  });
});

describe('performance indicators now (from the subscription records)', () => {
  it('answers the recurring revenue in total and per plan, in cents', async () => {
    const res = await admin.request('GET', '/spark/kiosk/performance-indicators/revenue');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    // 3 × 900 + 29000 / 12 = 2700 + 2416.67
    expect(res.json).toMatchObject({
      monthly_recurring_revenue: 5117,
      yearly_recurring_revenue: 5117 * 12,
    });
    const plans = res.json.plans as Array<{ id: string; monthly_recurring_revenue: number }>;
    expect(plans.map((p) => [p.id, p.monthly_recurring_revenue])).toEqual([
      ['starter-monthly', 2700],
      ['pro-yearly', 2417],
    ]);
  });

  it('counts subscribers per plan, the free plan by its teams', async () => {
    const res = await admin.request('GET', '/spark/kiosk/performance-indicators/plans');
    expect(res.status).toBe(200);
    const count = Object.fromEntries(
      (res.json as unknown as Array<{ id: string; subscribers: number }>).map((p) => [
        p.id,
        p.subscribers,
      ]),
    );
    // The trial and the team leaving at its period end still have their plan; the ended one not.
    expect(count).toMatchObject({
      'starter-monthly': 2,
      'pro-yearly': 1,
      'pro-monthly': 1,
      'starter-yearly': 0,
    });
    // The seed's admin team is on the free plan (the demo team is on Pro without a subscription).
    expect(count.free).toBeGreaterThanOrEqual(1);
  });

  it('counts the subscriptions on trial', async () => {
    const res = await admin.request('GET', '/spark/kiosk/performance-indicators/trialing');
    expect(res.json).toEqual({ trialing: 1 });
  });
});

describe('the daily snapshot across two days', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('backfills a new install, changes nothing on a second run the same day, adds the next day', async () => {
    // Two users joined the day before yesterday.
    const dayBefore = addDays(today, -2);
    await userCreatedAt('u-early-1', `${dayBefore}T08:00:00.000Z`);
    await userCreatedAt('u-early-2', `${dayBefore}T20:00:00.000Z`);

    const firstMorning = new Date(`${yesterday}T00:05:00.000Z`);
    const first = await runDailySnapshot(firstMorning);
    expect(first.day).toBe(dayBefore);
    // The day itself and 31 days before it, none there before.
    expect(first.written).toHaveLength(32);
    expect(first.written.at(-1)).toBe(dayBefore);

    // Same day again (later that day): nothing changes.
    const again = await runDailySnapshot(new Date(`${yesterday}T18:00:00.000Z`));
    expect(again).toEqual({ day: dayBefore, written: [] });

    // Before the next day's run, a team subscribed to Pro monthly during that day: its first
    // period began yesterday and ends a month later.
    await subscribedTeam('t-new-pro', 'pro-monthly', {
      status: 'active',
      currentPeriodEnd: `${monthsBefore(yesterday, -1)}T10:00:00.000Z`,
    });
    const second = await runDailySnapshot(new Date(`${today}T00:05:00.000Z`));
    expect(second).toEqual({ day: yesterday, written: [yesterday] });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${today}T09:00:00.000Z`));
    const res = await admin.request('GET', '/spark/kiosk/performance-indicators');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const indicators = res.json.indicators as Indicator[];
    expect(indicators).toHaveLength(30);
    expect(indicators.at(-1)).toMatchObject({
      day: yesterday,
      monthly_recurring_revenue: 5117 + 2900,
      yearly_recurring_revenue: (5117 + 2900) * 12,
      daily_volume: 2900,
      backfilled: false,
    });
    expect(indicators.at(-2)).toMatchObject({
      day: dayBefore,
      monthly_recurring_revenue: 5117,
      new_users: 2,
      backfilled: false,
    });
    // Days filled in afterwards do not pretend to know the recurring revenue.
    expect(indicators[0]).toMatchObject({ backfilled: true, monthly_recurring_revenue: null });
    // The comparison snapshots: one month before the newest was backfilled, a year ago none.
    expect(res.json.last_month).toMatchObject({
      day: monthsBefore(yesterday, 1),
      backfilled: true,
    });
    expect(res.json.last_year).toBeNull();
  });
});

describe('cancel reasons', () => {
  it('counts every reason and lists the comments, newest first', async () => {
    await subscribedTeam('t-later', 'pro-monthly', {
      status: 'active',
      endsAt: future,
      cancelReason: 'missingFunctionality',
      cancelDescription: '  We need PDF exports in A3.  ',
    });
    const res = await admin.request('GET', '/spark/cancelReasons');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const answer = res.json as unknown as CancelReasons;
    expect(answer.reasons).toEqual([
      { reason: 'cost', count: 1 },
      { reason: 'difficultyOfUse', count: 0 },
      { reason: 'missingFunctionality', count: 1 },
      { reason: 'usingOtherProduct', count: 0 },
      { reason: 'notUsingIt', count: 1 },
      { reason: 'somethingElse', count: 0 },
    ]);
    expect(answer.comments.map((c) => [c.reason, c.description, c.team?.name])).toEqual([
      ['missingFunctionality', 'We need PDF exports in A3.', 'Team t-later'],
      ['cost', 'Too pricey for a team of two.', 'Team t-leaving'],
    ]);
  });

  it('is for platform admins only', async () => {
    const owner = new TestClient(stack().url);
    await owner.login('demo@example.com');
    expect((await owner.request('GET', '/spark/cancelReasons')).status).toBe(403);
    expect((await owner.request('GET', '/spark/kiosk/performance-indicators')).status).toBe(403);
  });
});
