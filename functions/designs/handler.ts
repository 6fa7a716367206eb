/**
 * The `designs` feature (docs/adr/0019-design-api-shapes.md "Design API shapes": "Dashboard lists"
 * and "Design actions"): the team's lists, creating, reading and saving a design, archive and
 * activate, clone, the base photo, effects, options, stickers, and the cropped image.
 *
 * Every call reads the design through the caller's CURRENT team (store.ts `loadDesign`: 404 for
 * another team's id) and writes through the versioned write (store.ts `updateDesign`). Each
 * write accepts an optional `version`: with it, a stale call gets 409 `{ message, version }`.
 * Write answers carry `{ success: true, version, title, updated_at }` plus what the spec names
 * for the call (docs/adr/0019-design-api-shapes.md "Design API shapes").
 *
 * The export screen's calls (`provider`, `choices`, `link`, docs/export.md "Saves") are in
 * export.ts.
 */
import type { AuthContext } from '#lib/auth.ts';
import { validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiResult } from '#lib/http.ts';
import {
  canvasForPhoto,
  DesignDocumentFieldsSchema,
  parseDesignDocument,
  TextSnippetSchema,
  type DesignDocument,
} from '#shared/design.ts';
import {
  CreateDesignBody,
  EffectsBody,
  GeneratedStickerBody,
  GravatarMailBody,
  OptionsBody,
  QrCodeBody,
  QrCodeColorBody,
  ReplaceBody,
  SaveDesignBody,
  SaveImageIdBody,
  SaveSnippetsBody,
  ScreenShotTypeBody,
  StatusBody,
} from '#shared/contract/designs.ts';
import { findBaseImage, type BaseImage } from './base-images.ts';
import { cloneDesign, createDesign } from './create.ts';
import { saveCroppedImage } from './cropped-image.ts';
import { exportRoutes, linkChange } from './export.ts';
import { signingRoutes } from './signing.ts';
import { campaignRoutes } from './campaigns.ts';
import { pollRoutes } from './polls.ts';
import { webCropPreviewRoutes } from './web-crop-preview.ts';
import { ListQuerySchema, listDesigns, teamList } from './lists.ts';
import { assertQrCode, changeSticker, saveGeneratedSticker, withFallback } from './stickers.ts';
import {
  assertTeamNotFrozen,
  currentTeam,
  loadDesign,
  updateDesign,
  type DesignChange,
  type DesignRecord,
} from './store.ts';
import { assertDesignRoom, assertMayChangeStatus } from '#domain/team-permissions.ts';
import { designEventData, emitWebhookEvent } from '#domain/webhooks.ts';
import { withRuleImages } from './rule-images.ts';
import { titleChange } from './titles.ts';
import { designCard, designView } from './views.ts';
import { analyticsReport } from '#functions/analytics/report.ts';
import { AnalyticsQuerySchema } from '#shared/contract/analytics.ts';

/** The document fields a full save may send (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" PicSnippet content). */
const DOCUMENT_FIELDS = Object.keys(DesignDocumentFieldsSchema.shape);

/** `{ success, version, title, updated_at }` plus the call's own fields. */
function written(record: DesignRecord, extra: Record<string, unknown> = {}): ApiResult {
  return json(200, {
    success: true,
    version: record.version,
    title: record.title,
    updated_at: record.updatedAt,
    ...extra,
  });
}

/** A versioned write of the design `{id}` of the caller's team, answered by `written`. */
async function write(
  auth: AuthContext,
  designId: string,
  version: number | undefined,
  change: DesignChange,
): Promise<ApiResult> {
  // `design.saved` only when something was written: an autosave that changed nothing (the
  // change answers null) keeps its version and tells no endpoint
  // (test/integration/webhooks.test.ts).
  let wrote = false;
  const record = await updateDesign(currentTeam(auth), designId, version, async (current) => {
    const changes = await change(current);
    wrote = changes !== null;
    return changes;
  });
  if (wrote) await emitWebhookEvent(record.teamId, 'design.saved', designEventData(record));
  return written(record);
}

