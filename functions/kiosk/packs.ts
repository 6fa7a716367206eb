/**
 * The kiosk's sticker packs (docs/kiosk.md "Sticker packs", docs/accounts.md "Error answers in the
 * SPA"): the library logic is the sticker library's (functions/stickers/kiosk-packs.ts), the
 * archive import functions/kiosk/pack-import.ts. Inputs and answers:
 * shared/contract/kiosk-packs.ts.
 */
import { json, route, type RouteDefinition } from '#lib/http.ts';
import {
  kioskPacksPage,
  kioskPackView,
  removePack,
  restorePack,
} from '#functions/stickers/kiosk-packs.ts';
import { StickerPageQuery } from '#functions/stickers/schemas.ts';
import { PACK_IMPORT_MESSAGES, PackIdBody, PackSearchBody } from '#shared/contract/kiosk-packs.ts';
import { importPack } from './pack-import.ts';

/** The kiosk's sticker pack routes, by route key. */
export const PACK_ROUTES: Record<string, RouteDefinition> = {
  'GET /packs/getPacks': route({
    query: StickerPageQuery,
    handle: async ({ query }) => json(200, await kioskPacksPage('', query.page)),
  }),

  'POST /packs/search': route({
    body: PackSearchBody,
    query: StickerPageQuery,
    handle: async ({ body, query }) =>
      json(200, await kioskPacksPage(body.search || body.query, query.page)),
  }),

  /** Multipart `archive`: a zip of SVG/PNG files and manifest.json (pack-import.ts). */
  'POST /packs/download': route({
    handle: async ({ body }) =>
      json(201, {
        success: true,
        message: PACK_IMPORT_MESSAGES.imported,
        pack: kioskPackView(await importPack(body)),
      }),
  }),

  'PATCH /packs/restorePack': route({
    body: PackIdBody,
    handle: async ({ body }) => json(200, await restorePack(body.packId)),
  }),

  'DELETE /packs/removePack': route({
    body: PackIdBody,
    handle: async ({ body }) => json(200, await removePack(body.packId)),
  }),
};
