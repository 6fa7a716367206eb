/**
 * The entities of send lists (docs/send-lists.md): a job per uploaded list, and a chunk per
 * range of its rows, whose cursor makes the row counters exactly-once across redelivered
 * queue messages.
 */
import { Entity } from 'electrodb';
import { SEND_LIST_STATES } from '#shared/contract/send-lists.ts';
import { gsi, now, SERVICE, type EntityKit } from './entity-kit.ts';

/** Builds these entities against one table. */
export function sendListEntities({ opts, primary }: EntityKit) {
  /**
   * One send-list job of a design (functions/send-lists/jobs.ts). Counters grow by atomic ADDs
   * in the same transaction that moves a chunk's cursor (worker.ts), so a redelivered message
   * never counts a row twice. A design's jobs are listed newest first on gsi1.
   */
  const SendListJob = new Entity(
    {
      model: { entity: 'sendlistjob', version: '1', service: SERVICE },
      attributes: {
        jobId: { type: 'string', required: true },
        designId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        /** The design's public id and version the rows are rendered at. */
        publicId: { type: 'string', required: true },
        version: { type: 'number', required: true },
        state: { type: SEND_LIST_STATES, required: true },
        fileName: { type: 'string', required: true },
        format: { type: ['csv', 'xlsx'] as const, required: true },
        /** Declared size of the upload, bytes. */
        bytes: { type: 'number', required: true },
        /** The plan's row limit at creation. */
        maxRows: { type: 'number', required: true },
        /** The design's parameter names, in order (the file's header is matched to them). */
        parameters: { type: 'list', items: { type: 'string' }, required: true },
        total: { type: 'number', required: true, default: 0 },
        rendered: { type: 'number', required: true, default: 0 },
        cached: { type: 'number', required: true, default: 0 },
        failed: { type: 'number', required: true, default: 0 },
        duplicates: { type: 'number', required: true, default: 0 },
        undrawable: { type: 'number', required: true, default: 0 },
        /** Chunks of rows written to S3 (`send-lists/{jobId}/rows-{n}.json`). */
        chunks: { type: 'number', required: true, default: 0 },
        /** The file's report as JSON (shared/contract/send-lists.ts `SendListReportSchema`). */
        report: { type: 'string' },
        error: { type: 'string' },
        createdAt: { type: 'string', required: true, default: now, readOnly: true },
        startedAt: { type: 'string' },
        /** When the first row was finished, ms since the epoch (the ETA's start). */
        firstRowAt: { type: 'number' },
        finishedAt: { type: 'string' },
        /** When the campaign goes out, ISO 8601 UTC (docs/send-lists.md "Warm capacity before a send"). */
        startsAt: { type: 'string' },
        /**
         * The warm capacity scheduled for `startsAt`, as JSON (shared/contract/send-lists.ts
         * `WarmCapacitySchema`); absent when none is.
         */
        warmCapacity: { type: 'string' },
        ttl: { type: 'number' },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['jobId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byDesign: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['designId'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt'] },
        },
      },
    },
    opts,
  );

  /**
   * One range of a job's rows, as one queue message carries it. `next` is the index (within
   * the chunk) of the first row not yet counted; `rows` the chunk's row count.
   */
  const SendListChunk = new Entity(
    {
      model: { entity: 'sendlistchunk', version: '1', service: SERVICE },
      attributes: {
        jobId: { type: 'string', required: true },
        chunk: { type: 'number', required: true },
        rows: { type: 'number', required: true },
        next: { type: 'number', required: true, default: 0 },
        /** One status letter per finished row (functions/send-lists/jobs.ts `RowStatus`). */
        statuses: { type: 'string', required: true, default: '' },
        ttl: { type: 'number' },
      },
      indexes: {
        byChunk: {
          pk: { ...primary.pk, composite: ['jobId'] },
          sk: { ...primary.sk, composite: ['chunk'] },
        },
      },
    },
    opts,
  );

  return { SendListJob, SendListChunk };
}
