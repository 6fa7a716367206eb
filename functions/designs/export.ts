/**
 * The export screen's saves (docs/export.md "Saves": "Export and merge tags": `PUT
 * /api/pic-snippet/{id}/ provider`, `/choices`, `/link`, "each body is the pic snippet";
 * docs/billing.md "Flows": "Export"; docs/accounts.md "Validation rules" export validations;
 * docs/export.md).
 *
 * Each call takes the whole pic snippet as its body and keeps only the fields it saves:
 * - `provider`: `merge_tag_provider` (+ `merge_tag_storefront` for Klaviyo). A different
 *   provider clears every parameter's `merge_tag_value` and the `merge_tag_choices`
 *   (docs/billing.md "Flows" "choosing a provider clears all merge values"): another platform's
 *   tags mean nothing there.
 * - `choices`: the parameters' `merge_tag_value` (by parameter id, from `text_snippets`) and
 *   `merge_tag_choices` (one per parameter name, `key` = the name; dynamic stickers' values live
 *   only here). Values at most 255 characters (docs/accounts.md "Validation rules"); a dynamic
 *   sticker's fixed value follows its kind's rules (docs/editor.md "Editing rules",
 *   `exportValueProblem`).
 * - `link`: `html_link_url`, normalised (`https://` added when no scheme is written); any
 *   scheme other than http(s) is refused.
 * - `POST …/cache-id` (Generate): keeps the design's current version and names it for the URL's
 *   cache id segment (docs/export.md "Cache id").
 *
 * Every call reads the design through the caller's current team (404 for another team's id)
 * and writes through the versioned write (409 `{ message, version }` for a stale `version`).
 * Bad input is refused as a whole with 422 field errors; nothing is written then. The frozen
 * rule does not apply: docs/adr/0018-design-lists.md "Design lists" lists create, archive, clone
 * and activate only.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import {
  ChoicesBody,
  EXPORT_SAVE_MESSAGES,
  LinkBody,
  ProviderBody,
} from '#shared/contract/designs.ts';
import { validationFailed, type FieldErrors } from '#lib/errors.ts';
import { json, route, type ApiResult, type RouteDefinition } from '#lib/http.ts';
import { parseDesignDocument, type DesignDocument } from '#shared/design.ts';
import { exportValueProblem, normaliseLinkUrl } from '#shared/export-url.ts';
import { KLAVIYO_STOREFRONTS, providerOf, type ProviderValue } from '#shared/providers/index.ts';
import { MAX_VALUE_LENGTH } from '#shared/scene/resolve.ts';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { cacheIdOf } from '#functions/render/service.ts';
import { config } from '#lib/config.ts';
import { designEventData, emitWebhookEvent } from '#domain/webhooks.ts';
import { currentTeam, loadDesign, updateDesign, type DesignRecord } from './store.ts';

export { EXPORT_SAVE_MESSAGES };

/** Longest link kept, characters (browsers and mail clients handle 2 KB URLs safely). */
export const MAX_LINK_LENGTH = 2048;

const STOREFRONT_VALUES: readonly string[] = KLAVIYO_STOREFRONTS.map((s) => s.value);

/** The export fields of a saved design, answered by every call. */
function exportFields(document: DesignDocument) {
  return {
    merge_tag_provider: document.merge_tag_provider,
    merge_tag_storefront: document.merge_tag_storefront,
    merge_tag_choices: document.merge_tag_choices,
    html_link_url: document.html_link_url,
    /** Parameter id → merge tag value. */
    merge_tag_values: Object.fromEntries(
      document.text_snippets.flatMap((s) => s.parameters.map((p) => [p.id, p.merge_tag_value])),
    ),
  };
}

/** `{ success, version, title, updated_at }` and the export fields. */
function saved(record: DesignRecord): ApiResult {
  return json(200, {
    success: true,
    version: record.version,
    title: record.title,
    updated_at: record.updatedAt,
    ...exportFields(parseDesignDocument(record.document)),
  });
}

/** '' and whitespace are no value (null), so the design's fallback shows. */
const valueOrNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value;

/** Length in characters as the user counts them (code points). */
const lengthOf = (value: string): number => Array.from(value).length;

/**
 * The provider a design saves (docs/billing.md "Flows"): Custom is stored as null; the storefront
 * is kept only for Klaviyo.
 * @throws AppError 422 `merge_tag_storefront` for a storefront Klaviyo does not list.
 */
