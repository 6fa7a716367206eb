/**
 * The result CSV of a send list (docs/send-lists.md "The download"): every row of the file in
 * its order, with its values, its render URL and its status, every cell escaped so that no
 * value is read as a spreadsheet formula.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
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

/** Chunks read at once while a result is built (S3 answers each in tens of ms). */
const READ_CONCURRENCY = 8;

/**
 * Every chunk's rows in chunk order, read {@link READ_CONCURRENCY} at a time: 2,500 chunks of a
 * 250,000-row list take seconds, not a minute of one-by-one reads.
 */
async function* chunksInOrder(job: JobRecord): AsyncGenerator<ChunkRow[]> {
  for (let first = 0; first < job.chunks; first += READ_CONCURRENCY) {
    const count = Math.min(READ_CONCURRENCY, job.chunks - first);
    yield* await Promise.all(
      Array.from({ length: count }, (_, i) => readChunk(job.jobId, first + i)),
    );
  }
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
  let chunk = 0;
  for await (const rows of chunksInOrder(job)) {
    const letters = statuses.get(chunk++) ?? '';
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

/** The result file of a URL form in the assets bucket (`result-plain.csv`, `result-{platform}.csv`). */
export const resultKey = (jobId: string, provider: string | null): string =>
  `send-lists/${jobId}/result-${provider ?? 'plain'}.csv`;

/** The metadata naming what signed a stored result's URLs: a fingerprint, never the secret. */
const SIGNED_BY = 'signed-by';
const signedBy = (secret: string | null): string =>
  secret === null
    ? 'unsigned'
    : createHash('sha256').update(secret, 'utf8').digest('base64url').slice(0, 22);

/**
 * Writes a job's result CSV to the assets bucket ({@link resultKey}), or keeps the one there:
 * a finished (`done`) job's rows no longer change, so its file, once written under the same
 * signing secret (or unsigned), is answered again as it is. The worker writes the plain one as
 * it ends the job, so the download is not built in the API's 29 s (docs/send-lists.md "The
 * download"). A cancelled job's file is written again each time.
 * @param secret the secret the URLs are signed with (jobs.ts `rowSigningSecret`), or null.
 * @returns the file's key.
 * @throws S3's errors.
 */
export async function storeResult(
  job: JobRecord,
  provider: string | null,
  secret: string | null,
): Promise<string> {
  const Bucket = config().ASSETS_BUCKET;
  const Key = resultKey(job.jobId, provider);
  if (job.state === 'done') {
    const head = await s3Client()
      .send(new HeadObjectCommand({ Bucket, Key }))
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => {
        if (error.$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      });
    if (head?.Metadata?.[SIGNED_BY] === signedBy(secret)) return Key;
  }
  await s3Client().send(
    new PutObjectCommand({
      Bucket,
      Key,
      Body: await resultCsv(job, provider, secret),
      ContentType: 'text/csv; charset=utf-8',
      Metadata: { [SIGNED_BY]: signedBy(secret) },
    }),
  );
  return Key;
}