/**
 * Refuses a full save that moves the base photo: the photo changes through `replace` and
 * `saveImageId`, which check that the team may use the image; a full save could otherwise point
 * the render at any key of the assets bucket.
 * @throws AppError 422 (`image_id`).
 */
function assertSameBaseImage(current: DesignDocument, sent: Record<string, unknown>): void {
  const moved = (['image_id', 'base_image_key'] as const).some(
    (key) => sent[key] !== undefined && sent[key] !== current[key],
  );
  if (moved) {
    throw validationFailed({
      image_id: ['The base image changes through PUT /api/pic-snippet/{id}/replace.'],
    });
  }
}

/**
 * A full save's document with its link checked and normalised as `PUT …/link` does
 * (export.ts `linkChange`: http(s) only, `https://` added, at most 2048 characters), so a full
 * save cannot store a `javascript:` link the export screen would write into HTML. A link sent
 * as stored is kept as it is: it is no change (and refusing it would block every editor save).
 * A link that is not a string or null is left for the schema to refuse.
 * @throws AppError 422 `html_link_url` with the link route's message.
 */
function withSentLink(document: DesignDocument, stored: DesignDocument): DesignDocument {
  const sent: unknown = document.html_link_url;
  if (sent === stored.html_link_url || (typeof sent !== 'string' && sent !== null)) return document;
  const changed = linkChange(stored, sent);
  return { ...document, html_link_url: changed ? changed.html_link_url : stored.html_link_url };
}

/** The document with a new base photo (image id, key and the photo's own size). */
function withBaseImage(document: DesignDocument, image: BaseImage): DesignDocument {
  return {
    ...document,
    image_id: image.imageId,
    base_image_key: image.key,
    image_width: image.width > 0 ? image.width : null,
    image_height: image.height > 0 ? image.height : null,
  };
}

/**
 * Archive (`archived`) or activate (`active`) a design (docs/adr/0018-design-lists.md "Design
 * lists"): refused for a frozen team, for a plain member of a team with limited permission, and an
 * activate past the team's design limit (functions/domain/team-permissions.ts), `archived_at` set
 * or removed; a design already there is answered without a write. The answer carries the card under
 * `archived` or `active` (docs/adr/0019-design-api-shapes.md "Design API shapes").
 */
function statusRoute(status: 'archived' | 'active') {
  return route({
    body: StatusBody,
    handle: async ({ auth, params, body }) => {
      const teamId = currentTeam(auth);
      const before = await loadDesign(teamId, params.id!);
      const action = status === 'archived' ? 'archive' : 'activate';
      await assertTeamNotFrozen(teamId, action);
      await assertMayChangeStatus(teamId, auth.user!.userId, action);
      if (status === 'active' && before.status !== 'active') await assertDesignRoom(teamId);
      const record = await updateDesign(teamId, params.id!, body.version, (r) =>
        r.status === status
          ? null
          : {
              status,
              archivedAt: status === 'archived' ? new Date().toISOString() : null,
            },
      );
      if (before.status !== status)
        await emitWebhookEvent(
          record.teamId,
          status === 'archived' ? 'design.archived' : 'design.published',
          designEventData(record),
        );
      return written(record, { [status]: designCard(record) });
    },
  });
}

