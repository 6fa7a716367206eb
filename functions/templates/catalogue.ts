/**
 * Reading templates (docs/templates.md "Screens" View Templates and the editor's Templates panel,
 * docs/templates.md "Model" Template, docs/templates.md "Calls": "Dashboard lists"). A template is
 * a design with `isTemplate` (docs/templates.md); the enabled ones are the list `templates:active`,
 * the disabled ones `templates:archived`.
 *
 * Searches by tag need every template's tags, which live in its document, so a filtered list
 * reads the whole template list in one query (bounded by {@link MAX_TEMPLATES}) and filters,
 * sorts and pages in memory. Templates are made by hand by admins, so the list stays small;
 * docs/adr/0034-template-search-and-removing-the-open-design-from-a-bundle.md "Template search"
 * gives the scale this holds up to and the next step.
 */
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { parseDesignDocument } from '#shared/design.ts';
import { normalizeTag } from '#shared/template-tags.ts';
import { designCard } from '#functions/designs/views.ts';
import { PAGE_SIZE, templateList, type ListPage, type Sort } from '#functions/designs/lists.ts';
import type { DesignRecord, DesignStatus } from '#functions/designs/store.ts';

/** Most templates one filtered list reads (docs/templates.md "Storage and queries"). */
export const MAX_TEMPLATES = 1000;

/** Templates per page of the editor's Templates panel (docs/templates.md "Model": "perPageCount: not shown"). */
export const PANEL_PAGE_SIZE = 12;

/**
 * A template as the lists show it (docs/templates.md "Model" Template: id, image_id,
 * pic_snippet_id, status, archived_at, tags): a dashboard card plus its tags and base photo.
 */
export function templateCard(record: DesignRecord) {
  const document = parseDesignDocument(record.document);
  return {
    ...designCard(record),
    pic_snippet_id: record.designId,
    image_id: document.image_id,
    tags: document.image_tags,
  };
}
export type TemplateCard = ReturnType<typeof templateCard>;

/**
 * Every template of a status (enabled: `active`, disabled: `archived`), last updated first:
 * one query of the list, at most {@link MAX_TEMPLATES}.
 */
export async function readTemplates(status: DesignStatus): Promise<DesignRecord[]> {
  const found = await db()
    .Design.query.byListUpdated({ listKey: templateList(status) })
    .go({ order: 'desc', pages: 'all', limit: MAX_TEMPLATES });
  if (found.data.length >= MAX_TEMPLATES) {
    // Past the cap the least recently updated templates drop out of searches: time for the
    // tag index of docs/adr/0034-template-search-and-removing-the-open-design-from-a-bundle.md
    // "Template search".
    logger.warn('template search read its cap', { status, cap: MAX_TEMPLATES });
  }
  return found.data as DesignRecord[];
}

/** The tags of a stored template (its document's `image_tags`). */
export const tagsOf = (record: DesignRecord): string[] =>
  parseDesignDocument(record.document).image_tags;

/**
 * Whether a template matches a search of the Templates panel (docs/templates.md "Screens": "search
 * box"), in the Global and the Bonus tab alike: a tag that starts with the search, or a title that
 * contains it (case and accents folded).
 * @param template its stored tags and its title.
 * @param search a normalised tag ({@link normalizeTag}); '' matches all.
 */
export function matchesSearch(
  template: { tags: readonly string[]; title: string },
  search: string,
): boolean {
  if (search === '') return true;
  if (template.tags.some((tag) => tag.startsWith(search))) return true;
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return fold(template.title).includes(fold(search));
}

/** Compares records in a dashboard sort (functions/designs/lists.ts SORTS). */
const SORT_COMPARE: Record<Sort, (a: DesignRecord, b: DesignRecord) => number> = {
  '': (a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''),
  created: (a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  name: (a, b) => (a.titleSort ?? '').localeCompare(b.titleSort ?? ''),
  views: (a, b) => (b.counter ?? 0) - (a.counter ?? 0),
};

/**
 * A page of the dashboard's template list filtered by one tag (`GET /getHomeTemplates?tag=`,
 * onboarding's address, docs/templates.md "Screens"), in the answer shape of the unfiltered list
 * (functions/designs/lists.ts `ListPage`; pages by number, no cursor).
 * @param status `active` (enabled) or `archived` (disabled, admins only).
 * @param tag the tag, matched exactly after normalising.
 */
export async function templatesTagged(
  status: DesignStatus,
  tag: string,
  sort: Sort,
  page: number,
): Promise<ListPage> {
  const wanted = normalizeTag(tag);
  const rows = (await readTemplates(status))
    .filter((r) => tagsOf(r).includes(wanted))
    .sort(SORT_COMPARE[sort]);
  const shown = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const more = rows.length > page * PAGE_SIZE;
  return {
    data: shown.map(templateCard),
    current_page: page,
    next_page: more ? page + 1 : null,
    cursor: null,
    per_page: PAGE_SIZE,
  };
}

/** One page of the Templates panel's list, in Laravel's length-aware paginator shape. */
export interface PanelPage<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** Cuts one page of {@link PANEL_PAGE_SIZE} out of a list (page from 1). */
export function panelPage<T>(items: readonly T[], page: number): PanelPage<T> {
  return {
    data: items.slice((page - 1) * PANEL_PAGE_SIZE, page * PANEL_PAGE_SIZE),
    current_page: page,
    last_page: Math.max(1, Math.ceil(items.length / PANEL_PAGE_SIZE)),
    per_page: PANEL_PAGE_SIZE,
    total: items.length,
  };
}
