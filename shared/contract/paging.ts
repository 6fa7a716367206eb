/**
 * The `?page=` of the library lists (docs/adr/0019-design-api-shapes.md "Design API shapes": "GET
 * /getGlobalImages (page)", "POST /getStickers … optional ?page=";
 * docs/adr/0044-the-api-contract.md "The API contract"): a whole number from 1, default 1, with
 * field messages. The templates, bundles, images and stickers contracts extend it.
 */
import { z } from 'zod';

/** `?page=`: 1 to 10 000, default 1 (the query string's text coerced). */
export const PageQuery = z.object({
  page: z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be at least 1.')
    .max(10_000, 'The page may not be greater than 10000.')
    .default(1),
});

/**
 * One page of a list read whole and cut (Laravel's length-aware paginator:
 * docs/adr/0019-design-api-shapes.md "Design API shapes" `data`, `last_page`): pages from 1,
 * `last_page` at least 1.
 */
export function lengthAwarePage<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  });
}
