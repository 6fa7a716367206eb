/**
 * Campaigns (docs/analytics.md "Campaigns"), all through the caller's current team:
 * - `PUT /api/pic-snippet/{id}/campaign`: set or clear a design's campaign, a versioned write
 *   (404 for another team's design, 409 for a stale version). Nothing is drawn from it, so the
 *   design's renders are not invalidated.
 * - `GET /api/campaigns`: the team's campaigns (active and archived designs) by name.
 * - `GET /api/campaigns/report`: one campaign's analytics, its designs' added up.
 */
import {
  CampaignBody,
  CampaignReportQuerySchema,
  MAX_CAMPAIGN_DESIGNS,
} from '#shared/contract/campaigns.ts';
import { campaignReport } from '#functions/analytics/campaign-report.ts';
import { db } from '#lib/db/index.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { notFound } from '#lib/errors.ts';
import { teamList } from './lists.ts';
import { currentTeam, updateDesign } from './store.ts';

/** Designs of one list (active or archived) read at most to find campaigns. */
export const MAX_DESIGNS_SCANNED = 5_000;

/** A design as the campaigns read it. */
interface Tagged {
  designId: string;
  title: string;
  status: 'active' | 'archived';
  campaign?: string | undefined;
}

/**
 * The team's designs that carry a campaign, most recently updated first, active then archived:
 * at most {@link MAX_DESIGNS_SCANNED} of each list are read.
 */
async function taggedDesigns(teamId: string): Promise<Tagged[]> {
  const lists = await Promise.all(
    (['active', 'archived'] as const).map(async (status) => {
      const { data } = await db()
        .Design.query.byListUpdated({ listKey: teamList(teamId, status) })
        .go({
          order: 'desc',
          attributes: ['designId', 'title', 'status', 'campaign'],
          limit: MAX_DESIGNS_SCANNED,
          pages: 'all',
        });
      return data.slice(0, MAX_DESIGNS_SCANNED) as Tagged[];
    }),
  );
  return lists.flat().filter((d) => typeof d.campaign === 'string' && d.campaign !== '');
}

/** The current team, or 404 when there is none. */
function teamOf(auth: Parameters<typeof currentTeam>[0]): string {
  const teamId = currentTeam(auth);
  if (!teamId) throw notFound('You have no current team.');
  return teamId;
}

export const campaignRoutes: Record<string, RouteDefinition> = {
  'PUT /api/pic-snippet/{id}/campaign': route({
    body: CampaignBody,
    handle: async ({ auth, params, body }) => {
      const next = body.campaign ?? '';
      const record = await updateDesign(
        currentTeam(auth),
        params.id!,
        body.version,
        (r) => ((r.campaign ?? '') === next ? null : { campaign: next }),
        { invalidate: false },
      );
      return json(200, {
        success: true,
        version: record.version,
        title: record.title,
        updated_at: record.updatedAt,
        campaign: record.campaign || null,
      });
    },
  }),

  'GET /api/campaigns': route({
    handle: async ({ auth }) => {
      const counts = new Map<string, number>();
      for (const d of await taggedDesigns(teamOf(auth)))
        counts.set(d.campaign!, (counts.get(d.campaign!) ?? 0) + 1);
      const campaigns = [...counts]
        .map(([name, designs]) => ({ name, designs }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return json(200, { campaigns });
    },
  }),

  'GET /api/campaigns/report': route({
    query: CampaignReportQuerySchema,
    handle: async ({ auth, query }) => {
      const { campaign, ...range } = query;
      const designs = (await taggedDesigns(teamOf(auth))).filter((d) => d.campaign === campaign);
      if (designs.length === 0) throw notFound('No design of your team is in this campaign.');
      return json(
        200,
        await campaignReport(
          campaign,
          designs.slice(0, MAX_CAMPAIGN_DESIGNS),
          range,
          designs.length > MAX_CAMPAIGN_DESIGNS,
        ),
      );
    },
  }),
};
