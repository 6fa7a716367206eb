/**
 * Template bundle storage (docs/templates.md "Model": "Template bundle", "Bundle";
 * docs/templates.md "Storage and queries"). A bundle is one item holding its template ids and team
 * ids. Bundles are few (admins make them by hand), so:
 * - every list of bundles (all, a team's, those holding a template) is ONE query of the `all`
 *   index, filtered, bounded by {@link MAX_BUNDLES};
 * - the templates or teams a bundle shows are one batch get.
 * Every write checks the bundle's `version`; a concurrent write is retried on the fresh item.
 */
import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import { db, isConditionFailure } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import { conflict, notFound } from '#lib/errors.ts';
import type { DesignRecord } from '#functions/designs/store.ts';

export type BundleRecord = EntityItem<Entities['TemplateBundle']>;

/** Most bundles read by one list (one query page of small items); docs/templates.md. */
export const MAX_BUNDLES = 1000;

/**
 * Most templates on one bundle (keeps the item far below 400 KB; the teams' limit is the
 * contract's `MAX_BUNDLE_TEAMS`, shared/contract/bundles.ts). Saving a template into a full
 * bundle is refused with {@link bundleFullMessage} (functions/templates/admin.ts
 * `saveTemplate`; test/integration/templates.test.ts).
 */
export const MAX_BUNDLE_TEMPLATES = 500;

/** The 422 (`templateBundles`) of a template added to a bundle that holds the most already. */
export const bundleFullMessage = (name: string) =>
  `The template bundle "${name}" is full: a bundle may hold at most ${MAX_BUNDLE_TEMPLATES} templates.`;

/** Whether adding `designId` to `bundle` would take it over {@link MAX_BUNDLE_TEMPLATES}. */
export const bundleIsFullFor = (bundle: Pick<BundleRecord, 'templateIds'>, designId: string) =>
  !(bundle.templateIds ?? []).includes(designId) &&
  (bundle.templateIds ?? []).length >= MAX_BUNDLE_TEMPLATES;

/** Messages of the bundle calls (the spec gives none for these cases). */
export const BUNDLE_MESSAGES = {
  notFound: 'This template bundle does not exist.',
  busy: 'This template bundle was changed in the meantime. Please try again.',
  deleted: 'The template bundle was deleted.',
  removed: 'The template was removed from the bundle.',
} as const;

/** Retries of a bundle write that lost a race. */
const WRITE_RETRIES = 4;

/**
 * Every bundle, newest first (at most {@link MAX_BUNDLES}).
 * @param filter keeps the bundles it returns true for (applied in memory after one query).
 */
export async function listBundles(
  filter: (bundle: BundleRecord) => boolean = () => true,
): Promise<BundleRecord[]> {
  const found = await db()
    .TemplateBundle.query.all({})
    .go({ order: 'desc', pages: 'all', limit: MAX_BUNDLES });
  return found.data.filter(filter);
}

/** The active bundles assigned to a team: its Bonus templates (docs/templates.md "Screens" Templates panel). */
export const teamBundles = (teamId: string | undefined) =>
  teamId
    ? listBundles((b) => b.status === 'active' && (b.teamIds ?? []).includes(teamId))
    : Promise.resolve([]);

/** The bundles holding a template (the save modal's selected options, docs/templates.md "Model"). */
export const bundlesWithTemplate = (designId: string) =>
  listBundles((b) => (b.templateIds ?? []).includes(designId));

/**
 * One bundle.
 * @throws AppError 404 when there is none.
 */
export async function loadBundle(bundleId: string): Promise<BundleRecord> {
  const found = bundleId
    ? (await db().TemplateBundle.get({ bundleId }).go({ consistent: true })).data
    : null;
  if (!found) throw notFound(BUNDLE_MESSAGES.notFound);
  return found;
}

/**
 * Creates an active bundle without teams.
 * @param name the bundle's name (docs/templates.md "Model" title/name), already checked.
 * @param templateIds its first templates.
 */
export async function createBundle(name: string, templateIds: string[]): Promise<BundleRecord> {
  const created = await db()
    .TemplateBundle.create({
      bundleId: `bundle-${randomUUID()}`,
      name,
      status: 'active',
      templateIds,
      teamIds: [],
      version: 1,
    })
    .go();
  return created.data as BundleRecord;
}

/** What a bundle write changes; omitted fields stay. `archivedAt: null` removes it. */
export interface BundleChanges {
  status?: BundleRecord['status'];
  templateIds?: string[];
  teamIds?: string[];
  archivedAt?: string | null;
}

/**
 * The versioned read-modify-write of a bundle: reads it, runs `change` on it (null: nothing
 * to write), writes with the condition `version = read version`, and retries on the fresh item
 * when another write got in first.
 * @returns the bundle as written (or as read when nothing changed).
 * @throws AppError 404 (no such bundle), 409 when the retries ran out, and what `change` throws.
 */
export async function updateBundle(
  bundleId: string,
  change: (bundle: BundleRecord) => BundleChanges | null,
): Promise<BundleRecord> {
  for (let attempt = 0; attempt < WRITE_RETRIES; attempt++) {
    const bundle = await loadBundle(bundleId);
    const changes = change(bundle);
    if (changes === null) return bundle;
    const { archivedAt, ...rest } = changes;
    let update = db()
      .TemplateBundle.patch({ bundleId })
      .set({
        ...rest,
        ...(typeof archivedAt === 'string' ? { archivedAt } : {}),
        version: bundle.version + 1,
        updatedAt: new Date().toISOString(),
      });
    if (archivedAt === null) update = update.remove(['archivedAt']);
    try {
      const written = await update
        .where((attr, op) => op.eq(attr.version, bundle.version))
        .go({ response: 'all_new' });
      return written.data as BundleRecord;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw conflict(BUNDLE_MESSAGES.busy);
}

/** Deletes a bundle; its templates and teams are untouched. @throws AppError 404. */
export async function deleteBundle(bundleId: string): Promise<void> {
  await loadBundle(bundleId);
  await db().TemplateBundle.delete({ bundleId }).go();
}

/**
 * Removes a template from every bundle holding it (a deleted template, docs/templates.md "Model";
 * or "a design can be removed from a bundle").
 * @param only limit to these bundle ids.
 * @returns the bundles it was removed from.
 */
export async function removeTemplateFromBundles(
  designId: string,
  only?: readonly string[],
): Promise<BundleRecord[]> {
  const holding = (await bundlesWithTemplate(designId)).filter(
    (b) => !only || only.includes(b.bundleId),
  );
  return Promise.all(
    holding.map((b) =>
      updateBundle(b.bundleId, (fresh) =>
        (fresh.templateIds ?? []).includes(designId)
          ? { templateIds: (fresh.templateIds ?? []).filter((id) => id !== designId) }
          : null,
      ),
    ),
  );
}

/**
 * The designs of some ids in one batch get, in the order of `ids`; ids without a design
 * (a template deleted meanwhile) are skipped.
 */
export async function designsByIds(ids: readonly string[]): Promise<DesignRecord[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db()
    .Design.get(unique.map((designId) => ({ designId })))
    .go();
  const byId = new Map((found.data as DesignRecord[]).map((d) => [d.designId, d]));
  return unique.map((id) => byId.get(id)).filter((d): d is DesignRecord => d !== undefined);
}

/** The teams of some ids in one batch get, `{ id, name }`, A to Z; unknown ids skipped. */
export async function teamsByIds(ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db()
    .Team.get(unique.map((teamId) => ({ teamId })))
    .go();
  return found.data
    .map((t) => ({ id: t.teamId, name: t.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
