/**
 * The libraries: library images, sticker packs, stickers, uploaded stickers, favourites and custom
 * fonts (docs/adr/0017-user-files.md "User files").
 */
import { Entity } from 'electrodb';
import { type EntityKit, SERVICE, gsi, now } from './entity-kit.ts';

/** Builds these entities against one table. */
export function libraryEntities({ opts, primary }: EntityKit) {
  const LibraryImage = new Entity(
    {
      model: { entity: 'image', version: '1', service: SERVICE },
      attributes: {
        imageId: { type: 'string', required: true },
        /** `global` for the library, else the owning team id. */
        scope: { type: 'string', required: true },
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        contentType: { type: 'string', required: true },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        bytes: { type: 'number', required: true },
        title: { type: 'string', required: true },
        author: { type: 'string' },
        /** The photographer's page, for the attribution link (stock photos). */
        authorUrl: { type: 'string' },
        licence: { type: 'string' },
        /**
         * Search words an admin gives a global library photo in the kiosk (lower case;
         * functions/kiosk/library.ts, docs/kiosk.md "The global image library").
         */
        tags: { type: 'list', items: { type: 'string' } },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['imageId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byScope: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['scope'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'imageId'] },
        },
      },
    },
    opts,
  );

  /**
   * A sticker pack of the library (docs/adr/0014-the-design-document-versions-and-restore.md "The
   * design document: versions and restore": "Sticker pack": id, pack_name, cover_image;
   * docs/adr/0021-sticker-library.md "Sticker library"). Packs are global; `status` is `removed`
   * once an admin removes one (docs/adr/0044-the-api-contract.md "The API contract" Kiosk packs),
   * which hides it and its stickers from every list.
   */
  const StickerPack = new Entity(
    {
      model: { entity: 'stickerpack', version: '1', service: SERVICE },
      attributes: {
        packId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** Order of the pack in the library, ascending. */
        position: { type: 'number', required: true, padding: { length: 6, char: '0' } },
        /** Assets-bucket key of the cover image (a thumbnail under `files/`). */
        coverKey: { type: 'string', required: true },
        stickerCount: { type: 'number', required: true },
        /** Where the artwork comes from and under which licence, e.g. `Twemoji, CC BY 4.0`. */
        attribution: { type: 'string', required: true },
        status: { type: ['active', 'removed'] as const, required: true, default: 'active' },
        /** Hash of the seed definition the pack was built from (infra/local/seed-stickers.ts). */
        seedVersion: { type: 'string' },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['packId'] },
          sk: { ...primary.sk, composite: [] },
        },
        all: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: [] },
          sk: { field: gsi(1).sortKey, composite: ['position', 'packId'] },
        },
      },
    },
    opts,
  );

  /** A sticker of a pack (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore": "Sticker library items", type `icon`). */
  const Sticker = new Entity(
    {
      model: { entity: 'sticker', version: '1', service: SERVICE },
      attributes: {
        stickerId: { type: 'string', required: true },
        packId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        /** Search words besides the name (lower case). */
        keywords: { type: 'list', items: { type: 'string' }, default: () => [] },
        /** Assets-bucket keys under `files/`: the image drawn (512 px) and the picker's thumbnail. */
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        /** Order inside the pack, ascending. */
        position: { type: 'number', required: true, padding: { length: 6, char: '0' } },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['stickerId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byPack: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['packId'] },
          sk: { field: gsi(1).sortKey, composite: ['position', 'stickerId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's own sticker (docs/adr/0014-the-design-document-versions-and-restore.md "The design
   * document: versions and restore": "Upload": image_name, icon_url; `POST /image` with
   * `type=asIcon`), listed newest first.
   */
  const StickerUpload = new Entity(
    {
      model: { entity: 'stickerupload', version: '1', service: SERVICE },
      attributes: {
        stickerId: { type: 'string', required: true },
        teamId: { type: 'string', required: true },
        imageName: { type: 'string', required: true },
        key: { type: 'string', required: true },
        thumbKey: { type: 'string', required: true },
        /** An animated GIF upload's animated original, fitted as `key` (docs/editor.md "Animated GIF stickers"); absent for every other upload. */
        gifKey: { type: 'string' },
        /** px */
        width: { type: 'number', required: true },
        height: { type: 'number', required: true },
        bytes: { type: 'number', required: true },
        uploadedBy: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byId: {
          pk: { ...primary.pk, composite: ['stickerId'] },
          sk: { ...primary.sk, composite: [] },
        },
        byTeam: {
          index: gsi(1).indexName,
          pk: { field: gsi(1).partitionKey, composite: ['teamId'] },
          sk: { field: gsi(1).sortKey, composite: ['createdAt', 'stickerId'] },
        },
      },
    },
    opts,
  );

  /** A user's favourite pack, sticker or uploaded sticker (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" `is_favorite`). */
  const StickerFavorite = new Entity(
    {
      model: { entity: 'stickerfavorite', version: '1', service: SERVICE },
      attributes: {
        userId: { type: 'string', required: true },
        kind: { type: ['pack', 'icon', 'custom_sticker'] as const, required: true },
        targetId: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byUser: {
          pk: { ...primary.pk, composite: ['userId'] },
          sk: { ...primary.sk, composite: ['kind', 'targetId'] },
        },
      },
    },
    opts,
  );

  /**
   * A team's uploaded font (docs/adr/0014-the-design-document-versions-and-restore.md "The design
   * document: versions and restore" Fonts "custom font names and path";
   * docs/adr/0019-design-api-shapes.md "Design API shapes" `POST /storeFont`): one per team and
   * family (`familyKey`, the family name in lower case, so a second upload of a family is found).
   * The file is in the assets bucket at `key`.
   */
  const CustomFont = new Entity(
    {
      model: { entity: 'customfont', version: '1', service: SERVICE },
      attributes: {
        teamId: { type: 'string', required: true },
        familyKey: { type: 'string', required: true },
        family: { type: 'string', required: true },
        key: { type: 'string', required: true },
        format: { type: ['truetype', 'opentype', 'woff'] as const, required: true },
        bytes: { type: 'number', required: true },
        /** SHA-256 of the file, hex: the same file uploaded again is the same font. */
        sha256: { type: 'string', required: true },
        uploadedBy: { type: 'string', required: true },
        createdAt: { type: 'string', default: now, readOnly: true },
      },
      indexes: {
        byTeam: {
          pk: { ...primary.pk, composite: ['teamId'] },
          sk: { ...primary.sk, composite: ['familyKey'] },
        },
      },
    },
    opts,
  );

  return { LibraryImage, StickerPack, Sticker, StickerUpload, StickerFavorite, CustomFont };
}
