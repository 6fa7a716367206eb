/**
 * The kiosk's sticker packs (spec 001 §7, §8): the logic is the sticker library's
 * (functions/stickers/kiosk-packs.ts).
 */
import { z } from 'zod';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { kioskPacksPage, removePack, restorePack } from '#functions/stickers/kiosk-packs.ts';
import { IdField, SearchText, StickerPageQuery } from '#functions/stickers/schemas.ts';

/** The kiosk's sticker pack routes, by route key. */
export const PACK_ROUTES: Record<string, RouteDefinition> = {
  'GET /packs/getPacks': route({
    query: StickerPageQuery,
    handle: async ({ query }) => json(200, await kioskPacksPage('', query.page)),
  }),

  'POST /packs/search': route({
    // `search`, or `query` as the kiosk's team search names it.
    body: z.object({ search: SearchText, query: SearchText }),
    query: StickerPageQuery,
    handle: async ({ body, query }) =>
      json(200, await kioskPacksPage(body.search || body.query, query.page)),
  }),

  'PATCH /packs/restorePack': route({
    body: z.object({ packId: IdField('pack') }),
    handle: async ({ body }) => json(200, await restorePack(body.packId)),
  }),

  'DELETE /packs/removePack': route({
    body: z.object({ packId: IdField('pack') }),
    handle: async ({ body }) => json(200, await removePack(body.packId)),
  }),
};
