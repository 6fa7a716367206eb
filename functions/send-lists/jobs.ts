/**
 * Send-list jobs (docs/send-lists.md): where a job's files live, how it is shown, and the
 * URLs its rows get. Shared by the API routes (handler.ts) and the queue worker (worker.ts).
 */
import type { EntityItem } from 'electrodb';
import { z } from 'zod';
import { buildRenderUrl } from '#shared/export-url.ts';
import { cacheIdOf } from '#functions/render/service.ts';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { notFound } from '#lib/errors.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { config } from '#lib/config.ts';
import { loadSigningKeys } from '#domain/signing-secrets.ts';
import { signatureOf } from '#functions/render/signature.ts';
import { SIGNATURE_PARAMS, stringToSign } from '#shared/render-signature.ts';

export type JobRecord = EntityItem<Entities['SendListJob']>;

/** The messages of the `send-list` queue (worker.ts; dead-letters.ts reads the same). */
export const MessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('prepare'), jobId: z.string().min(1) }),
  z.object({ kind: z.literal('rows'), jobId: z.string().min(1), chunk: z.number().int().min(0) }),
]);
export type Message = z.infer<typeof MessageSchema>;

/** Sets a job's fields if its state is still `from`; false when it was not. */
export async function patchJob(
  jobId: string,
  from: JobRecord['state'],
  set: Partial<JobRecord>,
): Promise<boolean> {
  try {
    await db()
      .SendListJob.patch({ jobId })
      .set(set)
      .where((a, op) => op.eq(a.state, from))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Ends a running job once every row is counted (rendered, cached or failed): `done`, or
 * `failed` when rows were given up (`error` set by dead-letters.ts; docs/send-lists.md
 * "States"). Only one caller ends it (a conditional write on `running`).
 * @returns the ended job, for the caller to tell the team's webhooks; null when the job is not
 *   running, not complete, or another caller ended it.
 */
export async function endIfComplete(jobId: string): Promise<JobRecord | null> {
  const job = (await db().SendListJob.get({ jobId }).go({ consistent: true })).data;
  if (!job || job.state !== 'running') return null;
  if (job.rendered + job.cached + job.failed < job.total) return null;
  const ended = {
    ...job,
    state: job.error ? ('failed' as const) : ('done' as const),
    finishedAt: new Date().toISOString(),
  };
  const moved = await patchJob(jobId, 'running', {
    state: ended.state,
    finishedAt: ended.finishedAt,
  });
  return moved ? ended : null;
}

/** Rows per chunk: one queue message, one S3 object, one cursor item. */
export const CHUNK_ROWS = 100;

/** How long a job and its files are kept, s (30 days, as the render cache). */
export const JOB_RETENTION_SECONDS = 30 * 24 * 3600;

/** The uploaded file's key in the assets bucket (private: not under `files/`). */
export const uploadKey = (jobId: string): string => `send-lists/${jobId}/upload`;

/** A chunk's rows, as JSON, in the assets bucket. */
export const chunkKey = (jobId: string, chunk: number): string =>
  `send-lists/${jobId}/rows-${String(chunk).padStart(6, '0')}.json`;

/** One row as a chunk keeps it. */
export interface ChunkRow {
  line: number;
  email?: string;
  /** Every parameter's value ('' when empty), cut to 255 characters. */
  values: Record<string, string>;
  /** Parameters whose value was cut. */
  cut: string[];
  /** The row repeats an earlier row's normalised values: not rendered again. */
  duplicate?: true;
}

/**
 * A row's status letter in its chunk's cursor item: drawn, already cached, failed, a duplicate;
 * upper case when the row has characters no font draws.
 */
export type RowStatus = 'r' | 'c' | 'f' | 'd' | 'R' | 'C' | 'F';

/** The status words of the download (docs/send-lists.md "The download"). */
export function statusWord(status: string | undefined, jobState: JobRecord['state']): string {
  switch (status?.toLowerCase()) {
    case 'r':
      return 'rendered';
    case 'c':
      return 'cached';
    case 'f':
      return 'failed';
    case 'd':
      return 'duplicate';
    default:
      return jobState === 'cancelled' ? 'cancelled' : 'pending';
  }
}

/**
 * The render URL of a row: the design's render URL at the job's version (cache id `v{n}`, so
 * it is cached for a year) with every non-empty value, as the export screen builds it
 * (shared/export-url.ts `buildRenderUrl`) for `provider` (null: plain `name=value` pairs).
 * An empty value is left out, so the design's fallback text shows.
 * @param secret the team's signing secret when the design requires signed URLs
 *   ({@link rowSigningSecret}): the URL is signed as {@link signRowUrl} says; null: unsigned.
 * @throws URIError for a value with a lone surrogate when signing (the parser's values are text).
 */
export function rowUrl(
  job: Pick<JobRecord, 'publicId' | 'version' | 'parameters'>,
  values: Record<string, string>,
  provider: string | null = null,
  secret: string | null = null,
): string {
  const url = buildRenderUrl({
    base_url: `${config().PUBLIC_URL.replace(/\/$/, '')}/r/${job.publicId}`,
    cacheId: cacheIdOf(job.version),
    provider,
    parameters: job.parameters.map((name) => ({
      param_name: name,
      merge_tag_value: values[name] ?? '',
    })),
  });
  return secret === null ? url : signRowUrl(url, secret);
}

/**
 * Signs a row's render URL in the `values` form without expiry (docs/developer-api.md "Signed
 * render URLs"; docs/send-lists.md "The download"): `&__sf=values&__sig=…` appended, the
 * signature over the path from `/r/` on and the query as written, as the render checks it
 * (functions/render/signature.ts `checkSignature`). Any platform's `name=value` form signs the
 * same way, since the signature covers the values as the render reads them.
 * @throws URIError for a name or value with a lone surrogate.
 */
export function signRowUrl(url: string, secret: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const pairs = [query, `${SIGNATURE_PARAMS.form}=values`].filter((p) => p !== '').join('&');
  const text = stringToSign('values', path.slice(path.indexOf('/r/')), pairs, undefined);
  return `${path}?${pairs}&${SIGNATURE_PARAMS.signature}=${signatureOf(secret, text)}`;
}

/**
 * The secret a job's row URLs are signed with: the team's current signing secret when the
 * design requires signed URLs (`require_signed_urls`), else null (unsigned URLs). Null too when
 * the team has no secret: the rows then answer the fallback and count as failed.
 * @param document the design's current document (the render asks the current design).
 * @throws the table's or key service's error when the secret cannot be read.
 */
export async function rowSigningSecret(teamId: string, document: unknown): Promise<string | null> {
  if ((document as { require_signed_urls?: unknown } | null)?.require_signed_urls !== true)
    return null;
  return (await loadSigningKeys(teamId)).secrets[0] ?? null;
}

/**
 * Reads a job of a design the caller may see (the design's own ownership check comes first).
 * @throws AppError 404 when there is no such job or it belongs to another design.
 */
export async function loadJob(designId: string, jobId: string): Promise<JobRecord> {
  const job = (await db().SendListJob.get({ jobId }).go({ consistent: true })).data;
  if (!job || job.designId !== designId) throw notFound('Not found.');
  return job;
}

/**
 * Seconds left at the rate so far: rows left over rows finished per second since the first.
 * Null before any row is finished, and once the job has ended.
 */
export function etaSeconds(job: JobRecord, nowMs = Date.now()): number | null {
  const finished = job.rendered + job.cached + job.failed;
  if (job.state !== 'running' || !job.firstRowAt || finished === 0) return null;
  const perSecond = finished / Math.max(1, (nowMs - job.firstRowAt) / 1000);
  return Math.max(0, Math.ceil((job.total - finished) / perSecond));
}

/** The job as the API answers it (shared/contract/send-lists.ts `SendListJobSchema`). */
export function jobView(job: JobRecord): SendListJob {
  const report = job.report ? (JSON.parse(job.report) as SendListJob['report']) : null;
  return {
    id: job.jobId,
    design_id: job.designId,
    state: job.state,
    file_name: job.fileName,
    format: job.format,
    version: job.version,
    total: job.total,
    done: job.rendered + job.cached,
    rendered: job.rendered,
    cached: job.cached,
    failed: job.failed,
    duplicates: job.duplicates,
    eta_seconds: etaSeconds(job),
    max_rows: job.maxRows,
    error: job.error ?? null,
    report: report ? { ...report, undrawable_rows: job.undrawable } : null,
    created_at: job.createdAt,
    started_at: job.startedAt ?? null,
    finished_at: job.finishedAt ?? null,
    starts_at: job.startsAt ?? null,
    warm_capacity: job.warmCapacity
      ? (JSON.parse(job.warmCapacity) as SendListJob['warm_capacity'])
      : null,
  };
}
