/**
 * The send-lists feature (docs/send-lists.md; shared/contract/send-lists.ts): jobs that
 * pre-render a design for every row of an uploaded list. Every route reads the design through
 * the caller's current team first (404 for another team's design, or a job of another design),
 * and is callable with an API token like the other design routes.
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { parseDesignDocument } from '#shared/design.ts';
import { declaredParameters } from '#shared/scene/resolve.ts';
import { sendListRowsOf } from '#shared/billing.ts';
import {
  CreateSendListBody,
  DownloadQuery,
  MAX_SEND_LIST_BYTES,
  StartsAtBody,
} from '#shared/contract/send-lists.ts';
import { s3Client, s3PresignClient } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { conflict, validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiResult } from '#lib/http.ts';
import { enqueue } from '#lib/queue.ts';
import { currentTeam, loadDesign } from '#functions/designs/store.ts';
import {
  JOB_RETENTION_SECONDS,
  jobView,
  loadJob,
  rowSigningSecret,
  uploadKey,
  type JobRecord,
} from './jobs.ts';
import { storeResult } from './result.ts';
import { syncWarmCapacity } from './warm-capacity.ts';

/** How long an upload or download URL works, s. */
const SIGNED_URL_SECONDS = 15 * 60;
/** Jobs a design's list shows, newest first. */
const LIST_LIMIT = 20;

export const SEND_LIST_MESSAGES = {
  notUploaded: 'Upload the file first: it has not arrived yet.',
  sizeMismatch: 'The uploaded file is not the size announced. Please upload it again.',
  notStartable: 'This send list has already been started.',
  ended: 'This send list has already ended.',
  notReady: 'The list is not finished yet: download it when it is done or cancelled.',
  noParameters: 'This design has no parameters: a send list has nothing to fill in.',
  countdown:
    'This design has a countdown timer, which changes every second: its images cannot be made in advance. Send its render URL as it is.',
} as const;

/** The row limit of the team's plan (shared/billing.ts `PLAN_SEND_LIST_ROWS`). */
async function rowLimit(teamId: string): Promise<number> {
  const team = (await db().Team.get({ teamId }).go()).data;
  return sendListRowsOf(team?.planId);
}

