import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  ACTIVITY_CHART_DAYS,
  percentChange,
  type Indicator,
  type IndicatorKey,
  type PerformanceIndicators,
} from '#shared/contract/kiosk.ts';
import {
  fetchIndicators,
  fetchPlanFigures,
  fetchRevenue,
  fetchTrialing,
  kioskKeys,
} from '../../api/kiosk.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { loadFailure } from '../../state/queryClient.ts';
import { perInterval } from '../billing/format.ts';
import { formatMoney } from '../../lib/format.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { IndicatorChart, shortDay, type ChartRow } from './metrics/IndicatorChart.tsx';
import type { KioskTabProps } from './tab.ts';
import './metrics/metrics.css';
import { formatCount } from '../../lib/format.ts';

const money = (cents: number) => formatMoney(cents);
const count = formatCount;

/** The indicators as the figures and tables name and write them. */
const INDICATORS: Record<IndicatorKey, { name: string; format: (n: number) => string }> = {
  monthly_recurring_revenue: { name: 'Monthly recurring revenue', format: money },
  yearly_recurring_revenue: { name: 'Yearly recurring revenue', format: money },
  daily_volume: { name: 'Daily volume', format: money },
  new_users: { name: 'New users', format: count },
};

/**
 * The kiosk's Metrics tab (docs/kiosk.md kiosk indicators, docs/accounts.md "Constants";
 * docs/kiosk.md "Metrics and the daily snapshot"): the newest day's indicators with their change
 * against a month and a year before, charts of the last 30 days of recurring revenue and the last
 * 14 days of daily volume and new users (each with a table of its numbers), and today's figures
 * from the subscription records: revenue and subscribers per plan, and trials.
 */
export function MetricsTab(_props: KioskTabProps) {
  const base = useId();
  const indicators = useQuery({
    queryKey: kioskKeys.indicators,
    queryFn: ({ signal }) => fetchIndicators(signal),
  });
  return (
    <section className="stack" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Metrics
      </h2>
      {indicators.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Loading the metrics…
        </p>
      )}
      {indicators.status === 'error' && (
        <LoadFailed
          title="The metrics could not be loaded."
          message={loadFailure(indicators.error)}
          onRetry={() => void indicators.refetch()}
        />
      )}
      {indicators.status === 'success' && <History data={indicators.data} />}
      <Today />
    </section>
  );
}

/** The newest snapshot's figures with their changes, and the charts. */
function History({ data }: { data: PerformanceIndicators }) {
  const newest = data.indicators.at(-1);
  if (!newest) {
    return (
      <p className="muted">
        No daily snapshot yet: the first one is stored shortly after midnight (UTC).
      </p>
    );
  }
  const rows = (keys: IndicatorKey[], days?: number) =>
    data.indicators.slice(days ? -days : 0).map(
      (i) =>
        ({
          day: i.day,
          ...Object.fromEntries(keys.map((k) => [k, i[k]])),
        }) as ChartRow<IndicatorKey>,
    );
  const series = (keys: IndicatorKey[]) => keys.map((key) => ({ key, ...INDICATORS[key] }));
  const revenue: IndicatorKey[] = ['monthly_recurring_revenue', 'yearly_recurring_revenue'];
  return (
    <>
      <h3 className="settings-subtitle">{shortDay(newest.day)} (UTC)</h3>
      <dl className="kiosk-figures">
        {(Object.keys(INDICATORS) as IndicatorKey[]).map((key) => (
          <Figure key={key} indicator={key} newest={newest} data={data} />
        ))}
      </dl>
      <div className="kiosk-charts">
        <IndicatorChart
          title="Recurring revenue, last 30 days"
          kind="line"
          minTop={100_00}
          rows={rows(revenue)}
          series={series(revenue)}
        />
        <IndicatorChart
          title={`Daily volume, last ${ACTIVITY_CHART_DAYS} days`}
          kind="bar"
          minTop={100_00}
          rows={rows(['daily_volume'], ACTIVITY_CHART_DAYS)}
          series={series(['daily_volume'])}
        />
        <IndicatorChart
          title={`New users, last ${ACTIVITY_CHART_DAYS} days`}
          kind="bar"
          minTop={5}
          rows={rows(['new_users'], ACTIVITY_CHART_DAYS)}
          series={series(['new_users'])}
        />
      </div>
    </>
  );
}

