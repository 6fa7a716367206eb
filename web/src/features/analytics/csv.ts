/**
 * The analytics page's CSV export: the series as a file built in the browser (no request), every
 * cell escaped as RFC 4180 says and so that no value is read as a spreadsheet formula (OWASP
 * "CSV Injection"; the same rule as the send lists' download, functions/send-lists/rows.ts
 * `spreadsheetSafe`).
 */
import type { AnalyticsPoint } from '#shared/contract/analytics.ts';

/** A cell's value: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null;

/** Characters that make a spreadsheet read a text cell as a formula (OWASP "CSV Injection"). */
const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * One CSV cell: text that starts like a formula (`=`, `+`, `-`, `@`, a tab or a carriage return)
 * gets a leading `'`, so a spreadsheet shows it as text; a cell holding `,`, `"` or a line break
 * is quoted, its quotes doubled. Numbers are written as they are (a number is never a formula),
 * null as an empty cell.
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = value !== '' && FORMULA_STARTS.has(value[0]!) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV text: cells by {@link csvCell}, lines ended by CRLF (RFC 4180), the last too. */
export const toCsv = (rows: readonly (readonly CsvValue[])[]): string =>
  rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');

/** The export's columns: the series' fields (shared/contract/analytics.ts `AnalyticsPointSchema`). */
export const SERIES_COLUMNS = [
  'period',
  'opens',
  'proxy_fetches',
  'clicks',
  'cdn_hits',
  'recipients',
] as const;

/**
 * The series as CSV: a header of {@link SERIES_COLUMNS}, then one line a point (`period` is
 * `YYYY-MM-DD` or `YYYY-MM-DDTHH`, UTC; `recipients` empty by the hour).
 */
export const seriesCsv = (points: readonly AnalyticsPoint[]): string =>
  toCsv([SERIES_COLUMNS, ...points.map((p) => SERIES_COLUMNS.map((column) => p[column]))]);

/** The export's file name, `analytics-{designId}-{from}-{to}.csv` (characters unsafe in a name as `-`). */
export const csvFileName = (designId: string, from: string, to: string): string =>
  `analytics-${designId}-${from}-${to}.csv`.replace(/[^\w.-]/g, '-');

/** How long the file's object URL lives after the download started, ms. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Offers `text` as a download named `fileName`: a Blob behind an object URL, clicked through a
 * link that is not shown; the URL is revoked once the browser has taken the file.
 */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
