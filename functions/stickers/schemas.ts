/**
 * Request schemas shared by the sticker calls and the kiosk's pack calls: `?page=` and the
 * optional `{ search }` body (docs/adr/0021-sticker-library.md "Sticker library": "optional search
 * body, optional ?page="). They are the stickers contract's (shared/contract/stickers.ts), named
 * here for the kiosk.
 */
export { IdField, SearchText, StickerPageQuery } from '#shared/contract/stickers.ts';
