/**
 * The API shapes of a design (docs/adr/0014-the-design-document-versions-and-restore.md "The design
 * document: versions and restore" PicSnippet): the full design for the editor and the show page,
 * and the card for the dashboard lists (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "A card
 * shows preview image, title, created date and views count"). URLs are derived from ids, never
 * stored.
 */
import { config } from '#lib/config.ts';
import { cacheIdOf } from '#functions/render/service.ts';
import { parseDesignDocument } from '#shared/design.ts';
import type { DesignRecord } from './store.ts';

/** Prefix of user files in the assets bucket, served at `/files/{key}` (functions/lib/uploads.ts). */
const SERVED_PREFIX = 'files/';

/** The URLs of a design, derived from its ids (docs/adr/0019-design-api-shapes.md "Design API shapes"). */
export interface DesignUrls {
  /** The render URL `${PUBLIC_URL}/r/{publicId}` (docs/adr/0004-render-slice.md "Render slice"; absolute: it goes into e-mails). */
  base_url: string;
  /**
   * The render of the current version for the product's own pages, cached for a year
   * (`/r/{publicId}/v{version}?__preview=1`: not counted as a view).
   */
  preview_url: string;
  /** SPA page paths and API paths, relative to the product's origin. */
  showurl: string;
  editurl: string;
  archiveurl: string;
  unarchiveurl: string;
}

/** The render URL of a public id (shared/render-url.ts parses what this builds). */
export const renderUrlOf = (publicId: string): string =>
  `${config().PUBLIC_URL.replace(/\/$/, '')}/r/${publicId}`;

/** The URLs of a design (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `base_url`, `showurl`, `editurl`, `archiveurl`, `unarchiveurl`). */
export function designUrls(record: Pick<DesignRecord, 'designId' | 'publicId' | 'version'>) {
  const id = encodeURIComponent(record.designId);
  const base = renderUrlOf(record.publicId);
  const urls: DesignUrls = {
    base_url: base,
    preview_url: `${base}/${cacheIdOf(record.version)}?__preview=1`,
    showurl: `/pic-snippet/${id}`,
    editurl: `/pic-snippet/${id}/edit`,
    archiveurl: `/api/pic-snippet/${id}/archive`,
    unarchiveurl: `/api/pic-snippet/${id}/unarchive`,
  };
  return urls;
}

/**
 * The URL the browser loads the base photo from: keys under `files/` (uploads, crops and the
 * global library) are served at `/files/{key}`; any other key is not served, so null.
 */
export function baseImageUrl(key: string): string | null {
  return key.startsWith(SERVED_PREFIX) ? `${config().PUBLIC_URL.replace(/\/$/, '')}/${key}` : null;
}

/** The metadata every shape carries. */
function meta(record: DesignRecord) {
  return {
    id: record.designId,
    public_id: record.publicId,
    title: record.title,
    version: record.version,
    status: record.status,
    isTemplate: record.isTemplate ?? false,
    /** Views (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `counter`): opens, mail proxies' fetches apart. */
    counter: record.counter ?? 0,
    /** Mail proxies' fetches (functions/render/service.ts `ViewCounter`). */
    proxy_fetches: record.proxyFetches ?? 0,
    counted_at: record.countedAt ?? null,
    /** The campaign (docs/analytics.md "Campaigns"); stored as '' when cleared. */
    campaign: record.campaign || null,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    archived_at: record.archivedAt ?? null,
    ...designUrls(record),
  };
}

/**
 * The full design (docs/adr/0014-the-design-document-versions-and-restore.md "The design document:
 * versions and restore" PicSnippet): metadata, derived URLs, and the document's fields at the top
 * level (`canvas_width`, `text_snippets`, `graphics_data`, `enhance`, `filters`, …) with its
 * defaults applied. `enhance` and `filters` are objects (the spec's "JSON text" is the old storage
 * form; docs/adr/0019-design-api-shapes.md "Design API shapes").
 * @throws ZodError when the stored document is invalid (a 500: stored data is validated on
 *   every write).
 */
export function designView(record: DesignRecord) {
  const document = parseDesignDocument(record.document);
  return {
    ...document,
    ...meta(record),
    base_image_url: baseImageUrl(document.base_image_key),
  };
}
export type DesignView = ReturnType<typeof designView>;

/** A dashboard card: the metadata and URLs, without the document (lists stay small). */
export function designCard(record: DesignRecord) {
  return meta(record);
}
export type DesignCard = ReturnType<typeof designCard>;
