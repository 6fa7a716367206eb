import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { AnalyticsReport } from '#shared/contract/analytics.ts';
import { isApiError } from '../api/client.ts';
import { fetchDesign, type DesignDetails } from '../api/designs.ts';
import { Notice } from '../components/Notice.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { analyticsQuery } from '../features/analytics/api.ts';
import { campaignPath } from '../features/analytics/CampaignField.tsx';
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
  ReportHead,
  StatTiles,
  VariantsTable,
} from '../features/analytics/ReportParts.tsx';
import { SeriesChart } from '../features/analytics/SeriesChart.tsx';
import { PollSection } from '../features/polls/PollSection.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { DesignLoadState, useDesignLoad } from '../features/dashboard/useDesignLoad.tsx';
import { loadFailure } from '../state/queryClient.ts';
import '../features/analytics/analytics.css';

/** What the page says while a range has nothing counted (docs/analytics.md "The report"). */
export const COLLECTING_TEXT =
  'No opens counted yet in this range. Opens appear here within about an hour of being served.';

/**
 * The analytics page of a design, `/pic-snippet/{id}/analytics` (docs/analytics.md "The
 * report"): the design's title with the way back to it; the range (presets, custom UTC days, by
 * day or by hour) kept in the address's `from`, `to` and `granularity`, so a range can be shared
 * and reloaded; when the counts were last rolled up; the totals as tiles; opens, mail-proxy
 * fetches and clicks over the range as a chart with a table of the same numbers (days or hours
 * without counts as zeros); the devices, clients and countries of the impressions; and the
 * series as a CSV download built in the browser. A design that is not the current team's gets
 * the not-found state (the API answers 404 for both). Tests: ./DesignAnalyticsPage.test.tsx.
 */
export function DesignAnalyticsPage() {
  const { id = '' } = useParams();
  return (
    <SignedInOnly>
      <DesignAnalytics key={id} id={id} />
    </SignedInOnly>
  );
}

/** The message of a failed report: the range's own for a 422 (`errors.to`), else the load failure's. */
function reportFailure(error: unknown): string {
  if (isApiError(error) && error.status === 422) {
    return error.errors?.to?.[0] ?? error.errors?.from?.[0] ?? error.message;
  }
  return loadFailure(error);
}

function DesignAnalytics({ id }: { id: string }) {
  const { range, today, pick } = useAddressRange();
  const query = range.ok ? range.query : null;
  // The design and the report are read side by side; the report's key holds the range.
  const report = useQuery({
    ...analyticsQuery(id, query ?? { from: '', to: '', granularity: 'day' }),
    enabled: query !== null,
    // A new range keeps the last report on screen, marked busy, until its own arrives.
    placeholderData: keepPreviousData,
  });
  const { loaded, retry } = useDesignLoad('show', id, fetchDesign, {
    pending: 'Analytics',
    ready: (design: DesignDetails) => `Analytics: ${design.title}`,
  });

  if (loaded.state !== 'ready') {
    return (
      <DesignLoadState
        loaded={loaded}
        retry={retry}
        loadingText="Loading the PicSnippet…"
        failedTitle="This PicSnippet could not be loaded"
      />
    );
  }
  const { data: design } = loaded;

  return (
    <div className="container stack-lg analytics">
      <p>
        <Link to={design.showurl}>
          <span aria-hidden="true">← </span>
          {design.title}
        </Link>
      </p>
      <header className="analytics__header">
        <h1 className="page-title">
          Analytics: <span className="analytics__subject">{design.title}</span>
        </h1>
        {design.campaign && (
          <p className="muted">
            In the campaign <Link to={campaignPath(design.campaign)}>{design.campaign}</Link>
          </p>
        )}
      </header>

      <RangeSection range={range} today={today} onChange={pick} />

      {!range.ok ? (
        <p className="muted">{PICK_RANGE_TEXT}</p>
      ) : report.isError ? (
        <LoadFailed
          title="The analytics could not be loaded"
          message={reportFailure(report.error)}
          onRetry={() => void report.refetch()}
        />
      ) : report.data === undefined ? (
        <ReportLoading />
      ) : (
        <ReportView designId={id} report={report.data} updating={report.isPlaceholderData} />
      )}
      <PollSection designId={id} />
    </div>
  );
}

/** The report's place while it loads: a status that says so, over tiles' outlines. */
function ReportLoading() {
  return (
    <div className="stack" aria-busy="true">
      <p className="muted" role="status">
        <Spinner /> Loading analytics…
      </p>
      <div className="analytics-tiles" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <span key={i} className="skeleton analytics-tile--skeleton" />
        ))}
      </div>
    </div>
  );
}

/**
 * A loaded report: when it was rolled up and its export, the tiles, and the chart and
 * breakdowns, or the collecting state when its series is empty (nothing counted in the range).
 * @param updating the report is the last range's, shown while the new range's loads.
 */
function ReportView({
  designId,
  report,
  updating,
}: {
  designId: string;
  report: AnalyticsReport;
  updating: boolean;
}) {
  const points = useMemo(() => filledSeries(report, new Date()), [report]);
  const empty = report.series.length === 0;
  return (
    <div className="stack-lg" aria-busy={updating}>
      <ReportHead
        rolledUpAt={report.rolled_up_at}
        updating={updating}
        onExport={
          empty
            ? undefined
            : () => downloadCsv(seriesCsv(points), csvFileName(designId, report.from, report.to))
        }
      />
      <StatTiles totals={report.totals} />
      <FallbacksNote fallbacks={report.fallbacks} />
      {empty ? (
        <Notice tone="info" title="Collecting">
          {COLLECTING_TEXT}
        </Notice>
      ) : (
        <>
          <SeriesChart points={points} granularity={report.granularity} />
          <VariantsTable
            variants={report.variants}
            optimiser={report.optimiser}
            split={report.split}
          />
          <Breakdowns report={report} />
        </>
      )}
    </div>
  );
}