/** Sets a job's state if it is still one of `from`; false when it was not. */
async function moveState(
  job: JobRecord,
  from: readonly JobRecord['state'][],
  to: JobRecord['state'],
  extra: Partial<Pick<JobRecord, 'startedAt' | 'finishedAt'>> = {},
): Promise<boolean> {
  try {
    await db()
      .SendListJob.patch({ jobId: job.jobId })
      .set({ state: to, ...extra })
      .where((a, op) => from.map((s) => op.eq(a.state, s)).join(' OR '))
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const jobAnswer = async (jobId: string, designId: string): Promise<ApiResult> =>
  json(200, { success: true, job: jobView(await loadJob(designId, jobId)) });

export const handler = featureHandler('send-lists', {
  'GET /api/pic-snippet/{id}/send-lists': route({
    handle: async ({ auth, params }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const { data } = await db()
        .SendListJob.query.byDesign({ designId: design.designId })
        .go({ order: 'desc', limit: LIST_LIMIT });
      return json(200, { success: true, jobs: data.map(jobView) });
    },
  }),

  /**
   * Creates a job for the file about to be uploaded, at the design's current version, and
   * answers a presigned PUT for exactly `bytes` bytes (S3 refuses another length).
   */
  'POST /api/pic-snippet/{id}/send-lists': route({
    body: CreateSendListBody,
    handle: async ({ auth, params, body }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const document = parseDesignDocument(design.document);
      const parameters = declaredParameters(document);
      if (parameters.length === 0)
        throw validationFailed({ file: [SEND_LIST_MESSAGES.noParameters] });
      // A timer's image is keyed by the second and kept for one (docs/send-lists.md "What is
      // not pre-rendered"): every row would be a full GIF draw counted against the quota, and
      // nothing of it would still be cached when the mail is opened.
      if (
        document.graphics_data.some(
          (s) => s.stickerType === 'dynamicSticker' && s.dynamicStickerType === 'countdown',
        )
      )
        throw validationFailed({ file: [SEND_LIST_MESSAGES.countdown] });
      const jobId = randomUUID();
      const job = await db()
        .SendListJob.create({
          jobId,
          designId: design.designId,
          teamId: design.teamId,
          publicId: design.publicId,
          version: design.version,
          state: 'uploading',
          fileName: body.file_name,
          format: body.format,
          bytes: body.bytes,
          maxRows: await rowLimit(design.teamId),
          parameters,
          ...(body.starts_at ? { startsAt: body.starts_at } : {}),
          ttl: Math.floor(Date.now() / 1000) + JOB_RETENTION_SECONDS,
        })
        .go();
      const contentType = body.format === 'csv' ? 'text/csv' : 'application/octet-stream';
      const url = await getSignedUrl(
        s3PresignClient(),
        new PutObjectCommand({
          Bucket: config().ASSETS_BUCKET,
          Key: uploadKey(jobId),
          ContentLength: body.bytes,
          ContentType: contentType,
        }),
        {
          expiresIn: SIGNED_URL_SECONDS,
          signableHeaders: new Set(['content-length', 'content-type']),
        },
      );
      return json(201, {
        success: true,
        job: jobView(job.data as JobRecord),
        upload: {
          url,
          method: 'PUT',
          headers: { 'content-type': contentType },
          expires_at: new Date(Date.now() + SIGNED_URL_SECONDS * 1000).toISOString(),
        },
      });
    },
  }),

  'GET /api/pic-snippet/{id}/send-lists/{jobId}': route({
    handle: async ({ auth, params }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      return jobAnswer(params.jobId!, design.designId);
    },
  }),

  /**
   * Starts a job whose file has arrived: queues the reading of the file (the worker reads it,
   * writes the rows in chunks and queues them).
   */
  'POST /api/pic-snippet/{id}/send-lists/{jobId}/start': route({
    handle: async ({ auth, params }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const job = await loadJob(design.designId, params.jobId!);
      if (job.state !== 'uploading') throw conflict(SEND_LIST_MESSAGES.notStartable);
      let size: number | undefined;
      try {
        const head = await s3Client().send(
          new HeadObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: uploadKey(job.jobId) }),
        );
        size = head.ContentLength;
      } catch {
        throw conflict(SEND_LIST_MESSAGES.notUploaded);
      }
      if (size !== job.bytes || size > MAX_SEND_LIST_BYTES)
        throw validationFailed({ file: [SEND_LIST_MESSAGES.sizeMismatch] });
      const started = await moveState(job, ['uploading'], 'queued', {
        startedAt: new Date().toISOString(),
      });
      if (!started) throw conflict(SEND_LIST_MESSAGES.notStartable);
      await enqueue('send-list', [{ kind: 'prepare', jobId: job.jobId }]);
      return jobAnswer(job.jobId, design.designId);
    },
  }),

  /** Cancels a job not yet ended: the worker stops at its next row, the rest stays pending. */
  'POST /api/pic-snippet/{id}/send-lists/{jobId}/cancel': route({
    handle: async ({ auth, params }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const job = await loadJob(design.designId, params.jobId!);
      const cancelled = await moveState(job, ['uploading', 'queued', 'running'], 'cancelled', {
        finishedAt: new Date().toISOString(),
      });
      if (!cancelled) throw conflict(SEND_LIST_MESSAGES.ended);
      // Its warm capacity goes too (docs/send-lists.md "Warm capacity before a send").
      await syncWarmCapacity({ ...job, state: 'cancelled' });
      return jobAnswer(job.jobId, design.designId);
    },
  }),

  /**
   * Sets or clears a job's campaign start (docs/send-lists.md "Warm capacity before a send").
   * Once its rows are counted, the warm capacity is scheduled again for the new start (the
   * actions replaced) or removed; before that the worker schedules it when it reads the file.
   */
  'PUT /api/pic-snippet/{id}/send-lists/{jobId}/starts-at': route({
    body: StartsAtBody,
    handle: async ({ auth, params, body }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const job = await loadJob(design.designId, params.jobId!);
      if (job.state === 'cancelled' || job.state === 'failed')
        throw conflict(SEND_LIST_MESSAGES.ended);
      const update = db().SendListJob.patch({ jobId: job.jobId });
      await (
        body.starts_at ? update.set({ startsAt: body.starts_at }) : update.remove(['startsAt'])
      ).go({ response: 'none' });
      // Read again after the write: a worker that counted the rows meanwhile saw the new start.
      const now = await loadJob(design.designId, job.jobId);
      if (now.state === 'running' || now.state === 'done') await syncWarmCapacity(now);
      return jobAnswer(job.jobId, design.designId);
    },
  }),

  /**
   * The result CSV of an ended job (docs/send-lists.md "The download"), written to the assets
   * bucket and answered as a redirect to a presigned GET (a long list is larger than a Lambda
   * answer may be).
   */
  'GET /api/pic-snippet/{id}/send-lists/{jobId}/download': route({
    query: DownloadQuery,
    handle: async ({ auth, params, query }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      const job = await loadJob(design.designId, params.jobId!);
      // A job that failed after its file was read (rows given up: dead-letters.ts) has URLs too.
      const ended =
        job.state === 'done' ||
        job.state === 'cancelled' ||
        (job.state === 'failed' && job.chunks > 0);
      if (!ended) throw conflict(SEND_LIST_MESSAGES.notReady);
      const secret = await rowSigningSecret(design.teamId, design.document);
      const key = await storeResult(job, query.platform ?? null, secret);
      const name = `${job.fileName.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'send-list'}-urls.csv`;
      const url = await getSignedUrl(
        s3Client(),
        new GetObjectCommand({
          Bucket: config().ASSETS_BUCKET,
          Key: key,
          ResponseContentDisposition: `attachment; filename="${name}"`,
          ResponseContentType: 'text/csv; charset=utf-8',
        }),
        { expiresIn: SIGNED_URL_SECONDS },
      );
      return { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' };
    },
  }),
});
