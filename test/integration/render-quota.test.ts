/**
 * The monthly render quota (docs/security.md "Render limits"; functions/render/usage.ts,
 * quota.ts): draws counted per team and month without a write per request, the owner told at
 * 80 % and 100 % once each (in-app and e-mail), the fallback past the quota cached 5 minutes,
 * and cache hits still served. The counting rules run with fakes first, then the real handler
 * on the local stack (DynamoDB Local, the outbox, Chromium).
 */
import { describe, expect, it, vi } from 'vitest';
import { FREE_RENDER_ALLOWANCE, renderAllowanceOf } from '#shared/billing.ts';
import {
  RenderUsage,
  monthOf,
  type QuotaNotifier,
  type QuotaThreshold,
  type UsageStore,
} from '#functions/render/usage.ts';
import { QUOTA_FALLBACK_CACHE } from '#functions/render/answer.ts';
import { putDesign } from '../support/render-designs.ts';
import { useLocalStack } from '../support/stack.ts';

/** A store in memory with DynamoDB's semantics: atomic adds, conditional claims. */
function memoryStore() {
  const totals = new Map<string, number>();
  const claimed = new Set<string>();
  const calls = { read: 0, add: 0 };
  const store: UsageStore = {
    async read(teamId, month) {
      calls.read += 1;
      return totals.get(`${teamId}:${month}`) ?? 0;
    },
    async add(teamId, month, n) {
      calls.add += 1;
      const key = `${teamId}:${month}`;
      totals.set(key, (totals.get(key) ?? 0) + n);
      return totals.get(key)!;
    },
    async claimNotice(teamId, month, threshold) {
      const key = `${teamId}:${month}:${threshold}`;
      if (claimed.has(key)) return false;
      claimed.add(key);
      return true;
    },
  };
  return { store, totals, calls };
}

describe('RenderUsage (the counting rules)', () => {
  it('writes one add per team per flush, reads once per TTL, and says when the quota is used', async () => {
    const { store, totals, calls } = memoryStore();
    const usage = new RenderUsage(store, async () => undefined, { maxPending: 1000 });
    for (let i = 0; i < 50; i++) {
      expect(await usage.isOver('t1', 60)).toBe(false);
      usage.countDraw('t1', 60);
    }
    expect(calls).toEqual({ read: 1, add: 0 });
    await usage.flush();
    expect(calls.add).toBe(1);
    expect(totals.get(`t1:${monthOf(Date.now())}`)).toBe(50);
    for (let i = 0; i < 10; i++) usage.countDraw('t1', 60);
    expect(await usage.isOver('t1', 60)).toBe(true);
  });

  it('tells each threshold once a month across concurrent containers', async () => {
    const { store } = memoryStore();
    const told: Array<[string, QuotaThreshold]> = [];
    const notifier: QuotaNotifier = async ({ teamId, threshold }) => {
      told.push([teamId, threshold]);
    };
    const containers = [1, 2, 3].map(() => new RenderUsage(store, notifier, { maxPending: 1e6 }));
    // Three containers draw 4 each per round; 10 renders a month: 80 % at 8, 100 % at 10.
    for (let round = 0; round < 3; round++) {
      for (const c of containers) {
        for (let i = 0; i < 4; i++) c.countDraw('t1', 10);
      }
      await Promise.all(containers.map((c) => c.flush()));
    }
    expect(told.sort(([, a], [, b]) => a - b)).toEqual([
      ['t1', 80],
      ['t1', 100],
    ]);
  });

  it('lets draws through when the store fails, and a failing notice never throws', async () => {
    const { store } = memoryStore();
    const broken: UsageStore = {
      ...store,
      read: () => Promise.reject(new Error('throttled')),
    };
    const usage = new RenderUsage(broken, () => Promise.reject(new Error('SES down')), {
      maxPending: 1e6,
    });
    expect(await usage.isOver('t1', 1)).toBe(false);
    usage.countDraw('t1', 1);
    await expect(usage.flush()).resolves.toBeUndefined();
    // The flush's answer is believed: the team is at its quota now.
    expect(await usage.isOver('t1', 1)).toBe(true);
  });

  it('keeps at most maxTeams teams, dropping idle ones', async () => {
    const { store } = memoryStore();
    const usage = new RenderUsage(store, async () => undefined, { maxTeams: 100 });
    for (let i = 0; i < 1000; i++) await usage.isOver(`team${i}`, 10);
    expect((usage as unknown as { teams: Map<string, unknown> }).teams.size).toBeLessThanOrEqual(
      100,
    );
  });

  it('gives each plan its allowance and unknown plans the free one', () => {
    expect(renderAllowanceOf('free').rendersPerMonth).toBe(10_000);
    expect(renderAllowanceOf('pro-monthly').rendersPerMonth).toBe(1_000_000);
    expect(renderAllowanceOf('constructor')).toBe(FREE_RENDER_ALLOWANCE);
    expect(renderAllowanceOf(undefined)).toBe(FREE_RENDER_ALLOWANCE);
  });
});

