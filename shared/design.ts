/**
 * The design document (a "PicSnippet", docs/adr/0014-the-design-document-versions-and-restore.md
 * "The design document: versions and restore") as zod schemas: the saved data of a design, never
 * fabric's `toObject()` output (docs/adr/0014-the-design-document-versions-and-restore.md "The
 * design document: versions and restore", "the scene is data"). The render service and the editor
 * both draw from it through `shared/scene`.
 *
 * **Document versus record.** A design is one DynamoDB item (docs/adr/0019-design-api-shapes.md
 * "Design API shapes", `functions/lib/db/entities.ts` `Design`). Its identity and bookkeeping live
 * on the item, not here: `designId`, `teamId`, `title`, `status`, `isTemplate`, `counter` (views),
 * `createdAt`, `updatedAt`, `archivedAt`, `publicId` (from which `base_url`, `showurl`, `editurl`,
 * `archiveurl` and `unarchiveurl` are derived) and `version` (the optimistic lock). This module
 * describes the item's `document` attribute: what is drawn (base image, canvas, text snippets with
 * their parameters, stickers) and the export settings.
 *
 * **Versions.** The document carries `schemaVersion`; the ordered migrations live beside the
 * schemas in `shared/design-migrations.ts`. Every load goes through `restoreDesign`, which
 * migrates, validates and repairs (docs/adr/0014-the-design-document-versions-and-restore.md "The
 * design document: versions and restore", "One restore path for untrusted data").
 *
 * **Parts.** The schemas live by part in `shared/design/`: `bounds.ts` (defaults, the design
 * bounds and their messages), `text-snippet.ts` (parameters, text transforms, snippets),
 * `sticker.ts`, `document.ts` (the document's fields, a new design's document) and `restore.ts`
 * (the restore path and its repairs); this module re-exports them, so importers name one path.
 *
 * Units: geometry in canvas px, angles in degrees, font sizes in px.
 */
export { CURRENT_SCHEMA_VERSION, DESIGN_MIGRATIONS } from './design-migrations.ts';
export * from './design/bounds.ts';
export * from './design/text-snippet.ts';
export * from './design/sticker.ts';
export * from './design/document.ts';
export * from './design/restore.ts';
