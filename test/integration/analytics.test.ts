/**
 * Campaign analytics counted at the CDN (docs/analytics.md): renders and clicks through the local
 * gateway, which logs each answer as CloudFront would (a repeat a CDN would keep is a hit), rolled
 * up by DuckDB with the roll-up code AWS runs, and read back through the design's analytics
 * report: opens, mail-proxy fetches, clicks, CDN hits, distinct recipients, devices, clients and
 * countries. The product's own previews are not counted; another team's user gets a 404.
 */
import { describe, expect, it } from 'vitest';
import { rollUpLocalAnalytics } from '#infra/local/analytics.ts';
import { VIEWER_COUNTRY_HEADER } from '#functions/render/rule-context.ts';
import { TEST_NOW_HEADER } from '#functions/render/countdown-gif.ts';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('campaign analytics', () => {
  it('counts every open, proxy fetch and click of a design, CDN hits included, by device, client and country', async () => {
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const linked = await owner.request('PUT', `/api/pic-snippet/${design.designId}/link`, {
      version: 1,
      html_link_url: 'https://shop.example/offer',
    });
    expect(linked.status, JSON.stringify(linked.json)).toBe(200);

    const get = async (path: string, agent: string, country?: string) => {
      const res = await fetch(`${base}${path}`, {
        headers: {
          'user-agent': agent,
          ...(country ? { [VIEWER_COUNTRY_HEADER]: country } : {}),
        },
        redirect: 'manual',
      });
      await res.arrayBuffer();
      return res.status;
    };
    // Ana opens twice on her phone (the second a CDN would answer from its cache), Ben's
    // Gmail fetches through Google's proxy, Cy opens on a desktop; Ana clicks through.
    expect(await get(`${design.render}?first_name=Ana`, IPHONE, 'fr')).toBe(200);
    expect(await get(`${design.render}?first_name=Ana`, IPHONE, 'FR')).toBe(200);
    expect(await get(`${design.render}?first_name=Ben`, GMAIL, 'US')).toBe(200);
    expect(await get(`${design.render}?first_name=Cy`, DESKTOP)).toBe(200);
    expect(await get(`/l/${design.publicId}?first_name=Ana`, IPHONE, 'FR')).toBe(302);
    // The product's own preview is not a recipient's open.
    expect(await get(`${design.render}?first_name=Dee&__preview=1`, DESKTOP, 'DE')).toBe(200);

    // A design whose document cannot be read (another file's, on a shared stack) is rendered
    // as the fallback and logged: the roll-up still counts it and goes on with the others.
    const { db } = await import('#lib/db/index.ts');
    const brokenId = `broken-${design.publicId}`;
    await db()
      .Design.put({
        designId: `design-${brokenId}`,
        teamId: await currentTeamId(owner),
        publicId: brokenId,
        title: 'Broken',
        version: 1,
        document: { text_snippets: 'not a list' },
      })
      .go();
    await get(`/r/${brokenId}?first_name=Zed`, DESKTOP);

    await rollUpLocalAnalytics();
    const today = new Date().toISOString().slice(0, 10);
    const report = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}`,
    );
    expect(report.status, JSON.stringify(report.json)).toBe(200);
    expect(report.json.totals).toEqual({
      opens: 3,
      proxy_fetches: 1,
      impressions: 4,
      clicks: 1,
      click_through_rate: 0.25,
      cdn_hit_ratio: 0.2,
      recipients: 3,
    });
    expect(report.json.devices).toMatchObject({ mobile: 2, desktop: 1, unknown: 1, tablet: 0 });
    expect(report.json.clients).toMatchObject({ gmail: 1, other: 3 });
    expect(report.json.countries).toEqual({ FR: 2, US: 1, unknown: 1 });
    expect(report.json.series).toEqual([
      {
        period: today,
        opens: 3,
        proxy_fetches: 1,
        clicks: 1,
        cdn_hits: 1,
        recipients: 3,
      },
    ]);
    expect(report.json.rolled_up_at).toEqual(expect.any(String));

    // By the hour: the same counts, in the hours they fell in (a test may cross an hour).
    const hourly = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}&granularity=hour`,
    );
    expect(hourly.status).toBe(200);
    const points = hourly.json.series as Array<{ period: string; opens: number }>;
    expect(points.map((p) => p.period.slice(0, 10))).toEqual(points.map(() => today));
    expect(points.reduce((sum, p) => sum + p.opens, 0)).toBe(3);

    // Rolled up again, the same figures: the roll-up rewrites its items.
    await rollUpLocalAnalytics();
    const again = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}`,
    );
    expect(again.json.totals).toEqual(report.json.totals);
  });

  // docs/analytics.md "Variants": the render's own answer (`x-render-rule`) is the truth the
  // roll-up's replay of the rules on the logged request must agree with.
  it('attributes every open and click of a rules design to the variant the render showed', async () => {
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics-variants'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
      version: 1,
      html_link_url: 'https://shop.example/offer',
      rules: [
        { id: 'fr', name: 'France', conditions: [{ kind: 'country', countries: ['FR'] }] },
        { id: 'half', name: 'Half', conditions: [{ kind: 'split', from: 0, to: 50 }] },
      ],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const shown = new Map<string, { impressions: number; clicks: number }>();
    const count = (key: string, field: 'impressions' | 'clicks') => {
      const id = key.replace(/^rule:/, '');
      const entry = shown.get(id) ?? { impressions: 0, clicks: 0 };
      entry[field] += 1;
      shown.set(id, entry);
    };
    const viewers = ['Ana', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ida', 'Jo'].map(
      (name, i) => ({ name, country: i % 3 === 0 ? 'FR' : 'US' }),
    );
    for (const { name, country } of viewers) {
      const res = await fetch(`${base}${design.render}?first_name=${name}`, {
        headers: { 'user-agent': IPHONE, [VIEWER_COUNTRY_HEADER]: country },
      });
      await res.arrayBuffer();
      count(res.headers.get('x-render-rule') ?? 'default', 'impressions');
    }
    // The first four click through; a click is the variant its image showed.
    for (const { name, country } of viewers.slice(0, 4)) {
      const image = await fetch(`${base}${design.render}?first_name=${name}`, {
        headers: { 'user-agent': IPHONE, [VIEWER_COUNTRY_HEADER]: country },
      });
      await image.arrayBuffer();
      count(image.headers.get('x-render-rule') ?? 'default', 'impressions');
      const click = await fetch(`${base}/l/${design.publicId}?first_name=${name}`, {
        headers: { 'user-agent': IPHONE, [VIEWER_COUNTRY_HEADER]: country },
        redirect: 'manual',
      });
      expect(click.status).toBe(302);
      count(image.headers.get('x-render-rule') ?? 'default', 'clicks');
    }
    expect(shown.size, 'the split and the country rule both showed').toBeGreaterThan(1);

    await rollUpLocalAnalytics();
    const today = new Date().toISOString().slice(0, 10);
    const report = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}`,
    );
    const variants = report.json.variants as Array<{
      id: string;
      name: string;
      impressions: number;
      clicks: number;
    }>;
    expect(variants.map((v) => v.name)).toEqual(['France', 'Half', 'Default']);
    // Too few impressions for the optimiser to name a leader (docs/optimiser.md).
    expect(report.json.optimiser).toMatchObject({
      collecting: true,
      min_impressions: 100,
      winner: null,
    });
    for (const v of variants)
      expect({ id: v.id, impressions: v.impressions, clicks: v.clicks }).toEqual({
        id: v.id,
        ...(shown.get(v.id) ?? { impressions: 0, clicks: 0 }),
      });
  });

  // docs/analytics.md "Fallbacks": counted by the render function, where they are made.
  it('counts the fallbacks a design served past the team’s monthly quota', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { monthOf } = await import('#functions/render/usage.ts');
    const { forgetRenderTeams, flushRenderUsage, flushFallbackCounts } =
      await import('#functions/render/handler.ts');
    const { FREE_RENDER_ALLOWANCE } = await import('#shared/billing.ts');
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics-fallbacks'));
    const teamId = await currentTeamId(owner);
    const design = await demoDesignCopyIn(teamId);
    await flushRenderUsage();
    await db()
      .TeamRenderUsage.upsert({
        usageTeam: teamId,
        month: monthOf(Date.now()),
        renders: FREE_RENDER_ALLOWANCE.rendersPerMonth,
      })
      .go();
    forgetRenderTeams();
    for (const name of ['Ana', 'Ben']) {
      const res = await fetch(`${base}${design.render}?first_name=${name}`);
      await res.arrayBuffer();
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    }
    await flushFallbackCounts();
    const today = new Date().toISOString().slice(0, 10);
    const report = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}`,
    );
    expect(report.json.fallbacks).toEqual({
      refused: 0,
      rate_limited: 0,
      over_quota: 2,
      failed: 0,
    });
  });

  it('answers 404 for another team’s design and a field error for a bad range', async () => {
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics-owner'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const stranger = await ownTeam(base, uniqueEmail('analytics-stranger'));
    const path = `/api/pic-snippet/${design.designId}/analytics`;
    expect((await stranger.request('GET', `${path}?from=2026-01-01&to=2026-01-02`)).status).toBe(
      404,
    );
    const backwards = await owner.request('GET', `${path}?from=2026-02-01&to=2026-01-01`);
    expect(backwards.status).toBe(422);
    expect(backwards.json.errors).toEqual({
      to: ['The range must end on or after its start.'],
    });
    // Not a calendar day: a field error, never a 500 (seen in the fuzz suite).
    for (const query of ['to=2026-13-45', 'from=2026-02-30&to=2026-03-01', 'to=0000-00-00']) {
      const bad = await owner.request('GET', `${path}?${query}`);
      expect(bad.status, query).toBe(422);
    }
    const tooLong = await owner.request(
      'GET',
      `${path}?from=2026-01-01&to=2026-01-31&granularity=hour`,
    );
    expect(tooLong.status).toBe(422);
    // Without a range: the 30 days up to today.
    const recent = await owner.request('GET', path);
    expect(recent.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(recent.json.to).toBe(today);
    expect((Date.parse(today) - Date.parse(recent.json.from as string)) / 86_400_000).toBe(29);
    // A design with nothing counted yet: an empty report, not an error.
    const empty = await owner.request('GET', `${path}?from=2026-01-01&to=2026-01-02`);
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({
      series: [],
      totals: { impressions: 0, click_through_rate: null, cdn_hit_ratio: null },
      rolled_up_at: null,
    });
  });

  // docs/optimiser.md "In the product": the roll-up reweighs an optimised split from the counts
  // it just wrote, and the render and its link follow the new assignment.
  it('shifts an optimised split’s traffic to the rule that is clicked, and keeps its recipients', async () => {
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics-optimiser'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
      version: 1,
      rules: [
        {
          id: 'calm',
          name: 'Calm',
          conditions: [{ kind: 'split', from: 0, to: 50 }],
          link_url: 'https://shop.example/calm',
        },
        {
          id: 'bold',
          name: 'Bold',
          conditions: [{ kind: 'split', from: 50, to: 100 }],
          link_url: 'https://shop.example/bold',
        },
      ],
      split_optimiser: { min_sample_per_variant: 5, exploration_floor: 0.1 },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    let headers: Record<string, string> = { 'user-agent': IPHONE, [VIEWER_COUNTRY_HEADER]: 'US' };
    const open = async (name: string) => {
      const res = await fetch(`${base}${design.render}?first_name=${name}`, { headers });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      return res.headers.get('x-render-rule');
    };
    const click = async (name: string) => {
      const res = await fetch(`${base}/l/${design.publicId}?first_name=${name}`, {
        headers,
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      return res.headers.get('location');
    };

    // Before any reweigh the split is equal; everyone shown Bold clicks, no one shown Calm does.
    const first = Array.from({ length: 24 }, (_, i) => `first${i}`);
    const shown = new Map<string, string | null>();
    for (const name of first) shown.set(name, await open(name));
    const bold = first.filter((name) => shown.get(name) === 'rule:bold');
    const calm = first.filter((name) => shown.get(name) === 'rule:calm');
    expect(bold.length).toBeGreaterThanOrEqual(5);
    expect(calm.length).toBeGreaterThanOrEqual(5);
    for (const name of bold) expect(await click(name)).toBe('https://shop.example/bold');

    await rollUpLocalAnalytics(Date.now(), { reweighEveryMs: 0 });
    const { db } = await import('#lib/db/index.ts');
    const split = (await db().DesignSplit.get({ analyticsDesign: design.designId }).go()).data!;
    expect(split.collecting).toBe(false);
    const weights = split.weights as Array<{ id: string; weight: number; shown: number }>;
    expect(weights.map((w) => [w.id, w.shown])).toEqual([
      ['calm', calm.length],
      ['bold', bold.length],
    ]);
    expect(weights[1]!.weight).toBeGreaterThan(0.85);

    // The assignment is in effect from the next whole minute (the test stage's clock header
    // moves there), and the render reads it with the design (a second's cache).
    const tables = split.tables as Array<{ from_ms: number }>;
    headers = { ...headers, [TEST_NOW_HEADER]: String(tables.at(-1)!.from_ms + 1000) };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // New recipients land on Bold about 90 % of the time; the image and the link agree.
    const next = Array.from({ length: 40 }, (_, i) => `next${i}`);
    const links = await Promise.all(next.map(click));
    expect(links.filter((l) => l === 'https://shop.example/bold').length).toBeGreaterThanOrEqual(
      28,
    );
    for (const name of next.slice(0, 6)) {
      const rule = await open(name);
      expect(links[next.indexOf(name)]).toBe(`https://shop.example/${rule!.slice(5)}`);
    }
    // Everyone who saw Bold still does: Bold only gained buckets.
    for (const name of bold) expect(await open(name)).toBe('rule:bold');

    const today = new Date().toISOString().slice(0, 10);
    const report = await owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/analytics?from=${today}&to=${today}`,
    );
    expect(report.status).toBe(200);
    expect(report.json.split).toMatchObject({ collecting: false });
    const shares = (report.json.split as { shares: Array<{ id: string; share: number }> }).shares;
    expect(shares.map((s) => s.id)).toEqual(['calm', 'bold']);
    expect(shares[1]!.share).toBeGreaterThan(0.85);
    expect(report.json.optimiser).toMatchObject({
      collecting: false,
      min_impressions: 5,
      winner: { id: 'bold' },
    });
  });

  // docs/analytics.md "Campaigns": designs carry a campaign name; its report adds theirs up.
  it('adds up the designs of a campaign, lists the team’s campaigns, and keeps them to the team', async () => {
    const base = stack().url;
    const owner = await ownTeam(base, uniqueEmail('analytics-campaign'));
    const teamId = await currentTeamId(owner);
    const spring = await demoDesignCopyIn(teamId);
    const summer = await demoDesignCopyIn(teamId);
    const other = await demoDesignCopyIn(teamId);
    const tag = async (designId: string, campaign: string | null, version = 1) =>
      owner.request('PUT', `/api/pic-snippet/${designId}/campaign`, { version, campaign });
    const tagged = await tag(spring.designId, '  Spring   sale ');
    expect(tagged.status, JSON.stringify(tagged.json)).toBe(200);
    expect(tagged.json).toMatchObject({ campaign: 'Spring sale', version: 2 });
    expect((await tag(summer.designId, 'Spring sale')).status).toBe(200);
    expect((await tag(other.designId, 'Autumn')).status).toBe(200);
    // A stale version is a conflict; a bad name a field error; nothing is written by either.
    expect((await tag(other.designId, 'Spring sale', 1)).status).toBe(409);
    const bad = await tag(other.designId, 'x'.repeat(61), 2);
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      campaign: ['The campaign may not be greater than 60 characters.'],
    });
    const shown = await owner.request('GET', `/api/pic-snippet/${other.designId}`);
    expect(shown.json).toMatchObject({ campaign: 'Autumn', version: 2 });

    const get = async (path: string, agent: string) => {
      const res = await fetch(`${base}${path}`, {
        headers: { 'user-agent': agent },
        redirect: 'manual',
      });
      await res.arrayBuffer();
    };
    await get(`${spring.render}?first_name=Ana`, IPHONE);
    await get(`${spring.render}?first_name=Ben`, GMAIL);
    await get(`${summer.render}?first_name=Cy`, DESKTOP);
    await get(`${other.render}?first_name=Dee`, DESKTOP);
    await rollUpLocalAnalytics();

    const list = await owner.request('GET', '/api/campaigns');
    expect(list.json).toEqual({
      campaigns: [
        { name: 'Autumn', designs: 1 },
        { name: 'Spring sale', designs: 2 },
      ],
    });
    const today = new Date().toISOString().slice(0, 10);
    const report = await owner.request(
      'GET',
      `/api/campaigns/report?campaign=${encodeURIComponent('Spring sale')}&from=${today}&to=${today}`,
    );
    expect(report.status, JSON.stringify(report.json)).toBe(200);
    expect(report.json).toMatchObject({
      campaign: 'Spring sale',
      truncated: false,
      totals: { opens: 2, proxy_fetches: 1, impressions: 3, clicks: 0 },
    });
    expect(report.json.devices).toMatchObject({ mobile: 1, desktop: 1 });
    expect(report.json.designs).toEqual([
      expect.objectContaining({ id: spring.designId, impressions: 2 }),
      expect.objectContaining({ id: summer.designId, impressions: 1 }),
    ]);
    const series = report.json.series as Array<{ period: string; opens: number }>;
    expect(series).toEqual([expect.objectContaining({ period: today, opens: 2 })]);

    // Cleared, a design leaves the campaign.
    expect((await tag(summer.designId, null, 2)).json).toMatchObject({ campaign: null });
    const after = await owner.request('GET', '/api/campaigns');
    expect(after.json.campaigns).toContainEqual({ name: 'Spring sale', designs: 1 });

    // Another team sees none of it and may not tag the team's designs.
    const stranger = await ownTeam(base, uniqueEmail('analytics-campaign-stranger'));
    expect((await stranger.request('GET', '/api/campaigns')).json).toEqual({ campaigns: [] });
    const theirs = await stranger.request(
      'GET',
      `/api/campaigns/report?campaign=${encodeURIComponent('Spring sale')}`,
    );
    expect(theirs.status).toBe(404);
    const hijack = await stranger.request('PUT', `/api/pic-snippet/${spring.designId}/campaign`, {
      version: 2,
      campaign: 'Mine',
    });
    expect(hijack.status).toBe(404);
  });
});
