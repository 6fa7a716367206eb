/**
 * The analytics page's server state (docs/analytics.md "The report"; docs/adr/0045-server-state.md
 * "Server state"): a design's report for a range, through web/src/api/client.ts. A report is
 * read-only and changes only as the roll-ups run, so its keys form their own family (`analytics`),
 * which no design action needs to invalidate.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AnalyticsQuery } from '#shared/contract/analytics.ts';
import type { CampaignReportQuery } from '#shared/contract/campaigns.ts';
import { call } from '../../api/client.ts';

/** The page's query keys: a design's report for one range and granularity. */
export const analyticsKeys = {
  report: (designId: string, query: AnalyticsQuery) =>
    ['analytics', designId, query.from, query.to, query.granularity] as const,
  /** The team's campaigns: a design's campaign change invalidates it. */
  campaigns: () => ['analytics', 'campaigns'] as const,
  campaignReport: (query: CampaignReportQuery) =>
    ['analytics', 'campaign', query.campaign, query.from, query.to, query.granularity] as const,
};

/** `GET /api/campaigns` (shared/contract/campaigns.ts): the team's campaigns, A–Z, with counts. */
export const campaignsQuery = () =>
  queryOptions({
    queryKey: analyticsKeys.campaigns(),
    queryFn: ({ signal }) => call('GET /api/campaigns', { signal }),
  });

/**
 * `GET /api/campaigns/report?campaign&from&to&granularity`: a campaign's designs added up. Rejects
 * with an `ApiError`: 404 when no design of the team carries the campaign, 422 for a bad range.
 */
export const campaignReportQuery = (query: CampaignReportQuery) =>
  queryOptions({
    queryKey: analyticsKeys.campaignReport(query),
    queryFn: ({ signal }) => call('GET /api/campaigns/report', { query, signal }),
  });

/**
 * `GET /api/pic-snippet/{id}/analytics?from&to&granularity` (shared/contract/analytics.ts): the
 * totals, the series (periods with counts only) and the breakdowns of `query`'s inclusive UTC
 * days. Rejects with an `ApiError`: 404 for a design that is not the current team's, 422 with
 * `errors.to` for a range past the longest.
 */
export const analyticsQuery = (designId: string, query: AnalyticsQuery) =>
  queryOptions({
    queryKey: analyticsKeys.report(designId, query),
    queryFn: ({ signal }) =>
      call('GET /api/pic-snippet/{id}/analytics', { params: { id: designId }, query, signal }),
  });
