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

/**
 * How far ahead a campaign start may be, days: a job and its files are kept 30 days
 * (docs/send-lists.md "Warm capacity before a send").
 */
export const MAX_STARTS_AT_DAYS = 30;

export const STARTS_AT_MESSAGES = {
  format: 'Give the campaign start as a date and time, such as 2026-12-01T09:00:00Z.',
  past: 'The campaign start must be in the future.',
  far: `The campaign start may be at most ${MAX_STARTS_AT_DAYS} days ahead.`,
} as const;

/**
 * A campaign start (`starts_at`): an ISO 8601 date and time with its offset (`Z` or `+01:00`),
 * in the future and at most {@link MAX_STARTS_AT_DAYS} days ahead of the moment it is checked;
 * null or absent: none. Answered normalised to UTC (`2026-12-01T09:00:00.000Z`).
 */
export const StartsAtField = z
  .union([z.iso.datetime({ offset: true, error: STARTS_AT_MESSAGES.format }), z.null()], {
    error: STARTS_AT_MESSAGES.format,
  })
  .optional()
  .superRefine((value, ctx) => {
    if (value === null || value === undefined) return;
    const at = Date.parse(value);
    const now = Date.now();
    if (at <= now) ctx.addIssue({ code: 'custom', message: STARTS_AT_MESSAGES.past });
    else if (at > now + MAX_STARTS_AT_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', message: STARTS_AT_MESSAGES.far });
  })
  .transform((value) =>
    value === null || value === undefined ? value : new Date(value).toISOString(),
  );

/** The warm capacity scheduled for a job's campaign start (functions/send-lists/warm-capacity.ts). */
export const WarmCapacitySchema = z.object({
  /** Provisioned concurrency during the window, sandboxes. */
  capacity: z.number().int(),
  /** When it is raised (the start less 15 minutes, or when it was scheduled if later). */
  raise_at: z.string(),
  /** When it is lowered back to 0 (the start plus the first window of opens). */
  lower_at: z.string(),
  /** `online`: the scheduled actions are set; `offline`: only logged (not in AWS). */
  mode: z.enum(['online', 'offline']),
});

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
    /** When the campaign goes out (UTC, ISO 8601), or null when not given. */
    starts_at: z.string().nullable(),
    /** The warm capacity scheduled for that start; null when none is (off, or no start). */
    warm_capacity: WarmCapacitySchema.nullable(),
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
      starts_at: '2026-11-25T09:00:00.000Z',
      warm_capacity: null,
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
  /** When the campaign goes out: warm capacity is scheduled for it (when the product has it on). */
  starts_at: StartsAtField,
});

/** `PUT …/send-lists/{jobId}/starts-at`: a new campaign start, or null to clear it. */
export const StartsAtBody = z.object({
  starts_at: StartsAtField.refine((v) => v !== undefined, STARTS_AT_MESSAGES.format),
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
  'PUT /api/pic-snippet/{id}/send-lists/{jobId}/starts-at': defineContract({
    params: JobParams,
    body: StartsAtBody,
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
