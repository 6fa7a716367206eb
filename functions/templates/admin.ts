/**
 * The admin's template calls (docs/adr/0023-team-roles.md "Team roles": "template status change,
 * template delete, saving template tags"; docs/templates.md "Calls": "Templates and bundles
 * (admin)"): the route table lets only platform admins reach them (403 for users). A template is a
 * design with `isTemplate` (docs/templates.md); saving one turns the admin's design into a template
 * in place.
 *
 * Every call checks all its input (ids exist, tags valid, bundles known) before its first
 * write, so a refused call writes nothing.
 */
import { invalidateDesignRenders } from '#lib/cdn.ts';
import { db } from '#lib/db/index.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import type { AuthUser } from '#lib/auth.ts';
import {
  TEMPLATE_MESSAGES,
  type BundleChoice,
  type BundleOption,
  type SaveTemplateInput,
} from '#shared/contract/templates.ts';
import { checkTags } from '#shared/template-tags.ts';
import { STORE_MESSAGES, updateDesign, type DesignRecord } from '#functions/designs/store.ts';
import {
  bundleFullMessage,
  bundleIsFullFor,
  bundlesWithTemplate,
  createBundle,
  listBundles,
  removeTemplateFromBundles,
  updateBundle,
  type BundleRecord,
} from '#functions/bundles/store.ts';
import { templateCard } from './catalogue.ts';

/** Longest bundle name, characters (the spec gives none). */
export const MAX_BUNDLE_NAME = 100;

/**
 * A template of any team, enabled or disabled.
 * @throws AppError 404 when there is no such design or it is not a template.
 */
export async function loadAnyTemplate(designId: string): Promise<DesignRecord> {
  const record = (await db().Design.get({ designId }).go({ consistent: true })).data;
  if (!record || record.isTemplate !== true) throw notFound(STORE_MESSAGES.notFound);
  return record;
}

/**
 * Enables or disables a template (docs/templates.md "Model": "Template: enabled/disabled via
 * status; disabled means archived_at is set"). A disabled template leaves the template list and the
 * Bonus tab; designs made from it keep working.
 * @returns the template card as written.
 * @throws AppError 404 (no such template).
 */
export async function changeTemplateStatus(designId: string, enabled: boolean) {
  const record = await loadAnyTemplate(designId);
  const written = await updateDesign(record.teamId, designId, undefined, (current) =>
    (current.status === 'active') === enabled
      ? null
      : enabled
        ? { status: 'active', archivedAt: null }
        : { status: 'archived', archivedAt: new Date().toISOString() },
  );
  return templateCard(written);
}

/**
 * Deletes a template (docs/templates.md "Model": "Can be deleted"; docs/templates.md "Deleting"):
 * the design item goes, its cached renders are dropped, and it leaves every bundle. Designs made
 * from it are copies and stay as they are.
 * @throws AppError 404 (no such template).
 */
export async function deleteTemplate(designId: string): Promise<void> {
  const record = await loadAnyTemplate(designId);
  await db().Design.delete({ designId }).go();
  await invalidateDesignRenders(record.publicId);
  await removeTemplateFromBundles(designId);
}

/**
 * Turns the design open in the admin's editor back into a plain design when it is removed from
 * a bundle (docs/templates.md "Model": "When the current design is removed from a bundle, its
 * saved-template status becomes save, tags emptied, bundle cleared";
 * docs/adr/0025-templates-and-bundles.md "Templates and bundles"): its stored tags are emptied (the
 * save modal's status is "save" again), it leaves every bundle, and it returns to its team's Active
 * list (a template without tags is no template: the save modal makes it one again).
 * @returns the design as written and the ids of the bundles it left.
 * @throws AppError 404 (no such template, or it is in no bundle), before any write.
 */
export async function resetRemovedTemplate(
  designId: string,
): Promise<{ record: DesignRecord; bundleIds: string[] }> {
  const template = await loadAnyTemplate(designId);
  const holding = await bundlesWithTemplate(designId);
  if (holding.length === 0) throw notFound(NOT_IN_A_BUNDLE);
  const record = await updateDesign(template.teamId, designId, undefined, ({ document }) => ({
    isTemplate: false,
    status: 'active',
    archivedAt: null,
    document: { ...document, image_tags: [] },
  }));
  const left = await removeTemplateFromBundles(designId);
  return { record, bundleIds: left.map((b) => b.bundleId) };
}

/** The 404 of removing a template that no bundle holds. */
export const NOT_IN_A_BUNDLE = 'This template is not in any bundle.';

/** A bundle as an option of the save modal's select, marked when it holds `designId`. */
export function bundleOption(bundle: BundleRecord, designId: string | null): BundleOption {
  const holds = designId !== null && (bundle.templateIds ?? []).includes(designId);
  return {
    id: bundle.bundleId,
    key: bundle.bundleId,
    name: bundle.name,
    label: bundle.name,
    status: bundle.status === 'active' ? 1 : 0,
    template_id: holds ? designId : null,
    selected: holds,
  };
}

