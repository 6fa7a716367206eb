/**
 * Pure countdown timer logic of the editor (docs/editor.md "Countdown timer"): a new timer's
 * settings, the panel's fields to and from the stored settings (a wall-clock deadline split into
 * date and time, an evergreen duration into days, hours and minutes), checking a change against
 * the shared schema (shared/scene/countdown.ts `CountdownSchema`, the render's own), and what
 * the preview shows at a moment. No fabric, no DOM; test/unit/editor-countdown.test.ts.
 *
 * Units: ms since the epoch for moments, whole seconds for durations.
 */
import {
  COUNTDOWN_UNIT_LAYOUTS,
  CountdownSchema,
  countdownEnd,
  countdownStartInstant,
  countsFromFirstOpen,
  isTimeZone,
  secondsLeft,
  zonedInstant,
  type Countdown,
  type CountdownUnitLayout,
} from '#shared/scene/countdown.ts';
import { TZDate } from '@date-fns/tz';
import { patchedSettings } from './patchedSettings.ts';

/** The unit layouts as the panel names them, largest unit first. */
export const UNIT_LAYOUT_LABELS: Record<CountdownUnitLayout, string> = {
  dhms: 'DD:HH:MM:SS',
  hms: 'HH:MM:SS',
  ms: 'MM:SS',
  dhm: 'DD:HH:MM',
  dh: 'DD:HH',
  d: 'DD',
};
export { COUNTDOWN_UNIT_LAYOUTS };

/** How far ahead a new timer's deadline is: 7 days, at the next whole hour. */
const NEW_DEADLINE_DAYS = 7;

/** The browser's IANA time zone, or UTC when it names none this runtime knows. */
export function localTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/**
 * The IANA time zones the panel offers (`Intl.supportedValuesOf`), with `current` and UTC
 * always among them (a stored zone this browser does not list stays choosable).
 */
export function timeZoneOptions(current: string): string[] {
  const listed =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = new Set([...listed, 'UTC', current]);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** `YYYY-MM-DDTHH:mm`, the wall time of `ms` in `zone` (@date-fns/tz). */
export function wallTimeIn(ms: number, zone: string): string {
  const d = new TZDate(ms, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * A new timer's settings: the schema's defaults, counting down to 7 days from `nowMs` at the
 * next whole hour in `zone` (the user's own), so a new timer ticks at once.
 */
export function newCountdown(nowMs: number, zone: string): Countdown {
  const hour = 3_600_000;
  const end = Math.ceil((nowMs + NEW_DEADLINE_DAYS * 24 * hour) / hour) * hour;
  return CountdownSchema.parse({ deadline: wallTimeIn(end, zone), timeZone: zone });
}

/** The deadline's date (`YYYY-MM-DD`) and time (`HH:mm`) fields. */
export const deadlineParts = (deadline: string): { date: string; time: string } => {
  const [date = '', time = ''] = deadline.split('T');
  return { date, time: time.slice(0, 5) };
};

/** The deadline of a date and a time field (`YYYY-MM-DD`, `HH:mm`). */
export const deadlineOf = (date: string, time: string): string => `${date}T${time}`;

/** An evergreen duration as days, hours and minutes (seconds dropped: the panel has none). */
export function durationParts(seconds: number): { days: number; hours: number; minutes: number } {
  return {
    days: Math.floor(seconds / 86_400),
    hours: Math.floor((seconds % 86_400) / 3_600),
    minutes: Math.floor((seconds % 3_600) / 60),
  };
}

/** Seconds of days, hours and minutes (each a whole, non-negative number). */
export const durationOf = (p: { days: number; hours: number; minutes: number }): number =>
  Math.max(0, Math.round(p.days)) * 86_400 +
  Math.max(0, Math.round(p.hours)) * 3_600 +
  Math.max(0, Math.round(p.minutes)) * 60;

/** A change of a timer's settings: any of its fields (labels whole). */
export type CountdownPatch = Partial<Countdown>;

/**
 * The settings after `patch`, or the problems with them by field (`deadline`, `frames`, …,
 * `labels.d`): the shared schema's checks and messages, so the editor refuses what the API
 * would (test/integration/countdown-sticker.test.ts).
 */
export function patchedCountdown(
  current: Countdown,
  patch: CountdownPatch,
): { ok: true; countdown: Countdown } | { ok: false; errors: Record<string, string> } {
  const next = patchedSettings(CountdownSchema, current, patch);
  return next.ok ? { ok: true, countdown: next.value } : next;
}

/**
 * Seconds left of a timer at `nowMs` in the editor: as the render counts them
 * (`countdownEnd`), an evergreen timer without a usable start, or one that counts from the first
 * open, counting from `openedMs` (when the editor opened), as a recipient's GIF counts from its
 * open.
 */
export function previewSecondsLeft(
  countdown: Countdown,
  nowMs: number,
  startValue: string,
  openedMs: number,
): number {
  const fromOpen =
    countdown.mode === 'evergreen' &&
    (countsFromFirstOpen(countdown) ||
      countdownStartInstant(startValue, countdown.timeZone) === undefined);
  const start = fromOpen ? new Date(openedMs).toISOString() : startValue;
  return secondsLeft(countdownEnd(countdown, nowMs, start), nowMs);
}

/**
 * The deadline as the user's browser reads it (`Mon, 1 Jun 2031, 18:30 CEST`), to check the
 * zone, or null when the settings name no instant.
 */
export function deadlineInLocalTime(countdown: Countdown, locale?: string): string | null {
  try {
    return new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(zonedInstant(countdown.deadline, countdown.timeZone));
  } catch {
    return null;
  }
}
