/**
 * Pure poll logic of the editor (docs/editor.md "Poll"): checking a change of a poll's settings
 * against the shared schema (shared/scene/poll.ts `PollSchema`, the API's own), the sample
 * results the editor previews, and the one-poll-per-design rule. No fabric, no DOM.
 */
import type { DesignDocument } from '#shared/design.ts';
import { PollSchema, type Poll } from '#shared/scene/poll.ts';
import { patchedSettings } from './patchedSettings.ts';

/** The schema's refusal of a second poll (shared/design.ts; docs/polls.md "One poll per design"). */
export const ONE_POLL_MESSAGE = 'A design may have one poll.';

/** A change of a poll's settings: any of its fields (options whole). */
export type PollPatch = Partial<Poll>;

/** Whether `design` already holds a poll sticker. */
export const hasPoll = (design: DesignDocument): boolean =>
  design.graphics_data.some((s) => s.dynamicStickerType === 'poll');

/**
 * The settings after `patch`, or the problems with them by field (`question`, `options`,
 * `options.1.label`, `results_ttl_s`, …): the shared schema's checks and messages
 * (`POLL_MESSAGES`), so the editor refuses what the API would.
 */
export function patchedPoll(
  current: Poll,
  patch: PollPatch,
): { ok: true; poll: Poll } | { ok: false; errors: Record<string, string> } {
  const next = patchedSettings(PollSchema, current, patch);
  return next.ok ? { ok: true, poll: next.value } : next;
}

/** The sample votes the editor shows results with: 60 %, 40 %, then fewer for each next answer. */
const SAMPLE_COUNTS = [60, 40, 25, 15, 10, 5] as const;

/**
 * The counts the editor previews a poll with (one per answer), or undefined when the poll shows
 * no results, so the user sees how results will look (docs/editor.md "Poll").
 */
export const samplePollCounts = (poll: Poll): number[] | undefined =>
  poll.show_results ? poll.options.map((_, i) => SAMPLE_COUNTS[i] ?? 5) : undefined;

/**
 * The answers with the one at `from` moved to `to` (both 0-based; either outside the list: the
 * answers unchanged). Votes are counted by place (docs/polls.md "Voting"), so the panel says to
 * order the answers before the e-mail is sent.
 */
export function movedOption(options: Poll['options'], from: number, to: number): Poll['options'] {
  if (from === to || from < 0 || to < 0 || from >= options.length || to >= options.length)
    return options;
  const next = options.filter((_, i) => i !== from);
  next.splice(to, 0, options[from]!);
  return next;
}

/**
 * The design's text parameters' names, each once, sorted: what can name a poll's voter (the
 * dynamic stickers' own parameters hold a place, a page or a start, not who the recipient is).
 */
export const textParameterNames = (design: DesignDocument): string[] =>
  [...new Set(design.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name)))].sort();
