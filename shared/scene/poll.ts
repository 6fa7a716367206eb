/**
 * Polls: the settings of a `poll` dynamic sticker, its results (counts → whole percentages) and
 * its layout (docs/polls.md). Pure and shared: the editor's preview and the render draw the same
 * bars (`pollBarsSvg`, one SVG image under the texts) and the same text layers (`pollLayers`,
 * drawn with shared/scene/draw.ts `fitTextLayer`), so both show the poll in the same places
 * (test/unit/poll.test.ts).
 *
 * Units: geometry in canvas px, font sizes in px at the sticker's intrinsic size
 * ({@link POLL_SIZE}, scaled with the sticker), times in ms since the epoch.
 */
import { z } from 'zod';
import { isTimeZone, zonedInstant } from './countdown.ts';
import type { ResolvedTextLayer } from './resolve.ts';
import {
  layerBox,
  stickerTextLayer,
  svgAttr,
  svgNumber,
  type LayerBox,
  type StickerGeometry,
} from './sticker-layers.ts';

/** A poll's intrinsic box, px (docs/polls.md "The sticker"). */
export const POLL_SIZE = { width: 600, height: 400 } as const;
/** How many options a poll has (docs/polls.md "The sticker"). */
export const POLL_OPTIONS = { min: 2, max: 6 } as const;
/** How long a render may show the same results, s (docs/polls.md "Live results"). */
export const POLL_RESULTS_TTL_S = { default: 60, min: 10, max: 3600 } as const;
/** The longest question and option label, characters. */
export const MAX_POLL_QUESTION = 120;
export const MAX_POLL_LABEL = 60;
/** The longest option URL, characters. */
export const MAX_POLL_URL = 2048;

/** The spec-style messages of the poll's fields (docs/polls.md "The sticker"). */
export const POLL_MESSAGES = {
  question: `The question may have at most ${MAX_POLL_QUESTION} characters.`,
  label: `An option needs a label of 1 to ${MAX_POLL_LABEL} characters.`,
  url: 'An option link must be an http(s) URL.',
  options: `A poll has ${POLL_OPTIONS.min} to ${POLL_OPTIONS.max} options.`,
  closes: 'The closing time must be a date and time, YYYY-MM-DDTHH:mm.',
  ttl: `Results may be kept ${POLL_RESULTS_TTL_S.min} to ${POLL_RESULTS_TTL_S.max} seconds.`,
  voter: 'The voter parameter must be a parameter name: letters, digits, _ and -.',
} as const;

/** A parameter name (docs/editor.md "Editing rules"). */
const PARAMETER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A wall-clock date and time without zone, `YYYY-MM-DDTHH:mm`. */
const WALL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** One answer of a poll: its label and where a vote for it leads ('' = the results page). */
export const PollOptionSchema = z.object({
  label: z.string().trim().min(1, POLL_MESSAGES.label).max(MAX_POLL_LABEL, POLL_MESSAGES.label),
  url: z
    .string()
    .trim()
    .max(MAX_POLL_URL, POLL_MESSAGES.url)
    .refine((v) => v === '' || isHttpUrl(v), POLL_MESSAGES.url)
    .default(''),
});
export type PollOption = z.output<typeof PollOptionSchema>;

/**
 * The settings of a poll sticker (docs/polls.md):
 * - `question` drawn above the options (may be empty when the design's own text asks it);
 * - `options` 2–6, each with a label and the URL a vote for it leads to;
 * - `voter_parameter`: the parameter that identifies a recipient (an e-mail or a contact id);
 *   one vote per poll per value of it. Null: the recipient's whole set of values identifies
 *   them (docs/polls.md "One vote per recipient");
 * - `closes_at` a wall time in `time_zone` after which no vote counts (null: never);
 * - `show_results`: the image shows live bars and percentages; else the options only;
 * - `keep_voter_value`: keep the identifying value with each vote (signed designs only);
 * - `results_ttl_s` how long a render may show the same results (10–3600 s);
 * - style: text `fill`, `bar_fill`, `track_fill`, `panel_fill`, `font_family`, `font_size` (px
 *   at 600x400).
 */
