/**
 * The template and bundle calls of the dashboard, the bundle edit page and the editor (spec 000
 * §7 "Dashboard lists" and "Templates and bundles (admin)"; docs/templates.md). Answers are
 * checked at the edge: rows without an id are dropped, optional fields get safe defaults.
 */
import { api, ApiError } from './client.ts';
import type { DesignCard, DesignSort, NextPage } from './designs.ts';

/** A template (spec 000 §3 Template): a dashboard card plus its tags. */
export interface TemplateCard extends DesignCard {
  tags: string[];
}

/** A template bundle (spec 000 §3): up to 6 `bundle_images` on cards, all on the edit page. */
export interface Bundle {
  id: string;
  name: string;
  active: boolean;
  templatesCount: number;
  teamsCount: number;
  bundle_images: TemplateCard[];
  editurl: string;
  created_at: string;
}

/** A bundle select option (spec 000 §3 "key/id, template_id, label/name"). */
export interface BundleOption {
  id: string;
  name: string;
  /** The bundle holds the template the options were read for. */
  selected: boolean;
}

/** A team as the add-teams modal shows it. */
export interface TeamRef {
  id: string;
  name: string;
}

/** One page of a list with the next page's address (null after the last). */
export interface ListPage<T> {
  items: T[];
  next: NextPage | null;
}

const enc = encodeURIComponent;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const rows = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const UNEXPECTED = 'The server answered in a shape this page does not know.';

/** A template from an untrusted row; undefined without an id. */
export function toTemplate(row: unknown): TemplateCard | undefined {
  if (!isRecord(row) || typeof row.id !== 'string' || row.id === '') return undefined;
  const path = `/pic-snippet/${enc(row.id)}`;
  return {
    id: row.id,
    public_id: text(row.public_id),
    title: text(row.title, 'Untitled'),
    version: num(row.version),
    status: row.status === 'archived' ? 'archived' : 'active',
    isTemplate: true,
    counter: num(row.counter),
    created_at: text(row.created_at),
    updated_at: text(row.updated_at),
    archived_at: typeof row.archived_at === 'string' ? row.archived_at : null,
    base_url: text(row.base_url),
    preview_url: text(row.preview_url),
    showurl: text(row.showurl, path),
    editurl: text(row.editurl, `${path}/edit`),
    archiveurl: text(row.archiveurl),
    unarchiveurl: text(row.unarchiveurl),
    tags: rows(row.tags).filter((t): t is string => typeof t === 'string'),
  };
}

const templates = (v: unknown) => rows(v).flatMap((r) => toTemplate(r) ?? []);

/** A bundle from an untrusted row; undefined without an id. */
function toBundle(row: unknown): Bundle | undefined {
  if (!isRecord(row) || typeof row.id !== 'string' || row.id === '') return undefined;
  return {
    id: row.id,
    name: text(row.name, text(row.title, 'Untitled bundle')),
    active: row.active === true || row.status === 1,
    templatesCount: num(row.templatesCount),
    teamsCount: num(row.teamsCount),
    bundle_images: templates(row.bundle_images),
    editurl: text(row.editurl, `/template-bundle/${enc(row.id)}/edit`),
    created_at: text(row.created_at),
  };
}

const bundles = (v: unknown) => rows(v).flatMap((r) => toBundle(r) ?? []);

/**
 * The dashboard's template list (`GET /getHomeTemplates`): enabled templates, or for admins
 * the disabled ones (`status: 'archived'`), with the dashboard's sort, tag filter and pages.
 * @throws {ApiError} 403 for the disabled list of a non-admin.
 */
export async function fetchTemplateList(
  status: 'active' | 'archived',
  options: { sortby: DesignSort; tag: string; next: NextPage | null },
  signal?: AbortSignal,
): Promise<ListPage<TemplateCard>> {
  const query = new URLSearchParams({ sortby: options.sortby, page: '1', status });
  if (options.next) {
    query.set('page', String(options.next.page));
    if (options.next.cursor) query.set('cursor', options.next.cursor);
  }
  if (options.tag) query.set('tag', options.tag);
  const body = await api<unknown>('GET', `/getHomeTemplates?${query}`, undefined, { signal });
  const list = isRecord(body) ? body.templates : undefined;
  if (!isRecord(list)) throw new ApiError(200, UNEXPECTED);
  const next = typeof list.next_page === 'number' ? list.next_page : null;
  return {
    items: templates(list.data),
    next: next === null ? null : { page: next, cursor: text(list.cursor) || null },
  };
}

/** What the Templates panel shows for one page (spec 000 §7 `GET /getTemplates`). */
export interface PanelPage {
  templates: TemplateCard[];
  /** Pages from 1; more pages follow while `page < lastPage`. */
  page: number;
  lastPage: number;
  bundles: Bundle[];
  relatedTags: string[];
}