/**
 * One indicator of the newest snapshot with its percent change against the snapshots of a
 * month and a year before (docs/accounts.md "Constants": whole numbers, `+` when positive); "—"
 * when there is nothing to compare with.
 */
function Figure({
  indicator,
  newest,
  data,
}: {
  indicator: IndicatorKey;
  newest: Indicator;
  data: PerformanceIndicators;
}) {
  const { name, format } = INDICATORS[indicator];
  const value = newest[indicator];
  const change = (then: Indicator | null) => percentChange(value, then?.[indicator]) ?? '—';
  return (
    <div className="kiosk-figure">
      <dt>{name}</dt>
      <dd>
        <span className="kiosk-figure__value">{value === null ? 'not known' : format(value)}</span>
        <span className="kiosk-figure__change">
          {change(data.last_month)} vs last month · {change(data.last_year)} vs last year
        </span>
      </dd>
    </div>
  );
}

/** Today's figures from the subscription records: revenue and subscribers per plan, trials. */
function Today() {
  const base = useId();
  const revenue = useQuery({
    queryKey: kioskKeys.revenue,
    queryFn: ({ signal }) => fetchRevenue(signal),
  });
  const plans = useQuery({
    queryKey: kioskKeys.plans,
    queryFn: ({ signal }) => fetchPlanFigures(signal),
  });
  const trialing = useQuery({
    queryKey: kioskKeys.trialing,
    queryFn: ({ signal }) => fetchTrialing(signal),
  });
  const failed = [revenue, plans, trialing].find((q) => q.status === 'error');
  return (
    <section className="stack" aria-labelledby={`${base}-title`}>
      <h3 id={`${base}-title`} className="settings-subtitle">
        Right now
      </h3>
      {failed ? (
        <LoadFailed
          title="Today's figures could not be loaded."
          message={loadFailure(failed.error)}
          onRetry={() => {
            void revenue.refetch();
            void plans.refetch();
            void trialing.refetch();
          }}
        />
      ) : revenue.status !== 'success' ||
        plans.status !== 'success' ||
        trialing.status !== 'success' ? (
        <p className="muted" role="status">
          <Spinner /> Loading today's figures…
        </p>
      ) : (
        <>
          <dl className="kiosk-figures">
            <div className="kiosk-figure">
              <dt>Monthly recurring revenue</dt>
              <dd className="kiosk-figure__value">
                {money(revenue.data.monthly_recurring_revenue)}
              </dd>
            </div>
            <div className="kiosk-figure">
              <dt>Yearly recurring revenue</dt>
              <dd className="kiosk-figure__value">
                {money(revenue.data.yearly_recurring_revenue)}
              </dd>
            </div>
            <div className="kiosk-figure">
              <dt>On a trial</dt>
              <dd className="kiosk-figure__value">{count(trialing.data.trialing)}</dd>
            </div>
          </dl>
          <table className="kiosk-table">
            <caption className="visually-hidden">Subscribers and revenue per plan</caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Price</th>
                <th scope="col" className="kiosk-table__number">
                  Subscribers
                </th>
                <th scope="col" className="kiosk-table__number">
                  Monthly revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {plans.data.map((p) => (
                <tr key={p.id}>
                  <th scope="row">{p.name}</th>
                  <td>
                    {money(p.price)} / {perInterval(p.interval)}
                  </td>
                  <td className="kiosk-table__number">{count(p.subscribers)}</td>
                  <td className="kiosk-table__number">{money(p.monthly_recurring_revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