export const PollSchema = z.object({
  question: z.string().max(MAX_POLL_QUESTION, POLL_MESSAGES.question).default(''),
  options: z
    .array(PollOptionSchema)
    .min(POLL_OPTIONS.min, POLL_MESSAGES.options)
    .max(POLL_OPTIONS.max, POLL_MESSAGES.options),
  voter_parameter: z.string().regex(PARAMETER_NAME, POLL_MESSAGES.voter).nullable().default(null),
  closes_at: z
    .string()
    .refine(
      (v) => WALL_MINUTE.test(v) && !Number.isNaN(Date.parse(`${v}:00Z`)),
      POLL_MESSAGES.closes,
    )
    .nullable()
    .default(null),
  time_zone: z
    .string()
    .refine(isTimeZone, 'The time zone must be an IANA name, such as Europe/Paris.')
    .default('UTC'),
  show_results: z.boolean().default(true),
  /**
   * Keep each voter's identifying value with the vote for the votes download; takes effect only
   * when the design requires signed URLs (docs/polls.md "For the team").
   */
  keep_voter_value: z.boolean().default(false),
  results_ttl_s: z
    .number()
    .int(POLL_MESSAGES.ttl)
    .min(POLL_RESULTS_TTL_S.min, POLL_MESSAGES.ttl)
    .max(POLL_RESULTS_TTL_S.max, POLL_MESSAGES.ttl)
    .default(POLL_RESULTS_TTL_S.default),
  font_family: z.string().min(1).max(100).default('Roboto'),
  font_size: z.number().min(8).max(120).default(26),
  fill: z.string().min(1).max(40).default('#1f2430'),
  bar_fill: z.string().min(1).max(40).default('#4f7cff'),
  track_fill: z.string().min(1).max(40).default('#e8ecf5'),
  /** The panel behind the poll (`transparent`: none); default white at 90 %. */
  panel_fill: z.string().min(1).max(40).default('#ffffffe6'),
});
export type Poll = z.output<typeof PollSchema>;

/** A new poll's settings: a question and two options (the editor's "Add poll"). */
export const newPoll = (): Poll =>
  PollSchema.parse({
    question: 'Which do you prefer?',
    options: [{ label: 'Option A' }, { label: 'Option B' }],
  });

/**
 * When the poll closes, ms since the epoch, or undefined when it never does.
 * @throws Error when the stored wall time or zone is invalid (the schema refuses both).
 */
export const pollClosesAt = (poll: Poll): number | undefined =>
  poll.closes_at === null ? undefined : zonedInstant(poll.closes_at, poll.time_zone);

/** Whether the poll takes no more votes at `nowMs`. */
export const pollClosed = (poll: Poll, nowMs: number): boolean => {
  const at = pollClosesAt(poll);
  return at !== undefined && nowMs >= at;
};

/**
 * Whole percentages of `counts` that add up to 100 (largest remainder; ties to the earlier
 * option), or all 0 when nobody voted. Counts below 0 or not finite count as 0.
 */
export function pollPercentages(counts: readonly number[]): number[] {
  const clean = counts.map((c) => (Number.isFinite(c) && c > 0 ? Math.floor(c) : 0));
  const total = clean.reduce((a, b) => a + b, 0);
  if (total === 0) return clean.map(() => 0);
  const exact = clean.map((c) => (c * 100) / total);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    whole[i]! += 1;
    left -= 1;
  }
  return whole;
}

/** A poll sticker's drawn box, canvas px, and its scale (intrinsic px → canvas px). */
export type PollBox = LayerBox;

/** A bar of the poll in canvas px: the track of an option or its filled part. */
export interface PollBar {
  left: number;
  top: number;
  width: number;
  height: number;
  radius: number;
  fill: string;
}

/** What a poll draws: bars beneath, text layers above, in canvas px. */
export interface PollDrawing {
  bars: PollBar[];
  texts: ResolvedTextLayer[];
}

/**
 * The poll's bars and texts for `counts` (one per option; undefined: no results shown), in
 * canvas px: the question on top, then a row per option with its track, the filled part
 * (the option's share) and the label left, the percentage right when results show.
 */
export function pollLayers(poll: Poll, box: PollBox, counts?: readonly number[]): PollDrawing {
  const s = box.scale;
  const pad = 16 * s;
  const size = poll.font_size * s;
  const text = (
    id: string,
    value: string,
    left: number,
    top: number,
    width: number,
    fontSize: number,
    textAlign: 'left' | 'right' | 'center',
    fontWeight: 'normal' | 'bold' = 'normal',
  ): ResolvedTextLayer =>
    stickerTextLayer(
      box,
      { fontFamily: poll.font_family, fill: poll.fill },
      { id, text: value, left, top, width, fontSize, textAlign, fontWeight },
    );
  const texts: ResolvedTextLayer[] = [];
  const bars: PollBar[] = [];
  const inner = { left: box.left + pad, width: Math.max(1, box.width - 2 * pad) };
  let top = box.top + pad;
  if (poll.question.trim() !== '') {
    const q = size * 1.1;
    texts.push(text('q', poll.question, inner.left, top, inner.width, q, 'center', 'bold'));
    top += q * 1.35 + pad * 0.5;
  }
  const n = poll.options.length;
  const rowsHeight = Math.max(1, box.top + box.height - pad - top);
  // Rows of bars from the top, a third of a bar apart; a box taller than they need keeps the
  // space below them.
  const barHeight = Math.min((rowsHeight / n) * 0.75, size * 2);
  const row = Math.min(rowsHeight / n, barHeight * 1.3);
  const shares = counts ? pollPercentages(counts.slice(0, n)) : undefined;
  poll.options.forEach((option, i) => {
    const barTop = top + i * row + (row - barHeight) / 2;
    const radius = Math.min(barHeight / 2, 10 * s);
    bars.push({
      left: inner.left,
      top: barTop,
      width: inner.width,
      height: barHeight,
      radius,
      fill: poll.track_fill,
    });
    const share = shares?.[i];
    if (share !== undefined && share > 0)
      bars.push({
        left: inner.left,
        top: barTop,
        width: Math.max(2 * radius, (inner.width * share) / 100),
        height: barHeight,
        radius,
        fill: poll.bar_fill,
      });
    const textTop = barTop + (barHeight - size * 1.16) / 2;
    const labelWidth = shares ? inner.width * 0.72 : inner.width - 2 * pad;
    texts.push(text(`o${i}`, option.label, inner.left + pad, textTop, labelWidth, size, 'left'));
    if (shares)
      texts.push(
        text(
          `p${i}`,
          `${shares[i]}%`,
          inner.left + inner.width * 0.72,
          textTop,
          inner.width * 0.28 - pad,
          size,
          'right',
          'bold',
        ),
      );
  });
  // The panel ends under the last row (within the box), beneath everything else.
  if (poll.panel_fill !== 'transparent')
    bars.unshift({
      left: box.left,
      top: box.top,
      width: box.width,
      height: Math.min(box.height, top + n * row + pad - box.top),
      radius: 14 * s,
      fill: poll.panel_fill,
    });
  return { bars, texts };
}