describe('the monthly quota through the render handler', () => {
  const stack = useLocalStack();
  // The seed's free-plan team (Platform Admins), owned by admin@example.com.
  const TEAM = 'team-admin';
  const OWNER = 'user-admin';

  async function setUsage(renders: number) {
    const { db } = await import('#lib/db/index.ts');
    const { forgetRenderTeams, flushRenderUsage } = await import('#functions/render/handler.ts');
    await flushRenderUsage();
    await db()
      .TeamRenderUsage.upsert({ usageTeam: TEAM, month: monthOf(Date.now()), renders })
      .go();
    forgetRenderTeams();
  }

  async function quotaNotices() {
    const { db } = await import('#lib/db/index.ts');
    const { data } = await db().Notification.query.byUser({ userId: OWNER }).go({ pages: 'all' });
    return data.filter((n) => n.kind === 'render-quota').map((n) => n.body);
  }

  async function quotaMails() {
    const { readOutbox } = await import('#lib/mailer.ts');
    return (await readOutbox())
      .filter((m) => m.to === 'admin@example.com' && /renders for/.test(m.subject))
      .map((m) => m.subject);
  }

  const render = async (name: string) => {
    const res = await fetch(`${stack().url}/r/quota-design.jpg?first_name=${name}`);
    await res.arrayBuffer();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cacheControl: res.headers.get('cache-control'),
      hit: res.headers.get('x-render-cache'),
    };
  };

  it('tells the owner at 80 % and 100 % once each, then answers the fallback for 5 minutes', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { flushRenderUsage } = await import('#functions/render/handler.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    await putDesign('quota-design', TEAM, demo.document);
    const quota = FREE_RENDER_ALLOWANCE.rendersPerMonth;

    // One draw short of 80 %: the draw that reaches it tells the owner, the next does not.
    await setUsage(quota * 0.8 - 1);
    expect(await render('Ana')).toMatchObject({ status: 200, hit: 'miss' });
    await flushRenderUsage();
    expect(await render('Ben')).toMatchObject({ status: 200, hit: 'miss' });
    await flushRenderUsage();
    await vi.waitFor(async () => expect(await quotaMails()).toHaveLength(1), { timeout: 10_000 });
    expect(await quotaNotices()).toEqual([
      `Platform Admins has used 80% of its ${quota.toLocaleString('en-US')} renders this month.`,
    ]);

    // One draw short of the quota: that draw is served and tells the owner once more.
    await setUsage(quota - 1);
    expect(await render('Cleo')).toMatchObject({ status: 200, hit: 'miss' });
    await flushRenderUsage();
    await vi.waitFor(async () => expect(await quotaMails()).toHaveLength(2), { timeout: 10_000 });
    expect(await quotaNotices()).toHaveLength(2);
    expect(await quotaMails()).toContainEqual(expect.stringMatching(/has used all its renders/));

    // Over the quota: a new draw gets the design's fallback, cached briefly (never no-store).
    const over = await render('Dora');
    expect(over).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(over.cacheControl).toBe(QUOTA_FALLBACK_CACHE);
    // What is already drawn is still served: cache hits cost nothing.
    expect(await render('Ana')).toMatchObject({ status: 200, hit: 'memory' });
    // Nothing more was counted, and nobody was told again.
    await flushRenderUsage();
    const record = (
      await db()
        .TeamRenderUsage.get({ usageTeam: TEAM, month: monthOf(Date.now()) })
        .go()
    ).data!;
    expect(record.renders).toBe(quota);
    expect(record.told80At).toBeTruthy();
    expect(record.told100At).toBeTruthy();
    expect(await quotaNotices()).toHaveLength(2);
  });
});
