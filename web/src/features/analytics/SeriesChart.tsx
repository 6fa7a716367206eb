import { useId } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { AnalyticsPoint } from '#shared/contract/analytics.ts';
import { periodLabel } from './report.ts';
import { formatCount } from '../../lib/format.ts';
import type { Granularity } from './range.ts';

/** The series drawn: a field of the points, its name, and its line (colour and dashes). */
const LINES = [
  { key: 'opens', name: 'Opens', stroke: 'var(--analytics-opens)', dash: undefined },
  {
    key: 'proxy_fetches',
    name: 'Mail-proxy fetches',
    stroke: 'var(--analytics-proxy)',
    dash: '6 3',
  },
  { key: 'clicks', name: 'Clicks', stroke: 'var(--analytics-clicks)', dash: '2 3' },
] as const;

/** Points past this many are drawn without dots (an hour's 168, a quarter's 90 days). */
const DOTS_UP_TO = 31;

/**
 * The report's series over its range (docs/analytics.md "The report"), drawn with Recharts as
 * the kiosk's charts are (web/src/features/kiosk/metrics/IndicatorChart.tsx): a line each for
 * opens, mail-proxy fetches and clicks, told apart by dashes as well as colour. The drawing is
 * hidden from screen readers; the same numbers follow in a table (under "Show the numbers").
 * @param points every period of the range, zeros included (report.ts `filledSeries`).
 */
export function SeriesChart({
  points,
  granularity,
}: {
  points: AnalyticsPoint[];
  granularity: Granularity;
}) {
  const id = useId();
  const title = `Opens, mail-proxy fetches and clicks by ${granularity} (UTC)`;
  const dots = points.length <= DOTS_UP_TO;
  return (
    <figure className="analytics-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="settings-subtitle">
        {title}
      </figcaption>
      <div className="analytics-chart__plot" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="period"
              tickFormatter={(period: string) => periodLabel(period, 'short')}
              minTickGap={24}
              fontSize={12}
            />
            <YAxis
              tickFormatter={formatCount}
              width={56}
              fontSize={12}
              allowDecimals={false}
              domain={[0, (top: number) => Math.max(top, 5)]}
            />
            <Tooltip
              labelFormatter={(period) => periodLabel(String(period))}
              formatter={(value, name) => [
                typeof value === 'number' ? formatCount(value) : String(value),
                name,
              ]}
            />
            <Legend />
            {LINES.map((line) => (
              <Line
                key={line.key}
                type="monotone"
                dataKey={line.key}
                name={line.name}
                stroke={line.stroke}
                strokeDasharray={line.dash}
                strokeWidth={2}
                dot={dots ? { r: 3 } : false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Show the numbers</summary>
        <div className="analytics-chart__table">
          <table className="analytics-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{granularity === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}</th>
                {LINES.map((line) => (
                  <th key={line.key} scope="col" className="analytics-table__number">
                    {line.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.period}>
                  <th scope="row">
                    <time
                      dateTime={point.period.length > 10 ? `${point.period}:00Z` : point.period}
                    >
                      {periodLabel(point.period)}
                    </time>
                  </th>
                  {LINES.map((line) => (
                    <td key={line.key} className="analytics-table__number">
                      {formatCount(point[line.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
