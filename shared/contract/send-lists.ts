/**
 * Send lists' routes (docs/send-lists.md): a job that pre-renders a design for every row of an
 * uploaded CSV or XLSX list, so the campaign's first opens are cache hits. Create a job (an
 * upload target for the file), start it once uploaded, follow its progress, cancel it, list a
 * design's jobs, download the result CSV.
 */
import { z } from 'zod';
import { defineContract, IdParams, NoJsonAnswer } from './core.ts';

/** Largest send-list file, bytes (64 MB): about 250,000 rows of a few long parameters. */
export const MAX_SEND_LIST_BYTES = 64 * 1_000_000;

/** A job's states: waiting for its file, queued, rendering, and the three ends. */
export const SEND_LIST_STATES = [
  'uploading',
  'queued',
  'running',
  'cancelled',
  'done',
  'failed',
] as const;
export type SendListState = (typeof SEND_LIST_STATES)[number];

/** `{ id, jobId }`: the design and one of its send-list jobs. */
export const JobParams = z.object({ id: z.string().min(1), jobId: z.string().min(1) });

/** What the file held and what its rows will show (filled in once the file is read). */
export const SendListReportSchema = z.object({
  /** Rows read (header and empty rows not counted). */
  rows: z.number().int(),
  /** Values cut to 255 characters. */
  cut_values: z.number().int(),
  /** Values that start like a spreadsheet formula (escaped in the download). */
  formula_values: z.number().int(),
  /** Header names that are neither a parameter of the design nor `email`. */
  unknown_columns: z.array(z.string()),
  /** Rows whose cells were all empty, skipped. */
  skipped_empty_rows: z.number().int(),
  /** Rows with an empty parameter: the design's fallback text shows for it. */
  fallback_rows: z.number().int(),
  /** Rows with at least one value cut. */
  cut_rows: z.number().int(),
  /** Rows with characters no font of the design draws (known once rendered). */
  undrawable_rows: z.number().int(),
});

/** One job as the export screen and the API show it. */
export const SendListJobSchema = z
  .object({
    id: z.string(),
    design_id: z.string(),
    state: z.enum(SEND_LIST_STATES),
    file_name: z.string(),
    format: z.enum(['csv', 'xlsx']),
    /** The design version the rows are rendered at (the URLs' cache id `v{version}`). */
    version: z.number().int(),
    /** Rows to render: the file's rows less duplicates; 0 until the file is read. */
    total: z.number().int(),
    /** Rows finished: drawn now, or already in the render cache. */
    done: z.number().int(),
    /** Of `done`, rows drawn by this job. */
    rendered: z.number().int(),
    /** Of `done`, rows already cached (an earlier job, or an open) and not drawn again. */
    cached: z.number().int(),
    /** Rows whose render failed (the URL would show the fallback image). */
    failed: z.number().int(),
    /** Rows skipped as duplicates of an earlier row (the same normalised values). */
    duplicates: z.number().int(),
    /** Seconds left at the rate so far; null before the first rows or after the end. */
    eta_seconds: z.number().int().nullable(),
    /** The plan's row limit the file was read with. */
    max_rows: z.number().int(),
    /** Why the job failed (a refused file: the message names the line). */
    error: z.string().nullable(),
    report: SendListReportSchema.nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({
    example: {
      id: '01JD7W3F4V8M2Q7R9T5X6Y1Z0A',
      design_id: 'b8c1d2e3',
      state: 'running',
      file_name: 'november.csv',
      format: 'csv',
      version: 12,
      total: 20000,
      done: 5000,
      rendered: 4990,
      cached: 10,
      failed: 0,
      duplicates: 3,
      eta_seconds: 310,
      max_rows: 250000,
      error: null,
      report: null,
      created_at: '2026-11-24T15:00:00.000Z',
      started_at: '2026-11-24T15:00:05.000Z',
      finished_at: null,
    },
  });
export type SendListJob = z.infer<typeof SendListJobSchema>;

/** `POST …/send-lists`: the file about to be uploaded. */
export const CreateSendListBody = z.object({
  file_name: z
    .string()
    .trim()
    .min(1, 'Please choose a file.')
    .max(255, 'The file name may not be longer than 255 characters.'),
  format: z.enum(['csv', 'xlsx'], { error: 'The list must be a CSV or XLSX file.' }),
  /** The file's size, bytes: the upload must be exactly this long. */
  bytes: z
    .number({ error: 'Give the file size in bytes.' })
    .int()
    .min(1, 'The file is empty.')
    .max(MAX_SEND_LIST_BYTES, 'The file may not be larger than 64 MB.'),
});

/** The new job and where to PUT its file (a presigned URL, valid 15 minutes). */
export const CreatedSendListSchema = z.object({
  success: z.literal(true),
  job: SendListJobSchema,
  upload: z.object({
    url: z.string(),
    method: z.literal('PUT'),
    /** Headers the PUT must carry as given (the signature covers them). */
    headers: z.record(z.string(), z.string()),
    expires_at: z.string(),
  }),
});

export const JobAnswerSchema = z.object({ success: z.literal(true), job: SendListJobSchema });

/** `GET …/download`: how the URLs are written. */
export const DownloadQuery = z.object({
  /**
   * A platform id (shared/providers) whose URL form to use (ManyChat's `__format`, fixyourfunnel's
   * `txt=`); absent: the design's own platform. The values are the row's, so every URL works as
   * it is and is the one that was pre-rendered.
   */
  platform: z.string().max(64).optional(),
});

/** The routes' contracts, by route key. */
export const SEND_LISTS_CONTRACT = {
  'GET /api/pic-snippet/{id}/send-lists': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), jobs: z.array(SendListJobSchema) }),
  }),
  'POST /api/pic-snippet/{id}/send-lists': defineContract({
    params: IdParams,
    body: CreateSendListBody,
    answer: CreatedSendListSchema,
    status: 201,
  }),
  'GET /api/pic-snippet/{id}/send-lists/{jobId}': defineContract({
    params: JobParams,
    answer: JobAnswerSchema,
  }),
  'POST /api/pic-snippet/{id}/send-lists/{jobId}/start': defineContract({
    params: JobParams,
    answer: JobAnswerSchema,
    errors: [409],
  }),
  'POST /api/pic-snippet/{id}/send-lists/{jobId}/cancel': defineContract({
    params: JobParams,
    answer: JobAnswerSchema,
    errors: [409],
  }),
  'GET /api/pic-snippet/{id}/send-lists/{jobId}/download': defineContract({
    params: JobParams,
    query: DownloadQuery,
    answer: NoJsonAnswer,
    errors: [409],
  }),
} as const;
