/**
 * Countdown timers: the settings of a `countdown` dynamic sticker, the time math (what is left
 * at a moment) and the layout (which texts are drawn where). Pure and shared: the editor's live
 * preview and the render's GIF frames both draw the text layers `countdownLayers` returns with
 * the one text drawing path (shared/scene/draw.ts `fitTextLayer`), so both show the same digits
 * in the same places (docs/adr/0058-countdown-timers.md "Countdown timers";
 * test/unit/countdown.test.ts).
 *
 * Units: time in ms since the epoch (`nowMs`) or whole seconds (`remaining`), geometry in
 * canvas px, font sizes in px at the sticker's intrinsic size (scaled with the sticker).
 */
import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import type { ResolvedTextLayer } from './resolve.ts';
import type { LayerBox } from './sticker-layers.ts';

/** GIF frames of a timer: one a second, 30 by default, at most 60. */
export const COUNTDOWN_FRAMES = { default: 30, min: 1, max: 60 } as const;

/**
 * The most pixels all frames of one GIF may hold together (frames × width × height): 17 M, so a
 * 600×200 design keeps its 60 frames, the default 900×600 canvas its default 30, the largest
 * canvas (1056×4096) 3. Past it, fewer frames are drawn (never none): the encoder's memory and
 * CPU, which grow with every frame's whole canvas, stay bounded (docs/performance.md "Countdown
 * timers"). The editor says so when a timer asks for more (`framesThatFit`).
 */
export const MAX_GIF_PIXELS = 17_000_000;

/** How many frames a canvas of `width` × `height` px may have under {@link MAX_GIF_PIXELS} (≥ 1). */
export const framesThatFit = (width: number, height: number): number =>
  Math.max(1, Math.floor(MAX_GIF_PIXELS / Math.max(1, width * height)));
/** The longest evergreen duration, s (a year). */
export const MAX_COUNTDOWN_DURATION_S = 366 * 24 * 3600;
/** Unit layouts a timer may show, largest unit first; the largest absorbs what is above it. */
export const COUNTDOWN_UNIT_LAYOUTS = ['dhms', 'hms', 'ms', 'dhm', 'dh', 'd'] as const;
export type CountdownUnitLayout = (typeof COUNTDOWN_UNIT_LAYOUTS)[number];
type Unit = 'd' | 'h' | 'm' | 's';
const UNIT_SECONDS: Record<Unit, number> = { d: 86_400, h: 3_600, m: 60, s: 1 };

/** Whether `zone` is an IANA time-zone name this runtime knows (`Intl`). */
export function isTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A wall-clock date and time without zone: `YYYY-MM-DDTHH:mm` or `…:ss`. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const DEADLINE_MESSAGE = 'The deadline must be a date and time, YYYY-MM-DDTHH:mm.';
const DURATION_MESSAGE = `The duration must be a whole number of seconds from 1 to ${MAX_COUNTDOWN_DURATION_S}.`;
const FRAMES_MESSAGE = `The frames must be a whole number from ${COUNTDOWN_FRAMES.min} to ${COUNTDOWN_FRAMES.max}.`;
const LABEL_MESSAGE = 'A label may have at most 20 characters.';

/** Whether a `YYYY-MM-DDTHH:mm[:ss]` wall time names a real calendar day and time (no 2030-02-30). */
function isCalendarTime(wall: string): boolean {
  const m = WALL_TIME.exec(wall);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return (
    day.getUTCFullYear() === y &&
    day.getUTCMonth() === mo! - 1 &&
    day.getUTCDate() === d &&
    h! < 24 &&
    mi! < 60 &&
    s! < 60
  );
}

/**
 * The settings of a countdown sticker (docs/adr/0058-countdown-timers.md "Countdown timers"):
 * - `mode` `fixed`: counts down to `deadline` (wall-clock time) in `timeZone` (IANA);
 * - `mode` `evergreen`: counts `durationSeconds` from a start. `start` `param` (or absent: every
 *   document saved before the choice existed reads as before, so no migration) takes the moment
 *   in the sticker's parameter (an ISO 8601 date-time, e.g. a sign-up time; one without an
 *   offset is a wall time in `timeZone`); without a usable value, the render's now (the full
 *   duration shows). `start` `first_open` counts from the first open of the recipient's URL
 *   (the render keeps that instant per design and recipient);
 * - `units` which units show, `labels` under each (empty: no label row), `separator` between;
 * - `frames` of the animated GIF, one a second (1–60, default 30);
 * - `expired`: `text` shows `expiredText` in the timer's box, `hide` draws nothing there.
 * The style fields are the design's text styles (font family, weight, style, colour), sizes in
 * px at the sticker's intrinsic size.
 */
