import { useId } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { APP_LOCALE } from '../../../lib/format.ts';

/** One plotted series: a key of the rows, its name, and how its values are written. */
export interface Series<K extends string> {
  key: K;
  name: string;
  format: (value: number) => string;
}

/** A row of a chart: its day and a number (or null: not known) per series. */
export type ChartRow<K extends string> = { day: string } & Record<K, number | null>;

const COLOURS = ['var(--brand)', '#0f766e'];

/** `2026-03-09` → `Mar 9` (UTC: the snapshot days are UTC days). */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString(APP_LOCALE, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * One kiosk chart (docs/accounts.md "Constants"; docs/kiosk.md "Metrics and the daily snapshot")
 * drawn with Recharts: lines for the recurring revenue, bars for the daily counts. The drawing is
 * hidden from screen readers; the same numbers follow in a table (under "Show the numbers"), where
 * a day not known reads "not known".
 */
export function IndicatorChart<K extends string>({
  title,
  rows,
  series,
  kind,
  minTop,
}: {
  title: string;
  rows: ChartRow<K>[];
  series: Series<K>[];
  kind: 'line' | 'bar';
  /** The least top of the value axis, so a run of zeros is not drawn against cents. */
  minTop: number;
}) {
  const id = useId();
  const format = series[0]!.format;
  const axis = (
    <>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={16} fontSize={12} />
      <YAxis
        tickFormatter={format}
        width={72}
        fontSize={12}
        allowDecimals={false}
        domain={[0, (top: number) => Math.max(top, minTop)]}
      />
      <Tooltip
        labelFormatter={(day) => shortDay(String(day))}
        formatter={(value, name) => {
          const s = series.find((x) => x.name === name);
          return [typeof value === 'number' && s ? s.format(value) : String(value), name];
        }}
      />
    </>
  );
  return (
    <figure className="kiosk-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="settings-subtitle">
        {title}
      </figcaption>
      <div className="kiosk-chart__plot" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {kind === 'line' ? (
            <LineChart data={rows}>
              {axis}
              {series.map((s, i) => (
                <Line
                  key={s.key}
                  type="monotone"
                  dataKey={s.key}
                  name={s.name}
                  stroke={COLOURS[i % COLOURS.length]}
                  strokeWidth={2}
                  dot={{ r: 3 }}
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          ) : (
            <BarChart data={rows}>
              {axis}
              {series.map((s, i) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.name}
                  fill={COLOURS[i % COLOURS.length]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Show the numbers</summary>
        <div className="kiosk-chart__table">
          <table className="kiosk-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="kiosk-table__number">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.day}>
                  <th scope="row">{shortDay(row.day)}</th>
                  {series.map((s) => {
                    const value = row[s.key];
                    return (
                      <td key={s.key} className="kiosk-table__number">
                        {value === null ? 'not known' : s.format(value)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