/**
 * `GET /getTemplates?page&imageTag&type` (spec 000 §7): the Global tab (`templates`) or the
 * Bonus tab (`templateBundles`: the team's bundles with their templates), searched by tag.
 */
export async function fetchPanelTemplates(
  type: 'templates' | 'templateBundles',
  search: string,
  page: number,
  signal?: AbortSignal,
): Promise<PanelPage> {
  const query = new URLSearchParams({ type, page: String(page), imageTag: search });
  const body = await api<unknown>('GET', `/getTemplates?${query}`, undefined, { signal });
  if (!isRecord(body)) throw new ApiError(200, UNEXPECTED);
  const list = isRecord(body.templates) ? body.templates : {};
  const bundleList = isRecord(body.templatesBundles) ? body.templatesBundles : {};
  return {
    templates: templates(list.data),
    page: num(list.current_page) || page,
    lastPage: num(list.last_page) || 1,
    bundles: bundles(bundleList.data),
    relatedTags: rows(body.related_tags).filter((t): t is string => typeof t === 'string'),
  };
}

/**
 * `GET /image/{imageId}/tags` (spec 000 §7 → `result.tags[].tag.en`): suggested tags for a
 * template made from that image, best first (functions/images/tags.ts).
 */
export async function fetchImageTags(imageId: string, signal?: AbortSignal): Promise<string[]> {
  const body = await api<unknown>('GET', `/image/${encodeURIComponent(imageId)}/tags`, undefined, {
    signal,
  });
  const result = isRecord(body) && isRecord(body.result) ? body.result : {};
  return rows(result.tags)
    .map((row) => (isRecord(row) && isRecord(row.tag) ? row.tag.en : undefined))
    .filter((t): t is string => typeof t === 'string' && t !== '');
}

/** `POST /get-template-bundle?page=` (spec 000 §7): the dashboard's bundles, 15 a page. */
export async function fetchBundles(
  next: NextPage | null,
  signal?: AbortSignal,
): Promise<ListPage<Bundle>> {
  const page = next?.page ?? 1;
  const body = await api<unknown>('POST', `/get-template-bundle?page=${page}`, {}, { signal });
  const list = isRecord(body) && isRecord(body.bundles) ? body.bundles : undefined;
  if (!list) throw new ApiError(200, UNEXPECTED);
  const more = page < num(list.last_page);
  return { items: bundles(list.data), next: more ? { page: page + 1, cursor: null } : null };
}

/**
 * One bundle with every template (the bundle edit page).
 * @throws {ApiError} 404 for an unknown bundle (or one the user's team does not have).
 */
export async function fetchBundle(bundleId: string, signal?: AbortSignal): Promise<Bundle> {
  const body = await api<unknown>('POST', '/get-template-bundle', { bundleId }, { signal });
  const bundle = toBundle(isRecord(body) ? body.bundle : undefined);
  if (!bundle) throw new ApiError(200, UNEXPECTED);
  return bundle;
}

/** `POST /get-all-template-bundle/` `{id}` (spec 000 §7): the save modal's bundle options. */
export async function fetchBundleOptions(templateId: string | null): Promise<BundleOption[]> {
  const body = await api<unknown>('POST', '/get-all-template-bundle', { id: templateId });
  return rows(isRecord(body) ? body.bundles : undefined).flatMap((row) =>
    isRecord(row) && typeof row.id === 'string'
      ? [{ id: row.id, name: text(row.name, row.id), selected: row.selected === true }]
      : [],
  );
}

/** The server's message of a successful admin call. */
const messageOf = (body: unknown, fallback: string) =>
  isRecord(body) ? text(body.message, fallback) : fallback;

/** `POST /admin/template/changeStatus` (spec 000 §7). @returns the server's message. */
export async function changeTemplateStatus(templateId: string, enabled: boolean) {
  const body = await api<unknown>('POST', '/admin/template/changeStatus', {
    picSnippetId: templateId,
    status: enabled ? 1 : 0,
  });
  return messageOf(body, enabled ? 'The template was activated.' : 'The template was deactivated.');
}

/** `DELETE /admin/template/delete` (spec 000 §7). @returns the server's message (spec 000 §8). */
export async function deleteTemplate(templateId: string): Promise<string> {
  const body = await api<unknown>('DELETE', '/admin/template/delete', {
    picSnippetId: templateId,
  });
  return messageOf(body, 'The template was deleted.');
}

/** A bundle chosen in the save modal: an existing one by id, or a new one by name. */
export type BundleChoice = { id: string } | { name: string };