export const CountdownSchema = z.object({
  mode: z.enum(['fixed', 'evergreen']).default('fixed'),
  start: z
    .enum(['param', 'first_open'], { error: 'The start must be param or first_open.' })
    .optional(),
  deadline: z.string().refine(isCalendarTime, DEADLINE_MESSAGE).default('2030-01-01T00:00'),
  timeZone: z
    .string()
    .refine(isTimeZone, 'The time zone must be an IANA name, such as Europe/Paris.')
    .default('UTC'),
  durationSeconds: z
    .number()
    .int(DURATION_MESSAGE)
    .min(1, DURATION_MESSAGE)
    .max(MAX_COUNTDOWN_DURATION_S, DURATION_MESSAGE)
    .default(86_400),
  units: z
    .enum(COUNTDOWN_UNIT_LAYOUTS, {
      error: `The units must be one of ${COUNTDOWN_UNIT_LAYOUTS.join(', ')}.`,
    })
    .default('dhms'),
  labels: z
    .object({
      d: z.string().max(20, LABEL_MESSAGE).default('DAYS'),
      h: z.string().max(20, LABEL_MESSAGE).default('HOURS'),
      m: z.string().max(20, LABEL_MESSAGE).default('MINUTES'),
      s: z.string().max(20, LABEL_MESSAGE).default('SECONDS'),
    })
    .default({ d: 'DAYS', h: 'HOURS', m: 'MINUTES', s: 'SECONDS' }),
  showLabels: z.boolean().default(true),
  separator: z.string().max(3, 'The separator may have at most 3 characters.').default(':'),
  frames: z
    .number()
    .int(FRAMES_MESSAGE)
    .min(COUNTDOWN_FRAMES.min, FRAMES_MESSAGE)
    .max(COUNTDOWN_FRAMES.max, FRAMES_MESSAGE)
    .default(COUNTDOWN_FRAMES.default),
  expired: z.enum(['text', 'hide']).default('text'),
  expiredText: z
    .string()
    .max(100, 'The expired text may have at most 100 characters.')
    .default('This offer has ended'),
  fontFamily: z.string().min(1).max(100).default('Bebas Neue'),
  fontWeight: z.enum(['normal', 'bold']).default('normal'),
  fontStyle: z.enum(['normal', 'italic']).default('normal'),
  fill: z.string().min(1).max(40).default('#ffffff'),
  /** Digits, px at the intrinsic size (4–400). */
  fontSize: z.number().min(4).max(400).default(72),
  /** Labels, px at the intrinsic size (4–200). */
  labelFontSize: z.number().min(4).max(200).default(16),
});
export type Countdown = z.output<typeof CountdownSchema>;

/**
 * The instant of a wall-clock time in an IANA zone, ms since the epoch (@date-fns/tz `TZDate`).
 * A time skipped by a DST change (02:30 on a spring-forward night) is read as the same wall
 * time after the change (03:30); a repeated one (autumn) as its second occurrence, in
 * standard time (test/unit/countdown.test.ts).
 * @throws Error when `wall` is not `YYYY-MM-DDTHH:mm[:ss]` or the zone is unknown.
 */
export function zonedInstant(wall: string, timeZone: string): number {
  const m = WALL_TIME.exec(wall);
  if (!m || !isTimeZone(timeZone)) throw new Error(`not a zoned time: ${wall} ${timeZone}`);
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as number[];
  return new TZDate(y!, mo! - 1, d!, h!, mi!, s!, timeZone).getTime();
}

/**
 * The end of a timer, ms since the epoch: the zoned deadline (`fixed`), or `durationSeconds`
 * after the ISO date-time `startValue` (`evergreen`, read by {@link countdownStartInstant}; an
 * absent or unreadable value, or one in the future, starts at `nowMs`).
 */
export function countdownEnd(countdown: Countdown, nowMs: number, startValue?: string): number {
  if (countdown.mode === 'fixed') return zonedInstant(countdown.deadline, countdown.timeZone);
  const parsed = startValue ? countdownStartInstant(startValue, countdown.timeZone) : undefined;
  const start = parsed !== undefined && parsed <= nowMs ? parsed : nowMs;
  return start + countdown.durationSeconds * 1000;
}

/** An ISO 8601 date-time with an offset (`Z`, `+02:00`, `+0200`), seconds and fraction optional. */
const OFFSET_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
/** A date alone, `YYYY-MM-DD`: midnight. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant an evergreen start value names, ms since the epoch, or `undefined` when it names
 * none (docs/adr/0058-countdown-timers.md "Countdown timers"; test/unit/countdown.test.ts):
 * - with an offset (`2026-11-24T10:00:00Z`, `…+02:00`): that instant;
 * - without one (`2026-11-24T10:00[:ss]`, or a date alone, read as midnight): the wall time in
 *   `timeZone`, the sticker's zone (never the machine's, which is UTC on Lambda);
 * - a value with a fraction but no offset, a non-calendar day or time (`2026-02-30`), or any
 *   other text (`tomorrow`, `Nov 24 2026`): none; the timer then counts from the render's now.
 */
