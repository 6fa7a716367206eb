/**
 * `PUT /api/pic-snippet/{id}/effects` (docs/adr/0019-design-api-shapes.md "Design API shapes":
 * "enhance or filters maps (name to value)"): the base photo's filters and enhancements, each map
 * replacing the stored one.
 *
 * Names and ranges are docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore"'s, from `shared/effects.ts` (the same list
 * shared/scene/filters.ts draws, without loading fabric).
 */
import { ENHANCE_RANGES, FILTER_NAMES } from '#shared/effects.ts';

export { ENHANCE_RANGES, FILTER_NAMES };

export { EffectsSchema } from '#shared/contract/designs.ts';
