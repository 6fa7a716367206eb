/**
 * The `?page=` of the library lists (spec 000 §7: "GET /getGlobalImages (page)", "POST
 * /getStickers … optional ?page="): a whole number from 1, default 1, with field messages.
 */
import { z } from 'zod';

export const PageQuery = z.object({
  page: z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be at least 1.')
    .max(10_000, 'The page may not be greater than 10000.')
    .default(1),
});