export function countdownStartInstant(value: string, timeZone: string): number | undefined {
  const text = value.trim();
  if (text.length > 40) return undefined;
  const wall = DATE_ONLY.test(text) ? `${text}T00:00` : text;
  if (WALL_TIME.test(wall)) {
    if (!isCalendarTime(wall) || !isTimeZone(timeZone)) return undefined;
    return zonedInstant(wall, timeZone);
  }
  if (!OFFSET_TIME.test(text) || !isCalendarTime(text.slice(0, 16))) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Whether an evergreen timer counts from the recipient's first open (`start` `first_open`). */
export const countsFromFirstOpen = (countdown: Countdown): boolean =>
  countdown.mode === 'evergreen' && countdown.start === 'first_open';

/**
 * Whole seconds left at `nowMs` (rounded up, so a timer shows 00:00:01 until the last second
 * has passed), or 0 when expired.
 */
export const secondsLeft = (endMs: number, nowMs: number): number =>
  Math.max(0, Math.ceil((endMs - nowMs) / 1000));

/** One unit cell of a timer: its digits and label. */
export interface CountdownCell {
  unit: Unit;
  digits: string;
  label: string;
}

/**
 * The cells shown for `remaining` seconds: each unit of the layout, largest first; the largest
 * unit holds everything above it (`hms` shows 72 hours for 3 days), each at least two digits.
 */
export function countdownCells(countdown: Countdown, remaining: number): CountdownCell[] {
  const units = [...countdown.units] as Unit[];
  let rest = Math.max(0, Math.floor(remaining));
  return units.map((unit) => {
    const size = UNIT_SECONDS[unit];
    const value = Math.floor(rest / size);
    rest -= value * size;
    return { unit, digits: String(value).padStart(2, '0'), label: countdown.labels[unit] };
  });
}

/** The timer as one line, e.g. `02:04:09:37` (tests, accessible names). */
export const countdownText = (countdown: Countdown, remaining: number): string =>
  countdownCells(countdown, remaining)
    .map((c) => c.digits)
    .join(countdown.separator);

/** A countdown sticker's drawn box, canvas px, and its scale (intrinsic px → canvas px). */
export type CountdownBox = LayerBox;

/**
 * The text layers of a timer with `remaining` seconds left (0: expired), in canvas px, ready for
 * `fitTextLayer`: per unit a digits layer centred in its cell and a label layer under it, with
 * the separator centred between cells; expired, the expired text centred in the box, or nothing
 * (`hide`). Cells have fixed places (the box split evenly), so digits never move between frames.
 */
export function countdownLayers(
  countdown: Countdown,
  box: CountdownBox,
  remaining: number,
): ResolvedTextLayer[] {
  const size = countdown.fontSize * box.scale;
  const labelSize = countdown.labelFontSize * box.scale;
  const layer = (
    id: string,
    text: string,
    left: number,
    top: number,
    width: number,
    fontSize: number,
  ): ResolvedTextLayer => ({
    id: `${box.id}:${id}`,
    text,
    left,
    top,
    width: Math.max(1, width),
    fontFamily: countdown.fontFamily,
    fontWeight: countdown.fontWeight,
    fontStyle: countdown.fontStyle,
    underline: false,
    textAlign: 'center',
    angle: 0,
    fill: countdown.fill,
    stroke: null,
    strokeWidth: 0,
    fontSize,
    minFontSize: fontSize,
  });
  if (remaining <= 0) {
    if (countdown.expired === 'hide' || countdown.expiredText.trim() === '') return [];
    return [
      layer(
        'expired',
        countdown.expiredText,
        box.left,
        box.top + (box.height - size) / 2,
        box.width,
        size,
      ),
    ];
  }
  const cells = countdownCells(countdown, remaining);
  const labels = countdown.showLabels && cells.some((c) => c.label.trim() !== '');
  const sepWidth = countdown.separator === '' ? 0 : size * 0.4 * countdown.separator.length;
  const cellWidth = (box.width - sepWidth * (cells.length - 1)) / cells.length;
  const blockHeight = size * 1.16 + (labels ? labelSize * 1.3 : 0);
  const top = box.top + (box.height - blockHeight) / 2;
  const out: ResolvedTextLayer[] = [];
  cells.forEach((cell, i) => {
    const left = box.left + i * (cellWidth + sepWidth);
    out.push(layer(cell.unit, cell.digits, left, top, cellWidth, size));
    if (labels && cell.label.trim() !== '')
      out.push(
        layer(`${cell.unit}-label`, cell.label, left, top + size * 1.16, cellWidth, labelSize),
      );
    if (i < cells.length - 1 && sepWidth > 0)
      out.push(layer(`sep${i}`, countdown.separator, left + cellWidth, top, sepWidth, size));
  });
  return out;
}

/**
 * What a render shows of a timer at `nowMs`: the seconds left at each of `frames` frames, one a
 * second (frame k is `nowMs + k` s), the last ones 0 once the deadline passes within the GIF.
 * @param frames at most {@link COUNTDOWN_FRAMES}.max; fewer when the caller's pixel cap says so.
 */
export function countdownFrames(
  countdown: Countdown,
  nowMs: number,
  frames: number,
  startValue?: string,
): number[] {
  const end = countdownEnd(countdown, nowMs, startValue);
  const n = Math.max(1, Math.min(COUNTDOWN_FRAMES.max, Math.floor(frames)));
  return Array.from({ length: n }, (_, k) => secondsLeft(end, nowMs + k * 1000));
}
