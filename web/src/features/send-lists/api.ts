/**
 * The send-list screen's server state (docs/send-lists.md; docs/adr/0045-server-state.md "Server
 * state"): a design's jobs, one job polled while it works, and the calls that create a job, upload
 * its file to the URL the API hands out, start and cancel it. All through web/src/api/client.ts.
 */
import { queryOptions } from '@tanstack/react-query';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { call, callPath, putUpload, type UploadProgress } from '../../api/client.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { isFinished } from './model.ts';

export type { SendListJob } from '#shared/contract/send-lists.ts';

/** How often a working job is read again, ms. */
export const JOB_POLL_MS = 1_500;

/** The design's jobs, newest first. */
export const jobsQuery = (designId: string) =>
  queryOptions({
    queryKey: queryKeys.sendLists.jobs(designId),
    queryFn: async ({ signal }) =>
      (await call('GET /api/pic-snippet/{id}/send-lists', { params: { id: designId }, signal }))
        .jobs,
  });

/**
 * One job, read every {@link JOB_POLL_MS} until it has finished (done, cancelled, failed); a job
 * still waiting for its file is not polled (nothing moves it but this screen's start).
 */
export const jobQuery = (designId: string, jobId: string) =>
  queryOptions({
    queryKey: queryKeys.sendLists.job(designId, jobId),
    queryFn: async ({ signal }) =>
      (
        await call('GET /api/pic-snippet/{id}/send-lists/{jobId}', {
          params: { id: designId, jobId },
          signal,
        })
      ).job,
    refetchInterval: (query) => {
      const job = query.state.data;
      return job && (isFinished(job.state) || job.state === 'uploading') ? false : JOB_POLL_MS;
    },
  });

/**
 * Creates a job for `file`, uploads the file to the URL the API answers, and starts the job.
 * @param onProgress the share of the file's bytes sent, 0–1.
 * @param startsAt the campaign start (ISO, UTC), or null.
 * @returns the started job.
 * @throws {ApiError} the API's refusal (422 with the field's message, 402 past the plan) or
 *   the upload's failure.
 */
export async function uploadSendList(
  designId: string,
  file: File,
  format: 'csv' | 'xlsx',
  onProgress: (share: number) => void,
  startsAt: string | null = null,
  signal?: AbortSignal,
): Promise<SendListJob> {
  const created = await call('POST /api/pic-snippet/{id}/send-lists', {
    params: { id: designId },
    body: { file_name: file.name, format, bytes: file.size, starts_at: startsAt },
    signal,
  });
  const { url, headers } = created.upload;
  await putUpload(
    url,
    file,
    headers,
    (p: UploadProgress) => onProgress(p.total > 0 ? p.loaded / p.total : 0),
    signal,
  );
  onProgress(1);
  const params = { id: designId, jobId: created.job.id };
  return (await call('POST /api/pic-snippet/{id}/send-lists/{jobId}/start', { params })).job;
}

/** Cancels a job; answers it as it now stands. @throws {ApiError} 409 when it has finished. */
export const cancelSendList = async (designId: string, jobId: string) =>
  (
    await call('POST /api/pic-snippet/{id}/send-lists/{jobId}/cancel', {
      params: { id: designId, jobId },
    })
  ).job;

/**
 * Sets (ISO, UTC) or clears (null) a job's campaign start; its warm capacity follows.
 * @throws {ApiError} 422 with the field's message, 409 once the job was cancelled or failed.
 */
export const setStartsAt = async (designId: string, jobId: string, startsAt: string | null) =>
  (
    await call('PUT /api/pic-snippet/{id}/send-lists/{jobId}/starts-at', {
      params: { id: designId, jobId },
      body: { starts_at: startsAt },
    })
  ).job;

/** The result CSV's link: every row, its render URL in `platform`'s syntax, and its status. */
export const downloadPath = (designId: string, jobId: string, platform: string) =>
  callPath(
    '/api/pic-snippet/{id}/send-lists/{jobId}/download',
    { id: designId, jobId },
    { platform },
  );
