/**
 * The result CSV of a send list (docs/send-lists.md "The download"): every row of the file in
 * its order, with its values, its render URL and its status, every cell escaped so that no
 * value is read as a spreadsheet formula.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { spreadsheetSafe } from './parse.ts';
import { chunkKey, rowUrl, statusWord, type ChunkRow, type JobRecord } from './jobs.ts';

/** One CSV cell: formula-safe (a leading `'`), always quoted, quotes doubled. */
const cell = (value: string): string => `"${spreadsheetSafe(value).replaceAll('"', '""')}"`;

/** Reads a chunk's rows from the assets bucket. */
export async function readChunk(jobId: string, chunk: number): Promise<ChunkRow[]> {
  const object = await s3Client().send(
    new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: chunkKey(jobId, chunk) }),
  );
  return JSON.parse(await object.Body!.transformToString()) as ChunkRow[];
}

/** The status letters of every chunk of a job, by chunk index. */
async function chunkStatuses(jobId: string): Promise<Map<number, string>> {
  const { data } = await db().SendListChunk.query.byChunk({ jobId }).go({ pages: 'all' });
  return new Map(data.map((c) => [c.chunk, c.statuses]));
}

/** What the notes column says of a row: cut values, empty parameters, undrawable characters. */
function notes(row: ChunkRow, parameters: readonly string[], status: string | undefined): string {
  const out: string[] = [];
  if (row.cut.length > 0) out.push(`cut to 255 characters: ${row.cut.join(', ')}`);
  const empty = parameters.filter((p) => (row.values[p] ?? '').trim() === '');
  if (empty.length > 0) out.push(`fallback shown for: ${empty.join(', ')}`);
  if (status && status !== status.toLowerCase()) out.push('characters no font draws were left out');
  return out.join('; ');
}

/**
 * Builds the CSV: `line, email, <parameters…>, url, status, notes`, CRLF line ends, UTF-8.
 * @param provider the platform whose URL form to write (shared/providers); null: plain URLs.
 * @param secret signs every URL for a design that requires signed URLs (jobs.ts
 *   `rowSigningSecret`); null: unsigned.
 * @returns the file's text (at most the plan's row limit of rows).
 */
export async function resultCsv(
  job: JobRecord,
  provider: string | null,
  secret: string | null = null,
): Promise<string> {
  const header = ['line', 'email', ...job.parameters, 'url', 'status', 'notes'];
  const lines = [header.map(cell).join(',')];
  const statuses = await chunkStatuses(job.jobId);
  for (let chunk = 0; chunk < job.chunks; chunk++) {
    const rows = await readChunk(job.jobId, chunk);
    const letters = statuses.get(chunk) ?? '';
    rows.forEach((row, i) => {
      const status = letters[i];
      lines.push(
        [
          String(row.line),
          row.email ?? '',
          ...job.parameters.map((p) => row.values[p] ?? ''),
          rowUrl(job, row.values, provider, secret),
          statusWord(status, job.state),
          notes(row, job.parameters, status),
        ]
          .map(cell)
          .join(','),
      );
    });
  }
  return `${lines.join('\r\n')}\r\n`;
}
