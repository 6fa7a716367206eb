/**
 * The settings of the stickers drawn from settings (countdown timers, polls, weather) are checked
 * by their shared schemas in the editor as in the API (docs/editor.md "Countdown timer", "Poll",
 * "Weather"); this gives a change's result or its problems by field. Pure.
 */
import type { z } from 'zod';

/**
 * `schema` parsed over `{...current, ...patch}`: the settings, or the first message per field
 * path (`frames`, `options.1.url`, `fallback_text`; `_` for the whole).
 */
export function patchedSettings<S extends object>(
  schema: z.ZodType<S>,
  current: S,
  patch: Partial<S>,
): { ok: true; value: S } | { ok: false; errors: Record<string, string> } {
  const parsed = schema.safeParse({ ...current, ...patch });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.join('.') || '_'] ??= issue.message;
  return { ok: false, errors };
}