export function providerChange(
  document: DesignDocument,
  body: { merge_tag_provider: string | null; merge_tag_storefront?: string | null | undefined },
): DesignDocument | null {
  const provider = (body.merge_tag_provider || null) as ProviderValue | null;
  const storefrontSent = valueOrNull(body.merge_tag_storefront);
  if (provider === 'klaviyo' && storefrontSent && !STOREFRONT_VALUES.includes(storefrontSent)) {
    throw validationFailed({ merge_tag_storefront: [EXPORT_SAVE_MESSAGES.storefront] });
  }
  const storefront = provider === 'klaviyo' ? storefrontSent : null;
  const same = provider === document.merge_tag_provider;
  if (same && storefront === document.merge_tag_storefront) return null;
  if (same) return { ...document, merge_tag_storefront: storefront };
  return {
    ...document,
    merge_tag_provider: provider,
    merge_tag_storefront: storefront,
    merge_tag_choices: [],
    text_snippets: document.text_snippets.map((s) => ({
      ...s,
      parameters: s.parameters.map((p) => ({ ...p, merge_tag_value: null })),
    })),
  };
}

/** The dynamic sticker kind of each sticker parameter name (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" Sticker). */
function stickerKinds(document: DesignDocument): Map<string, DesignDocument['graphics_data'][0]> {
  const out = new Map<string, DesignDocument['graphics_data'][0]>();
  for (const sticker of document.graphics_data) {
    if (sticker.stickerType === 'dynamicSticker' && sticker.dynamicStickerParamName) {
      out.set(sticker.dynamicStickerParamName, sticker);
    }
  }
  return out;
}

/**
 * The choices a design saves (docs/export.md "What Generate writes" merge tag choice, parameter
 * `merge_tag_value`; docs/accounts.md "Validation rules"). Parameters not in the body keep their
 * value; choices replace the saved list when sent.
 * @throws AppError 422 with every problem at once: `parameters.{id}` for an unknown parameter or
 *   a value over 255 characters, `merge_tag_choices.{key}` for a key that names no parameter or
 *   dynamic sticker of the design, a choice over 255 characters, or a dynamic sticker value its
 *   kind refuses.
 */
export function choicesChange(
  document: DesignDocument,
  body: z.output<typeof ChoicesBody>,
): DesignDocument | null {
  const errors: FieldErrors = {};
  const sent = new Map<string, string | null>();
  for (const snippet of body.text_snippets ?? []) {
    for (const p of snippet.parameters) sent.set(p.id, valueOrNull(p.merge_tag_value));
  }
  const known = new Set(document.text_snippets.flatMap((s) => s.parameters.map((p) => p.id)));
  for (const [id, value] of sent) {
    if (!known.has(id)) errors[`parameters.${id}`] = [EXPORT_SAVE_MESSAGES.unknownParameter];
    else if (value !== null && lengthOf(value) > MAX_VALUE_LENGTH) {
      errors[`parameters.${id}`] = [EXPORT_SAVE_MESSAGES.valueTooLong];
    }
  }
  const provider = providerOf(document.merge_tag_provider);
  const stickers = stickerKinds(document);
  const names = new Set(
    document.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name)),
  );
  // Only the choice's own fields are kept: the body is the client's.
  const choices = body.merge_tag_choices?.map((c) => ({
    key: c.key,
    merge_tag_name: c.merge_tag_name,
    merge_tag_value: valueOrNull(c.merge_tag_value) ?? '',
  }));
  for (const choice of choices ?? []) {
    if (!names.has(choice.key) && !stickers.has(choice.key)) {
      errors[`merge_tag_choices.${choice.key}`] = [EXPORT_SAVE_MESSAGES.unknownParameter];
      continue;
    }
    const problem = exportValueProblem(provider, {
      param_name: choice.key,
      merge_tag_value: choice.merge_tag_value,
      dynamicStickerType: stickers.get(choice.key)?.dynamicStickerType ?? null,
    });
    if (problem) errors[`merge_tag_choices.${choice.key}`] = [problem];
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  if (sent.size === 0 && choices === undefined) return null;
  return {
    ...document,
    ...(choices ? { merge_tag_choices: choices } : {}),
    text_snippets: document.text_snippets.map((s) => ({
      ...s,
      parameters: s.parameters.map((p) =>
        sent.has(p.id) ? { ...p, merge_tag_value: sent.get(p.id)! } : p,
      ),
    })),
  };
}

/**
 * The link a design saves (docs/export.md "Saves": "normalised html_link_url"): trimmed, `https://` added
 * when no scheme is written; empty removes it.
 * @throws AppError 422 `html_link_url` for another scheme, a text that is no URL, or a link
 *   over {@link MAX_LINK_LENGTH} characters.
 */
export function linkChange(
  document: DesignDocument,
  raw: string | null | undefined,
): DesignDocument | null {
  const normalised = normaliseLinkUrl(raw ?? '');
  if (normalised === undefined) {
    throw validationFailed({ html_link_url: [EXPORT_SAVE_MESSAGES.link] });
  }
  if (normalised.length > MAX_LINK_LENGTH) {
    throw validationFailed({ html_link_url: [EXPORT_SAVE_MESSAGES.linkTooLong] });
  }
  const link = normalised === '' ? null : normalised;
  return link === document.html_link_url ? null : { ...document, html_link_url: link };
}