/**
 * The poll's bars as an SVG document the size of `box` (bars placed relative to its top-left),
 * drawn beneath the poll's texts by both the editor and the render (docs/polls.md "Drawing").
 */
export function pollBarsSvg(box: PollBox, bars: readonly PollBar[]): string {
  const r = svgNumber;
  const rects = bars
    .map(
      (b) =>
        `<rect x="${r(b.left - box.left)}" y="${r(b.top - box.top)}" width="${r(b.width)}" height="${r(b.height)}" rx="${r(b.radius)}" fill="${svgAttr(b.fill)}"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${r(box.width)}" height="${r(box.height)}" viewBox="0 0 ${r(box.width)} ${r(box.height)}">${rects}</svg>`;
}

/** The SVG of {@link pollBarsSvg} as a data URL. */
export const svgDataUrl = (svg: string): string => `data:image/svg+xml,${encodeURIComponent(svg)}`;

/**
 * The render's own value holding a poll's counts at the moment of the render (`"12,5,0"`),
 * named with a leading NUL so no URL parameter can set it; it is part of the render cache key,
 * so new results draw a new image (docs/polls.md "Live results").
 */
export const POLL_RESULTS_VALUE = '\u0000pollResults';

/** Counts as the render passes them in {@link POLL_RESULTS_VALUE}. */
export const formatPollCounts = (counts: readonly number[]): string =>
  counts.map((c) => String(Math.max(0, Math.floor(c)))).join(',');

/**
 * The counts of {@link formatPollCounts}, one per option (`options` of them, missing ones 0), or
 * undefined when `value` is absent or not a list of whole numbers.
 */
export function parsePollCounts(value: string | undefined, options: number): number[] | undefined {
  if (value === undefined || value.length > 200) return undefined;
  const parts = value.split(',');
  if (parts.length > POLL_OPTIONS.max || parts.some((p) => !/^\d{1,12}$/.test(p))) return undefined;
  return Array.from({ length: options }, (_, i) => Number(parts[i] ?? 0));
}

/** A poll sticker's geometry and settings (shared/design.ts `Sticker`). */
export interface PollStickerLike extends StickerGeometry {
  poll: Poll | null;
}

/** A poll sticker's drawn box: its intrinsic size × scale, the text scale from its size. */
export const pollBox = (sticker: PollStickerLike): PollBox => layerBox(sticker, POLL_SIZE);

/**
 * What a poll sticker draws for the render's values: results when the poll shows them and the
 * render passed counts ({@link POLL_RESULTS_VALUE}), else the options alone. Undefined for a
 * sticker without poll settings.
 */
export function pollStickerDrawing(
  sticker: PollStickerLike,
  values: Readonly<Record<string, string>>,
): (PollDrawing & { box: PollBox }) | undefined {
  const { poll } = sticker;
  if (!poll) return undefined;
  const box = pollBox(sticker);
  const counts = poll.show_results
    ? parsePollCounts(values[POLL_RESULTS_VALUE], poll.options.length)
    : undefined;
  return { box, ...pollLayers(poll, box, counts) };
}

/**
 * The counts of a poll's tally item (functions/lib/db/entities-polls.ts `PollTally`: `o0` … `o5`),
 * one per option; missing or odd counts read as 0.
 */
export function tallyCounts(
  row: Readonly<Record<string, unknown>> | null,
  options: number,
): number[] {
  return Array.from({ length: Math.min(options, POLL_OPTIONS.max) }, (_, i) => {
    const n = row?.[`o${i}`];
    return typeof n === 'number' && n > 0 ? Math.floor(n) : 0;
  });
}
