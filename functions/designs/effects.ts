/**
 * `PUT /api/pic-snippet/{id}/effects` (spec 000 §7: "enhance or filters maps (name to value)"):
 * the base photo's filters and enhancements, each map replacing the stored one.
 *
 * Names and ranges are spec 000 §3's, from `shared/effects.ts` (the same list
 * shared/scene/filters.ts draws, without loading fabric).
 */
import { z } from 'zod';

import { ENHANCE_RANGES, FILTER_NAMES, type EnhanceName } from '#shared/effects.ts';

export { ENHANCE_RANGES, FILTER_NAMES };

/** A filter value: on/off, also as 1/0 (the spec's entries of text and value). */
const FilterValue = z
  .union([z.boolean(), z.literal(0), z.literal(1)])
  .transform((v) => v === true || v === 1);

/** The body of the effects call: either map, or both. */
export const EffectsSchema = z.object({
  filters: z
    .record(z.string(), FilterValue)
    .superRefine((map, ctx) => {
      for (const name of Object.keys(map)) {
        if (!(FILTER_NAMES as readonly string[]).includes(name)) {
          ctx.addIssue({ code: 'custom', path: [name], message: `The filter ${name} is unknown.` });
        }
      }
    })
    .optional(),
  enhance: z
    .record(z.string(), z.number({ error: 'An enhancement value must be a number.' }))
    .superRefine((map, ctx) => {
      for (const [name, value] of Object.entries(map)) {
        const range = ENHANCE_RANGES[name as EnhanceName] as readonly [number, number] | undefined;
        if (!range) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `The enhancement ${name} is unknown.`,
          });
        } else if (value < range[0] || value > range[1]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `The ${name} must be between ${range[0]} and ${range[1]}.`,
          });
        }
      }
    })
    .optional(),
});
