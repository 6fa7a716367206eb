/**
 * The base photos of rule variants in a full save (docs/rules.md "Variants"): the save names an
 * image by `image_id` only; its key and size come from the image the team may use, as
 * `PUT …/replace` resolves them, so no save can point the render at another key of the assets
 * bucket (test/integration/render-rules.test.ts).
 */
import { isRecord } from '#shared/design-migrations.ts';
import { RULE_BOUNDS } from '#shared/scene/rules.ts';
import { findBaseImage } from './base-images.ts';

/**
 * The sent `rules` with every variant's `base_image` resolved from its `image_id`; anything not
 * shaped like a rule list is returned unchanged, for the schema to refuse.
 * @throws AppError 422 `rules.{i}.variant.base_image` when the team may not use the image.
 */
export async function withRuleImages(teamId: string | undefined, rules: unknown): Promise<unknown> {
  if (!Array.isArray(rules) || rules.length > RULE_BOUNDS.rules) return rules;
  return Promise.all(
    rules.map(async (rule: unknown, i) => {
      if (!isRecord(rule) || !isRecord(rule.variant)) return rule;
      const sent = rule.variant.base_image;
      if (!isRecord(sent) || typeof sent.image_id !== 'string') return rule;
      const image = await findBaseImage(
        teamId ?? '',
        sent.image_id,
        `rules.${i}.variant.base_image`,
      );
      return {
        ...rule,
        variant: {
          ...rule.variant,
          base_image: {
            image_id: image.imageId,
            base_image_key: image.key,
            image_width: image.width > 0 ? image.width : null,
            image_height: image.height > 0 ? image.height : null,
          },
        },
      };
    }),
  );
}