/** What a successful save answers. */
export interface SavedTemplate {
  message: string;
  version: number;
  tags: string[];
  bundles: BundleOption[];
}

/**
 * `POST /admin/template/{save|update}` (spec 000 §7: picSnippetId, imageTags,
 * templateBundles -> success, message).
 * @throws {ApiError} 422 with `errors.imageTags` or `errors.templateBundles`, 403 for a
 *   non-admin, 404 for an unknown design.
 */
export async function saveTemplate(
  action: 'save' | 'update',
  designId: string,
  tags: string[],
  choices: BundleChoice[],
): Promise<SavedTemplate> {
  const body = await api<unknown>('POST', `/admin/template/${action}`, {
    picSnippetId: designId,
    imageTags: tags,
    templateBundles: choices,
  });
  if (!isRecord(body) || body.success !== true) {
    throw new ApiError(200, messageOf(body, UNEXPECTED));
  }
  return {
    message: messageOf(body, 'The template was saved.'),
    version: num(body.version),
    tags: rows(body.imageTags).filter((t): t is string => typeof t === 'string'),
    bundles: rows(body.bundles).flatMap((row) =>
      isRecord(row) && typeof row.id === 'string'
        ? [{ id: row.id, name: text(row.name, row.id), selected: row.selected === true }]
        : [],
    ),
  };
}

/** `POST /admin/templateBundle/getBundleTeams` (spec 000 §7 -> teams). */
export async function fetchBundleTeams(bundleId: string): Promise<TeamRef[]> {
  const body = await api<unknown>('POST', '/admin/templateBundle/getBundleTeams', { bundleId });
  return teamRefs(isRecord(body) ? body.teams : undefined);
}

const teamRefs = (v: unknown): TeamRef[] =>
  rows(v).flatMap((row) =>
    isRecord(row) && typeof row.id === 'string'
      ? [{ id: row.id, name: text(row.name, row.id) }]
      : [],
  );

/** The kiosk's team search (`POST /teams/search`, admins), for the add-teams modal. */
export async function searchTeams(query: string, signal?: AbortSignal): Promise<TeamRef[]> {
  return teamRefs(await api<unknown>('POST', '/teams/search', { query }, { signal }));
}

/** `POST /admin/templateBundle/assignTeams` (spec 000 §7): the bundle's teams become `teamIds`. */
export async function assignTeams(bundleId: string, teamIds: string[]) {
  const body = await api<unknown>('POST', '/admin/templateBundle/assignTeams', {
    bundleId,
    teamIds,
  });
  return {
    message: messageOf(body, 'The teams were saved.'),
    teamsCount: isRecord(body) ? num(body.teamsCount) : teamIds.length,
  };
}

/** `POST /admin/templateBundle/changeBundleStatus` (spec 000 §7). @returns the message. */
export async function changeBundleStatus(bundleId: string, active: boolean): Promise<string> {
  const body = await api<unknown>('POST', '/admin/templateBundle/changeBundleStatus', {
    templateBundleId: bundleId,
    status: active ? 1 : 0,
  });
  return messageOf(body, active ? 'The bundle was activated.' : 'The bundle was deactivated.');
}

/** `DELETE /admin/templateBundle/deleteBundle` (spec 000 §7). @returns the message. */
export async function deleteBundle(bundleId: string): Promise<string> {
  const body = await api<unknown>('DELETE', '/admin/templateBundle/deleteBundle', { bundleId });
  return messageOf(body, 'The template bundle was deleted.');
}

/** What removing a template from a bundle did. */
export interface RemovedFromBundle {
  message: string;
  /**
   * The template was the design open in the caller's editor (`currentDesignId`): it is a plain
   * design again, without tags or bundles (spec 000 §4), stored as `version`.
   */
  current: boolean;
  version: number | null;
}

/**
 * `DELETE /admin/templateBundle/deletePicSnippet` (spec 000 §7): a template leaves a bundle;
 * when it is `currentDesignId`, the design open in the editor, its tags and bundles are
 * cleared on the server too (docs/templates.md "Deleting").
 * @throws {ApiError} 404 when the template is not in the bundle.
 */
export async function removeFromBundle(
  bundleId: string,
  templateId: string,
  currentDesignId: string | null,
): Promise<RemovedFromBundle> {
  const body = await api<unknown>('DELETE', '/admin/templateBundle/deletePicSnippet', {
    bundleId,
    picSnippetId: templateId,
    currentPicsnippetId: currentDesignId,
  });
  const record = isRecord(body) ? body : {};
  return {
    message: messageOf(body, 'The template was removed from the bundle.'),
    current: record.current === true,
    version: typeof record.version === 'number' ? record.version : null,
  };
}
