import { useEffect, useId, useState, type ReactNode } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import type { AnalyticsReport } from '#shared/contract/analytics.ts';
import {
  breakdownRows,
  clientLabel,
  countryLabel,
  deviceLabel,
  formatPercent,
  rolledUpLabel,
} from './report.ts';
import { formatCount } from '../../lib/format.ts';
import { APP_LOCALE } from '../../lib/format.ts';

/**
 * What the Clients table notes (docs/analytics.md "Devices and clients": proxies fetch for the
 * reader, from their own place, with a User-Agent that says nothing of the reader's device).
 */
export const PROXY_NOTE =
  "Apple Mail and Gmail fetch images through proxies: proxy fetches are counted apart and hide the reader's device and place.";

/**
 * The report's totals as tiles (shared/contract/analytics.ts `totals`), each with what it
 * counts: opens, mail-proxy fetches, clicks, the click-through rate per impression, the days'
 * recipients summed, and the CDN's hit ratio. A rate without anything to divide shows `—`.
 */
export function StatTiles({
  totals,
  clicksHint = 'Clicks of the design’s link.',
}: {
  totals: AnalyticsReport['totals'];
  /** What the clicks count: a design's link, or a campaign's designs' links. */
  clicksHint?: string;
}) {
  const id = useId();
  const tiles = [
    {
      name: 'Opens',
      value: formatCount(totals.opens),
      hint: 'Images the reader’s mail app or browser fetched itself.',
    },
    {
      name: 'Mail-proxy fetches',
      value: formatCount(totals.proxy_fetches),
      hint: 'Fetched by Gmail, Yahoo, Outlook or Apple Mail proxies: prefetches and proxied opens.',
    },
    { name: 'Clicks', value: formatCount(totals.clicks), hint: clicksHint },
    {
      name: 'Click-through rate',
      value: formatPercent(totals.click_through_rate),
      hint:
        totals.click_through_rate === null
          ? 'No impressions yet.'
          : 'Clicks per impression (opens and proxy fetches).',
    },
    {
      name: 'Recipients',
      value: formatCount(totals.recipients),
      hint: 'Distinct recipients of each day, summed.',
    },
    {
      name: 'CDN hit ratio',
      value: formatPercent(totals.cdn_hit_ratio),
      hint:
        totals.cdn_hit_ratio === null
          ? 'No requests yet.'
          : 'Requests the CDN answered from its cache.',
    },
  ];
  return (
    <section aria-labelledby={`${id}-title`} className="stack">
      <h2 id={`${id}-title`} className="visually-hidden">
        Totals
      </h2>
      <dl className="analytics-tiles">
        {tiles.map((tile) => (
          <div key={tile.name} className="analytics-tile">
            <dt>{tile.name}</dt>
            <dd>
              <span className="analytics-tile__value">{tile.value}</span>
              <span className="analytics-tile__hint">{tile.hint}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The three breakdowns of the impressions (docs/analytics.md "Devices and clients"): devices,
 * e-mail clients (with the note on proxies) and countries, each by count, with its share of the
 * impressions.
 */
export function Breakdowns({
  report,
}: {
  report: Pick<AnalyticsReport, 'totals' | 'devices' | 'clients' | 'countries'>;
}) {
  const impressions = report.totals.impressions;
  return (
    <div className="analytics-breakdowns">
      <BreakdownTable
        title="Devices"
        column="Device"
        rows={breakdownRows(report.devices, impressions, deviceLabel)}
      />
      <BreakdownTable
        title="E-mail clients"
        column="Client"
        rows={breakdownRows(report.clients, impressions, clientLabel)}
        note={PROXY_NOTE}
      />
      <BreakdownTable
        title="Countries"
        column="Country"
        rows={breakdownRows(report.countries, impressions, countryLabel)}
      />
    </div>
  );
}

/** One breakdown: its rows as a table captioned `title`, and an optional note under it. */
function BreakdownTable({
  title,
  column,
  rows,
  note,
}: {
  title: string;
  column: string;
  rows: ReturnType<typeof breakdownRows>;
  note?: string;
}) {
  const id = useId();
  return (
    <section className="analytics-breakdown" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="settings-subtitle">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="muted small">Nothing counted in this range.</p>
      ) : (
        <table className="analytics-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col" className="analytics-table__number">
                Impressions
              </th>
              <th scope="col" className="analytics-table__number">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.label}</th>
                <td className="analytics-table__number">{formatCount(row.count)}</td>
                <td className="analytics-table__number">{formatPercent(row.share)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {note && <p className="field__hint">{note}</p>}
    </section>
  );
}

/** One line of a {@link RatesTable}. */
export interface RatesRow {
  key: string;
  label: ReactNode;
  impressions: number;
  clicks: number;
  click_through_rate: number | null;
}

/**
 * Impressions, clicks and click-through rate per line (a design's variants, a campaign's
 * designs), the lines in the order given.
 */
export function RatesTable({
  caption,
  column,
  rows,
}: {
  caption: string;
  column: string;
  rows: readonly RatesRow[];
}) {
  return (
    <table className="analytics-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{column}</th>
          <th scope="col" className="analytics-table__number">
            Impressions
          </th>
          <th scope="col" className="analytics-table__number">
            Clicks
          </th>
          <th scope="col" className="analytics-table__number">
            Click-through rate
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            <td className="analytics-table__number">{formatCount(row.impressions)}</td>
            <td className="analytics-table__number">{formatCount(row.clicks)}</td>
            <td className="analytics-table__number">{formatPercent(row.click_through_rate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * When the report was rolled up, its CSV export (when it has counts) and, while a new range
 * loads over it, a status that says so: the head of a design's and a campaign's report.
 */
export function ReportHead({
  rolledUpAt,
  onExport,
  updating,
}: {
  rolledUpAt: string | null;
  /** Downloads the CSV; absent: nothing to export. */
  onExport?: (() => void) | undefined;
  updating: boolean;
}) {
  return (
    <>
      <div className="analytics__header">
        <LastUpdated rolledUpAt={rolledUpAt} />
        {onExport && (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onExport}
          >
            Export CSV
          </button>
        )}
      </div>
      {updating && (
        <p className="muted small" role="status">
          <Spinner /> Loading analytics…
        </p>
      )}
    </>
  );
}

/**
 * The variants of a design with rules (shared/contract/analytics.ts `variants`;
 * docs/analytics.md "Variants"): each rule and the default with its impressions, clicks and
 * click-through rate, in the rules' order. Nothing for a design without rules.
 */
export function VariantsTable({
  variants,
  optimiser,
  split = null,
}: {
  variants: AnalyticsReport['variants'];
  optimiser: AnalyticsReport['optimiser'];
  /** A design that optimises its split: the shares in effect (docs/optimiser.md "In the product"). */
  split?: AnalyticsReport['split'];
}) {
  const id = useId();
  if (variants.length === 0) return null;
  return (
    <section className="analytics-breakdown" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="settings-subtitle">
        Variants
      </h3>
      <RatesTable
        caption="Variants"
        column="Rule"
        rows={variants.map((v) => ({ key: v.id, label: v.name, ...v }))}
      />
      {optimiser && <LeaderNote optimiser={optimiser} />}
      {split && <SplitNote split={split} />}
      <p className="field__hint">
        Which rule each open and click was shown, read again from the request by the design’s
        current rules.
      </p>
    </section>
  );
}

/**
 * Which variant leads on clicks (docs/optimiser.md "The sampling"): its name and how likely it
 * has the best click-through rate, or that the counts are still too few to tell.
 */
function LeaderNote({ optimiser }: { optimiser: NonNullable<AnalyticsReport['optimiser']> }) {
  if (optimiser.collecting || !optimiser.winner)
    return (
      <p className="muted small" data-testid="variant-leader">
        Collecting: each variant needs {formatCount(optimiser.min_impressions)} impressions before a
        leader is named.
      </p>
    );
  return (
    <p data-testid="variant-leader">
      Leading: <strong>{optimiser.winner.name}</strong>,{' '}
      {formatPercent(optimiser.winner.probability_best)} likely to have the best click-through rate.
    </p>
  );
}

/**
 * "Optimise for clicks" at work (docs/optimiser.md "In the product"): the share of new
 * recipients each split rule gets now, and when the shares were last set.
 */
function SplitNote({ split }: { split: NonNullable<AnalyticsReport['split']> }) {
  const shares = split.shares.map((s) => `${s.name} ${formatPercent(s.share)}`).join(', ');
  const when = split.reweighed_at
    ? `reweighed ${new Date(split.reweighed_at).toLocaleString(APP_LOCALE, {
        dateStyle: 'medium',
        timeStyle: 'short',
      })}`
    : 'not reweighed yet';
  return (
    <p data-testid="split-shares">
      Optimise for clicks: {shares} ({split.collecting ? 'equal while collecting, ' : ''}
      {when}).
    </p>
  );
}

/** What each fallback reason means to the team (docs/analytics.md "Fallbacks"). */
const FALLBACK_LABELS: Record<keyof AnalyticsReport['fallbacks'], string> = {
  over_quota: 'past the monthly render quota',
  rate_limited: 'past the render rate limits',
  refused: 'unsigned or changed signed URLs',
  failed: 'renders that failed',
};

/**
 * The fallback images the render URL served in the range, by why; nothing when there were none.
 */
export function FallbacksNote({ fallbacks }: { fallbacks: AnalyticsReport['fallbacks'] }) {
  const reasons = (Object.keys(FALLBACK_LABELS) as Array<keyof typeof FALLBACK_LABELS>).filter(
    (reason) => fallbacks[reason] > 0,
  );
  if (reasons.length === 0) return null;
  const total = reasons.reduce((sum, reason) => sum + fallbacks[reason], 0);
  return (
    <p className="muted small" data-testid="fallbacks">
      {formatCount(total)} fallback {total === 1 ? 'image' : 'images'} served instead of the
      personalised one:{' '}
      {reasons.map((r) => `${formatCount(fallbacks[r])} ${FALLBACK_LABELS[r]}`).join('; ')}.
    </p>
  );
}

/** How often "Last updated" is written again, ms. */
const TICK_MS = 60_000;

/**
 * When the report was last rolled up (`rolled_up_at`), relative within a day ("5 minutes ago"),
 * with the local date and time as its title, and how often the counts move (docs/analytics.md
 * "The source of truth": the report is about an hour behind at worst). Written again each
 * minute, so "just now" does not stay.
 */
export function LastUpdated({ rolledUpAt }: { rolledUpAt: string | null }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (rolledUpAt === null) {
    return (
      <p className="muted small" data-testid="last-updated">
        Not counted yet: the counts are rolled up from the CDN’s log about every hour.
      </p>
    );
  }
  const { relative, local } = rolledUpLabel(rolledUpAt, now);
  return (
    <p className="muted small" data-testid="last-updated">
      Last updated{' '}
      <time dateTime={rolledUpAt} title={local}>
        {relative}
      </time>
      . The counts are rolled up from the CDN’s log about every hour.
    </p>
  );
}