export const handler = featureHandler('designs', {
  'GET /getActive': route({
    query: ListQuerySchema,
    handle: async ({ auth, query }) => {
      const teamId = currentTeam(auth);
      const active = teamId ? await listDesigns(teamList(teamId, 'active'), query) : emptyPage();
      return json(200, { active });
    },
  }),

  'GET /getArchived': route({
    query: ListQuerySchema,
    handle: async ({ auth, query }) => {
      const teamId = currentTeam(auth);
      const archived = teamId
        ? await listDesigns(teamList(teamId, 'archived'), query)
        : emptyPage();
      return json(200, { archived });
    },
  }),

  'POST /api/pic-snippet': route({
    body: CreateDesignBody,
    handle: async ({ auth, body }) => {
      const teamId = currentTeam(auth);
      if (!teamId) return json(404, { success: false, message: 'You have no current team.' });
      const image = await findBaseImage(teamId, body.image_id, 'image_id');
      const record = await createDesign(teamId, image, body.title ?? undefined);
      return json(201, designView(record));
    },
  }),

  'GET /api/pic-snippet/{id}': route({
    handle: async ({ auth, params }) =>
      json(200, designView(await loadDesign(currentTeam(auth), params.id!))),
  }),

  'GET /api/pic-snippet/{id}/analytics': route({
    query: AnalyticsQuerySchema,
    handle: async ({ auth, params, query }) => {
      const design = await loadDesign(currentTeam(auth), params.id!);
      return json(
        200,
        await analyticsReport(design.designId, query, parseDesignDocument(design.document)),
      );
    },
  }),

  'PUT /api/pic-snippet/{id}': route({
    body: SaveDesignBody,
    handle: async ({ auth, params, body }) => {
      const sent = Object.fromEntries(
        Object.entries(body).filter(([key]) => DOCUMENT_FIELDS.includes(key)),
      );
      if ('rules' in sent) sent.rules = await withRuleImages(currentTeam(auth), sent.rules);
      return write(auth, params.id!, body.version, (record) => {
        const title = titleChange(record.title, body.title);
        const full = Object.keys(sent).length > 0;
        if (title === undefined && !full) return null;
        assertSameBaseImage(record.document, sent);
        return {
          ...(title !== undefined ? { title } : {}),
          ...(full
            ? { document: withSentLink({ ...record.document, ...sent }, record.document) }
            : {}),
        };
      });
    },
  }),

  'PUT /api/pic-snippet/{id}/pso': route({
    body: SaveSnippetsBody,
    handle: async ({ auth, params, body }) =>
      write(auth, params.id!, body.version, (record) => {
        const title = titleChange(record.title, body.title);
        let snippets = body.text_snippets as DesignDocument['text_snippets'] | undefined;
        if (body.snippet) {
          const snippet = TextSnippetSchema.parse(body.snippet);
          const list: DesignDocument['text_snippets'] = snippets ?? record.document.text_snippets;
          snippets = list.some((s) => s.id === snippet.id)
            ? list.map((s) => (s.id === snippet.id ? snippet : s))
            : [...list, snippet];
        }
        if (title === undefined && snippets === undefined) return null;
        return {
          ...(title !== undefined ? { title } : {}),
          ...(snippets ? { document: { ...record.document, text_snippets: snippets } } : {}),
        };
      }),
  }),

  'PUT /api/pic-snippet/{id}/archive': statusRoute('archived'),

  'PUT /api/pic-snippet/{id}/unarchive': statusRoute('active'),

  'PUT /pic-snippet/{id}/copy': route({
    handle: async ({ auth, params }) => {
      const record = await cloneDesign(currentTeam(auth), params.id!);
      return json(201, {
        success: true,
        newPicSnippetId: record.designId,
        active: designCard(record),
      });
    },
  }),

  'PUT /api/pic-snippet/{id}/replace': route({
    body: ReplaceBody,
    handle: async ({ auth, params, body }) => {
      const teamId = currentTeam(auth);
      await loadDesign(teamId, params.id!);
      const image = await findBaseImage(teamId!, body.imageId, 'imageId');
      // A new photo keeps the canvas width and takes the photo's aspect ratio (the photo
      // covers the canvas, docs/editor.md "Constants": "Base image scaling"), narrower when too
      // tall.
      return write(auth, params.id!, body.version, ({ document }) => ({
        document: {
          ...withBaseImage(document, image),
          ...(image.width > 0 && image.height > 0
            ? canvasForPhoto(document.canvas_width, image)
            : {}),
        },
      }));
    },
  }),

  'PUT /api/pic-snippet/{id}/saveImageId': route({
    body: SaveImageIdBody,
    handle: async ({ auth, params, body }) => {
      const teamId = currentTeam(auth);
      await loadDesign(teamId, params.id!);
      const image = await findBaseImage(teamId!, (body.image_id ?? body.imageId)!, 'image_id');
      return write(auth, params.id!, body.version, ({ document }) =>
        document.image_id === image.imageId ? null : { document: withBaseImage(document, image) },
      );
    },
  }),

  'PUT /api/pic-snippet/{id}/effects': route({
    body: EffectsBody,
    handle: async ({ auth, params, body }) =>
      write(auth, params.id!, body.version, ({ document }) =>
        body.enhance === undefined && body.filters === undefined
          ? null
          : {
              document: {
                ...document,
                ...(body.enhance ? { enhance: body.enhance } : {}),
                ...(body.filters ? { filters: body.filters } : {}),
              },
            },
      ),
  }),

  'PUT /api/pic-snippet/{id}/options': route({
    body: OptionsBody,
    handle: async ({ auth, params, body }) => {
      const { version, ...options } = body;
      const set = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
      return write(auth, params.id!, version, ({ document }) =>
        Object.keys(set).length === 0 ? null : { document: { ...document, ...set } },
      );
    },
  }),

  'PUT /pic-snippet/{id}/qrCodeColor': route({
    body: QrCodeColorBody,
    handle: async ({ auth, params, body }) =>
      write(auth, params.id!, body.version, ({ document }) => ({
        document: changeSticker(document, body.stickerId, (s) => ({
          ...assertQrCode(s),
          qrCodeColor: body.qrCodeColor,
        })).document,
      })),
  }),

  'PUT /api/pic-snippet/{id}/qrCode': route({
    body: QrCodeBody,
    handle: async ({ auth, params, body }) => {
      const { version, stickerId, dynamicStickerUrl, ...fields } = body;
      const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      return write(auth, params.id!, version, ({ document }) => ({
        document: changeSticker(document, stickerId, (s) => {
          const qr = { ...assertQrCode(s), ...set };
          return dynamicStickerUrl === undefined
            ? qr
            : withFallback(qr, dynamicStickerUrl, 'dynamicStickerUrl');
        }).document,
      }));
    },
  }),

  'POST /api/pic-snippet/{id}/gravatarMail': route({
    body: GravatarMailBody,
    handle: async ({ auth, params, body }) =>
      write(auth, params.id!, body.version, ({ document }) => ({
        document: changeSticker(document, body.stickerId, (s) =>
          withFallback(s, body.email, 'email'),
        ).document,
      })),
  }),

  'POST /api/pic-snippet/{id}/saveGeneratedDynamicSticker': route({
    body: GeneratedStickerBody,
    handle: async ({ auth, params, body }) => {
      let currentSticker: unknown;
      const record = await updateDesign(
        currentTeam(auth),
        params.id!,
        body.version,
        ({ document }) => {
          const saved = saveGeneratedSticker(document, body.sticker);
          currentSticker = saved.sticker;
          return { document: saved.document };
        },
      );
      return written(record, { data: { currentSticker } });
    },
  }),

  'POST /api/pic-snippet/{id}/saveScreenShotType': route({
    body: ScreenShotTypeBody,
    handle: async ({ auth, params, body }) =>
      write(auth, params.id!, body.version, ({ document }) => ({
        document: changeSticker(document, body.stickerId, (s) => {
          if (s.dynamicStickerType !== 'screenShot') {
            throw validationFailed({
              stickerId: ['The selected sticker is not a screenshot.'],
            });
          }
          return { ...s, isMobile: body.isMobile };
        }).document,
      })),
  }),

  'POST /saveCroppedImage': route({
    handle: async ({ auth, body }) => {
      const image = await saveCroppedImage(currentTeam(auth), body);
      return json(201, {
        success: true,
        cropped_image_id: image.imageId,
        width: image.width,
        height: image.height,
      });
    },
  }),

  ...exportRoutes,
  ...signingRoutes,
  ...campaignRoutes,
  ...pollRoutes,
  ...webCropPreviewRoutes,
});

/** The page of a caller without a current team: empty. */
function emptyPage() {
  return { data: [], current_page: 1, next_page: null, cursor: null, per_page: 15 };
}
