import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CampaignNameSchema, type CampaignReport } from '#shared/contract/campaigns.ts';
import { isApiError } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { campaignReportQuery } from '../features/analytics/api.ts';
import { csvFileName, downloadCsv, seriesCsv } from '../features/analytics/csv.ts';
import {
  PICK_RANGE_TEXT,
  RangeSection,
  useAddressRange,
} from '../features/analytics/RangePicker.tsx';
import { filledSeries } from '../features/analytics/report.ts';
import {
  Breakdowns,
  FallbacksNote,
  RatesTable,
  ReportHead,
  StatTiles,
} from '../features/analytics/ReportParts.tsx';
import { SeriesChart } from '../features/analytics/SeriesChart.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { loadFailure } from '../state/queryClient.ts';
import { COLLECTING_TEXT } from './DesignAnalyticsPage.tsx';
import '../features/analytics/analytics.css';

/**
 * A campaign's analytics, `/campaigns/report?campaign=…` (docs/analytics.md "Campaigns"): the
 * designs that carry the campaign added up (tiles, the chart with its table, breakdowns,
 * fallbacks, CSV of the series) and each design's impressions, clicks and click-through rate,
 * linking to its own analytics. The range is kept in the address as on a design's page. A
 * campaign no design carries says so. Tests: ./CampaignPages.test.tsx.
 */
export function CampaignReportPage() {
  const [params] = useSearchParams();
  const name = CampaignNameSchema.safeParse(params.get('campaign') ?? '');
  useDocumentTitle(name.success ? `Campaign: ${name.data}` : 'Campaign');
  return (
    <SignedInOnly>
      {name.success ? (
        <CampaignAnalytics key={name.data} campaign={name.data} />
      ) : (
        <div className="container stack-lg">
          <Notice tone="error" title="No campaign named">
            This address names no campaign. <Link to="/campaigns">See your campaigns</Link>.
          </Notice>
        </div>
      )}
    </SignedInOnly>
  );
}

function CampaignAnalytics({ campaign }: { campaign: string }) {
  const { range, today, pick } = useAddressRange();
  const query = range.ok ? { campaign, ...range.query } : null;
  const report = useQuery({
    ...campaignReportQuery(query ?? { campaign, from: '', to: '', granularity: 'day' }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
  const missing = report.isError && isApiError(report.error) && report.error.status === 404;

  return (
    <div className="container stack-lg analytics">
      <p>
        <Link to="/campaigns">
          <span aria-hidden="true">← </span>Campaigns
        </Link>
      </p>
      <header className="analytics__header">
        <h1 className="page-title">
          Campaign: <span className="analytics__subject">{campaign}</span>
        </h1>
      </header>
      <RangeSection range={range} today={today} onChange={pick} />
      {!range.ok ? (
        <p className="muted">{PICK_RANGE_TEXT}</p>
      ) : missing ? (
        <Notice tone="info" title="No PicSnippet in this campaign">
          None of your team&apos;s PicSnippets carries the campaign <q>{campaign}</q>. Give one this
          campaign name on its page.
        </Notice>
      ) : report.isError ? (
        <LoadFailed
          title="The campaign's analytics could not be loaded"
          message={
            isApiError(report.error) && report.error.status === 422
              ? (report.error.errors?.to?.[0] ?? report.error.message)
              : loadFailure(report.error)
          }
          onRetry={() => void report.refetch()}
        />
      ) : report.data === undefined ? (
        <p className="muted" role="status" aria-busy="true">
          <Spinner /> Loading analytics…
        </p>
      ) : (
        <CampaignView report={report.data} updating={report.isPlaceholderData} />
      )}
    </div>
  );
}

function CampaignView({ report, updating }: { report: CampaignReport; updating: boolean }) {
  const points = useMemo(() => filledSeries(report, new Date()), [report]);
  const empty = report.series.length === 0;
  const id = useId();
  return (
    <div className="stack-lg" aria-busy={updating}>
      <ReportHead
        rolledUpAt={report.rolled_up_at}
        updating={updating}
        onExport={
          empty
            ? undefined
            : () =>
                downloadCsv(
                  seriesCsv(points),
                  csvFileName(`campaign-${report.campaign}`, report.from, report.to),
                )
        }
      />
      <StatTiles
        totals={report.totals}
        clicksHint="Clicks of the links of the campaign’s designs."
      />
      <FallbacksNote fallbacks={report.fallbacks} />
      <section className="analytics-breakdown" aria-labelledby={`${id}-designs`}>
        <h3 id={`${id}-designs`} className="settings-subtitle">
          PicSnippets
        </h3>
        <RatesTable
          caption="PicSnippets of the campaign"
          column="PicSnippet"
          rows={report.designs.map((d) => ({
            ...d,
            key: d.id,
            label: (
              <>
                <Link to={`/pic-snippet/${encodeURIComponent(d.id)}/analytics`}>{d.title}</Link>
                {d.status === 'archived' && <span className="pill pill--muted">Archived</span>}
              </>
            ),
          }))}
        />
        {report.truncated && (
          <p className="field__hint">
            Only the {report.designs.length} most recently updated PicSnippets are added up.
          </p>
        )}
      </section>
      {empty ? (
        <Notice tone="info" title="Collecting">
          {COLLECTING_TEXT}
        </Notice>
      ) : (
        <>
          <SeriesChart points={points} granularity={report.granularity} />
          <Breakdowns report={report} />
        </>
      )}
    </div>
  );
}