/**
 * Keeps the platform a design saved as its team's last (`Team.exportProvider`, removed for
 * Custom), which designs never exported open with (docs/export.md "The screen"). A preference:
 * a failed write is logged and the design's save stands.
 */
async function rememberProvider(teamId: string, document: DesignDocument): Promise<void> {
  const provider = document.merge_tag_provider;
  const storefront = provider === 'klaviyo' ? document.merge_tag_storefront : null;
  const team = db().Team.patch({ teamId });
  try {
    if (!provider) await team.remove(['exportProvider', 'exportStorefront']).go();
    else if (storefront)
      await team.set({ exportProvider: provider, exportStorefront: storefront }).go();
    else await team.set({ exportProvider: provider }).remove(['exportStorefront']).go();
  } catch (error) {
    logger.warn("the team's last export platform was not kept", { error: error as Error });
  }
}

/**
 * A versioned export save: `change` computes the new document (null: nothing to save); `after`
 * runs once the design is saved.
 */
function exportRoute<B extends { version?: number | undefined }>(
  body: z.ZodType<B>,
  change: (document: DesignDocument, body: B) => DesignDocument | null,
  after?: (teamId: string, document: DesignDocument) => Promise<void>,
): RouteDefinition {
  return route({
    body,
    handle: async ({ auth, params, body: sent }) => {
      // Export settings are not drawn: the cached renders stay valid.
      const record = await updateDesign(
        currentTeam(auth),
        params.id!,
        sent.version,
        (r) => {
          const document = change(r.document, sent);
          return document === null ? null : { document };
        },
        { invalidate: false },
      );
      await after?.(record.teamId, record.document);
      return saved(record);
    },
  });
}

/**
 * `POST /api/pic-snippet/{id}/cache-id` (Generate; docs/export.md "Cache id"): keeps the design
 * as it is now (a `DesignSnapshot`, written only when the document changed since the newest
 * one; {@link snapshotVersion}) and answers
 * the cache id naming it, `v{version}`, for the render URL's cache id segment (docs/export.md
 * "Saves"). The render service draws that snapshot for `/r/{publicId}/v{version}` after later
 * edits.
 * @returns 200 `{ success, cache_id, version }`.
 * @throws AppError 404 for a design of another team or none.
 */
const cacheIdRoute = route({
  handle: async ({ auth, params }) => {
    const record = await loadDesign(currentTeam(auth), params.id!);
    const version = await snapshotVersion(record);
    const cacheId = cacheIdOf(version);
    await emitWebhookEvent(record.teamId, 'export.generated', {
      ...designEventData(record),
      cache_id: cacheId,
      url: `${config().PUBLIC_URL}/r/${record.publicId}/${cacheId}`,
    });
    return json(200, { success: true, cache_id: cacheId, version });
  },
});

/**
 * What the render service draws from a design document: all of it but the export screen's
 * settings (provider, store front, merge tag choices and values, link), which only shape URLs.
 */
function drawnPart(raw: unknown): unknown {
  // Compared as restored (migrated, defaults filled): a save stores the restored form.
  let document: DesignDocument;
  try {
    document = parseDesignDocument(raw);
  } catch {
    return raw;
  }
  const {
    merge_tag_provider: _provider,
    merge_tag_storefront: _storefront,
    merge_tag_choices: _choices,
    html_link_url: _link,
    ...drawn
  } = document;
  return {
    ...drawn,
    text_snippets: (drawn.text_snippets ?? []).map((snippet) => ({
      ...snippet,
      parameters: snippet.parameters.map(({ merge_tag_value: _value, ...parameter }) => parameter),
    })),
  };
}

/**
 * The version whose snapshot draws the design as it is now: the newest snapshot's when it
 * draws the same (an export save bumps the version without changing the image, and Generate
 * must not store the same document again; {@link drawnPart}), else the current version's,
 * stored now.
 */
async function snapshotVersion(record: DesignRecord): Promise<number> {
  const newest = (
    await db()
      .DesignSnapshot.query.byVersion({ snapshotOf: record.designId })
      .go({ order: 'desc', limit: 1 })
  ).data[0];
  if (newest && isDeepStrictEqual(drawnPart(newest.document), drawnPart(record.document))) {
    return newest.version;
  }
  await db()
    .DesignSnapshot.put({
      snapshotOf: record.designId,
      version: record.version,
      document: record.document,
    })
    .go();
  return record.version;
}

/** The export screen's calls, keyed as the route table names them (docs/export.md "Saves"). */
export const exportRoutes: Record<string, RouteDefinition> = {
  'POST /api/pic-snippet/{id}/cache-id': cacheIdRoute,
  'PUT /api/pic-snippet/{id}/provider': exportRoute(ProviderBody, providerChange, rememberProvider),
  'PUT /api/pic-snippet/{id}/choices': exportRoute(ChoicesBody, choicesChange),
  'PUT /api/pic-snippet/{id}/link': exportRoute(LinkBody, (document, body) =>
    linkChange(document, body.html_link_url),
  ),
};
