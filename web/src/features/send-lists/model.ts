/**
 * The send-list screen's pure rules (docs/send-lists.md; test/unit/send-list-screen.test.ts):
 * which files the picker takes, when a job is finished, the counts and the ETA as the progress
 * bar says them.
 */
import {
  StartsAtField,
  type SendListJob,
  type SendListState,
} from '#shared/contract/send-lists.ts';
import { exportRows, type ExportDesign } from '../export/model.ts';
import { formatCount } from '../../lib/format.ts';

/**
 * The names a send list's header gives: the design's parameters and the parameters of its
 * dynamic stickers, each once, in the export screen's order.
 */
export const parameterNames = (design: ExportDesign) => [
  ...new Set(exportRows(design).map((row) => row.param_name)),
];

/** The extensions and types the file picker offers (CSV and XLSX). */
export const SEND_LIST_ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A send list's format by its file name, or null for any other file. */
export function sendListFormat(fileName: string): 'csv' | 'xlsx' | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.xlsx')) return 'xlsx';
  return null;
}

/** Whether a job will change no more (polling stops). */
export const isFinished = (state: SendListState) =>
  state === 'done' || state === 'cancelled' || state === 'failed';

/** Rows done and failed of `total` (the rows to render: duplicates are not in it). */
export type SendListCounts = Pick<SendListJob, 'done' | 'failed' | 'duplicates' | 'total'>;

/** Rows handled one way or another (the progress bar's value). */
export const handled = (c: SendListCounts) => Math.min(c.total, c.done + c.failed);

/** A count as the screen writes it: `12,345`. */
export { formatCount };

/** The bar's text: `1,200 of 2,000 rows (60 %)`. */
export function progressText(c: SendListCounts): string {
  const share = c.total === 0 ? 100 : Math.floor((handled(c) / c.total) * 100);
  return `${formatCount(handled(c))} of ${formatCount(c.total)} rows (${share} %)`;
}

/**
 * The time left as a person reads it: "about 20 seconds left", "about 3 minutes left", "about
 * 1 h 5 min left"; "Estimating the time left…" before the server knows (null).
 * @param seconds the server's estimate in seconds, or null.
 */
export function etaText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'Estimating the time left…';
  if (seconds < 1) return 'Almost done';
  if (seconds < 60) return `About ${Math.max(5, Math.round(seconds / 5) * 5)} seconds left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  return `About ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** A file size as the picker shows it: `512 KB`, `3.4 MB`. */
export function fileSize(bytes: number): string {
  if (bytes < 1_000_000) return `${formatCount(Math.max(1, Math.round(bytes / 1_000)))} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * The campaign start as the API takes it, from the field's `datetime-local` value read as UTC
 * (the screen says so: the product keeps no time zone of the team): `2026-12-01T09:00` →
 * `2026-12-01T09:00:00.000Z`; '' → null (no start).
 * @returns the ISO time, null, or `{ error }` with the contract's message (in the past, more
 *   than `MAX_STARTS_AT_DAYS` days ahead, not a time).
 */
export function startsAtValue(field: string): string | null | { error: string } {
  const value = field.trim();
  if (value === '') return null;
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : `${value}Z`;
  const checked = StartsAtField.safeParse(iso);
  if (!checked.success) return { error: checked.error.issues[0]?.message ?? 'Invalid time.' };
  return checked.data ?? null;
}

/** A UTC time as the screen writes it: `1 Dec 2026, 09:00 UTC`. */
export function utcText(iso: string): string {
  return `${new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(new Date(iso))} UTC`;
}