/**
 * Resolves the bundle choices against the stored bundles: ids must exist; a new name that
 * matches an existing bundle's name (case-insensitively) is that bundle.
 * @returns the ids of existing bundles chosen and the names of bundles to create.
 * @throws AppError 422 (`templateBundles`) for an unknown id, an empty or too long name.
 */
function resolveChoices(choices: readonly BundleChoice[], bundles: readonly BundleRecord[]) {
  const byId = new Map(bundles.map((b) => [b.bundleId, b]));
  const byName = new Map(bundles.map((b) => [b.name.trim().toLowerCase(), b]));
  const ids = new Set<string>();
  const names = new Map<string, string>();
  const refuse = (message: string) => validationFailed({ templateBundles: [message] });
  for (const choice of choices) {
    const id = typeof choice === 'string' ? choice : (choice.id ?? choice.key);
    if (id !== undefined) {
      if (!byId.has(id)) throw refuse(TEMPLATE_MESSAGES.unknownBundle);
      ids.add(id);
      continue;
    }
    const name = (typeof choice === 'string' ? '' : (choice.name ?? choice.label ?? ''))
      .replace(/\s+/gu, ' ')
      .trim();
    if (name === '') throw refuse(TEMPLATE_MESSAGES.unknownBundle);
    if (name.length > MAX_BUNDLE_NAME) throw refuse(TEMPLATE_MESSAGES.bundleName);
    const existing = byName.get(name.toLowerCase());
    if (existing) ids.add(existing.bundleId);
    else names.set(name.toLowerCase(), name);
  }
  return { ids, names: [...names.values()] };
}

/**
 * Saves a design as a template, or updates a template's tags and bundles (docs/templates.md "Model"
 * "Template status in the save modal"; docs/templates.md "Calls" `POST /admin/template/{action}`,
 * action `save` or `update`). The design becomes a template in place (it leaves its team's lists
 * and joins the template list with its status), its tags are stored in its document's `image_tags`,
 * and its bundles become exactly the chosen ones (new names make new active bundles).
 * @param user the admin; a design that is not yet a template must be of their current team.
 * @returns the message, the template card and the bundle options as now stored.
 * @throws AppError 404 (no such design, or another team's non-template), 422 (`imageTags`:
 *   docs/templates.md "Model" tag rules; `templateBundles`: unknown bundle, bad name, a full
 *   bundle).
 */
export async function saveTemplate(
  user: AuthUser,
  action: 'save' | 'update',
  input: SaveTemplateInput,
) {
  const designId = input.picSnippetId;
  const checked = checkTags(input.imageTags);
  if ('error' in checked) throw validationFailed({ imageTags: [checked.error] });
  const record = (await db().Design.get({ designId }).go({ consistent: true })).data;
  if (!record || (record.isTemplate !== true && record.teamId !== user.currentTeamId)) {
    throw notFound(STORE_MESSAGES.notFound);
  }
  const bundles = await listBundles();
  const chosen = resolveChoices(input.templateBundles, bundles);
  // A bundle holds at most MAX_BUNDLE_TEMPLATES (docs/templates.md "Storage and queries").
  const refuseFull = (bundle: BundleRecord) =>
    validationFailed({ templateBundles: [bundleFullMessage(bundle.name)] });
  const full = bundles.find((b) => chosen.ids.has(b.bundleId) && bundleIsFullFor(b, designId));
  if (full) throw refuseFull(full);

  const written = await updateDesign(record.teamId, designId, undefined, ({ document }) => ({
    isTemplate: true,
    document: { ...document, image_tags: checked.tags },
  }));
  const stored = await Promise.all(
    bundles.map((bundle) => {
      const wanted = chosen.ids.has(bundle.bundleId);
      if ((bundle.templateIds ?? []).includes(designId) === wanted) return bundle;
      return updateBundle(bundle.bundleId, (fresh) => {
        // Filled by another save since the check above.
        if (wanted && bundleIsFullFor(fresh, designId)) throw refuseFull(fresh);
        const ids = (fresh.templateIds ?? []).filter((id) => id !== designId);
        return { templateIds: wanted ? [...ids, designId] : ids };
      });
    }),
  );
  const created = await Promise.all(chosen.names.map((name) => createBundle(name, [designId])));
  return {
    success: true,
    message: action === 'save' ? TEMPLATE_MESSAGES.saved : TEMPLATE_MESSAGES.updated,
    template: templateCard(written),
    version: written.version,
    imageTags: checked.tags,
    bundles: [...created, ...stored].map((b) => bundleOption(b, designId)),
  };
}
