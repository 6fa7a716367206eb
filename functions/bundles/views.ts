/**
 * The API shapes of a template bundle (docs/templates.md "Model": "Template bundle: id, title,
 * name, status (0/1, true/false), bundle_images (id, showurl; up to 6 shown), teamsCount, teams
 * (id, name), created_at, archived_at"; "Bundle select option: key/id, template_id, label/name").
 */
import { templateCard, type TemplateCard } from '#functions/templates/catalogue.ts';
import type { DesignRecord } from '#functions/designs/store.ts';
import { designsByIds, type BundleRecord } from './store.ts';

/** docs/templates.md "Model": "Bundle preview shows at most 6 images". */
export const BUNDLE_PREVIEW_IMAGES = 6;

/** The bundle edit page (docs/templates.md "Screens": "the bundle's edit URL with /edit appended"). */
export const bundleUrl = (bundleId: string) => `/template-bundle/${encodeURIComponent(bundleId)}`;

/**
 * A bundle with its templates.
 * @param templates the bundle's templates as read (ids without a design are skipped).
 * @param images how many templates to show as `bundle_images` (6 on cards, all on the bundle
 *   edit page and in the Bonus tab).
 * @param enabledOnly show only enabled templates (what users may use); admins see all.
 */
export function bundleView(
  bundle: BundleRecord,
  templates: ReadonlyMap<string, DesignRecord>,
  images: number,
  enabledOnly: boolean,
) {
  const cards: TemplateCard[] = [];
  for (const id of bundle.templateIds ?? []) {
    const record = templates.get(id);
    if (!record || record.isTemplate !== true) continue;
    if (enabledOnly && record.status !== 'active') continue;
    cards.push(templateCard(record));
  }
  const url = bundleUrl(bundle.bundleId);
  return {
    id: bundle.bundleId,
    key: bundle.bundleId,
    title: bundle.name,
    name: bundle.name,
    label: bundle.name,
    status: bundle.status === 'active' ? 1 : 0,
    active: bundle.status === 'active',
    /** Users count what they may use; admins count every template in the bundle. */
    templatesCount: enabledOnly ? cards.length : (bundle.templateIds ?? []).length,
    teamsCount: (bundle.teamIds ?? []).length,
    bundle_images: cards.slice(0, images),
    showurl: url,
    editurl: `${url}/edit`,
    created_at: bundle.createdAt,
    archived_at: bundle.archivedAt ?? null,
  };
}
export type BundleView = ReturnType<typeof bundleView>;

/**
 * Views of several bundles with one batch get of the templates they show.
 * @param images templates shown per bundle (see {@link bundleView}).
 */
export async function bundleViews(
  bundles: readonly BundleRecord[],
  images: number,
  enabledOnly: boolean,
): Promise<BundleView[]> {
  // Disabled or deleted templates are skipped, so read a few more than shown on a card.
  const wanted = bundles.flatMap((b) =>
    (b.templateIds ?? []).slice(0, images === Infinity ? undefined : images * 2),
  );
  const records = await designsByIds(wanted);
  const byId = new Map(records.map((r) => [r.designId, r]));
  return bundles.map((b) => bundleView(b, byId, images, enabledOnly));
}
