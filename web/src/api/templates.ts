/**
 * The template and bundle calls of the dashboard, the bundle edit page and the editor
 * (docs/templates.md "Calls": "Dashboard lists" and "Templates and bundles (admin)";
 * docs/templates.md), typed by their contracts (shared/contract/templates.ts, bundles.ts,
 * images.ts).
 */
import type {
  BundleOption as ContractBundleOption,
  BundleView,
  TemplateCard as ContractTemplateCard,
} from '#shared/contract/templates.ts';
import { ApiError, call } from './client.ts';
import type { DesignCard, DesignSort, NextPage } from './designs.ts';

/**
 * A template (docs/templates.md "Model" Template): a dashboard card plus its tags (shared/contract/
 * templates.ts `TemplateCardSchema`; the home list's rows carry tags only when filtered by one).
 */
export type TemplateCard = DesignCard & Pick<ContractTemplateCard, 'tags'>;

/**
 * A template bundle (shared/contract/templates.ts `BundleViewSchema`; docs/templates.md "Model"):
 * up to 6 `bundle_images` on cards, all on the edit page.
 */
export type Bundle = BundleView;

/** A bundle select option (docs/templates.md "Model"): `selected` when it holds the template read for. */
export type BundleOption = Pick<ContractBundleOption, 'id' | 'name' | 'selected'>;

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

const UNEXPECTED = 'The server answered in a shape this page does not know.';

/** A bundle option as the save modal reads it. */
const toOption = ({ id, name, selected }: ContractBundleOption): BundleOption => ({
  id,
  name,
  selected,
});

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
  const query = {
    status,
    sortby: options.sortby,
    page: options.next?.page ?? 1,
    cursor: options.next?.cursor ?? undefined,
    tag: options.tag || undefined,
  };
  const list = (await call('GET /getHomeTemplates', { query, signal })).templates;
  return {
    items: list.data.map((row) => ({ ...row, tags: row.tags ?? [] })),
    next: list.next_page === null ? null : { page: list.next_page, cursor: list.cursor },
  };
}

/** What the Templates panel shows for one page (docs/templates.md "Calls" `GET /getTemplates`). */
export interface PanelPage {
  templates: TemplateCard[];
  /** Pages from 1; more pages follow while `page < lastPage`. */
  page: number;
  lastPage: number;
  bundles: Bundle[];
  relatedTags: string[];
}

/**
 * `GET /getTemplates?page&imageTag&type` (docs/templates.md "Calls"): the Global tab (`templates`)
 * or the Bonus tab (`templateBundles`: the team's bundles with their templates), searched by tag.
 */
export async function fetchPanelTemplates(
  type: 'templates' | 'templateBundles',
  search: string,
  page: number,
  signal?: AbortSignal,
): Promise<PanelPage> {
  const query = { type, page, imageTag: search };
  const answer = await call('GET /getTemplates', { query, signal });
  return {
    templates: answer.templates.data,
    page: answer.templates.current_page,
    lastPage: answer.templates.last_page,
    bundles: answer.templatesBundles.data,
    relatedTags: answer.related_tags,
  };
}

/**
 * `GET /image/{imageId}/tags` (docs/templates.md "Calls" → `result.tags[].tag.en`): suggested tags
 * for a template made from that image, best first (functions/images/tags.ts).
 */
export async function fetchImageTags(imageId: string, signal?: AbortSignal): Promise<string[]> {
  const answer = await call('GET /image/{id}/tags', { params: { id: imageId }, signal });
  return answer.result.tags.map((t) => t.tag.en).filter((t) => t !== '');
}

/** `POST /get-template-bundle?page=` (docs/templates.md "Calls"): the dashboard's bundles, 15 a page. */
export async function fetchBundles(
  next: NextPage | null,
  signal?: AbortSignal,
): Promise<ListPage<Bundle>> {
  const page = next?.page ?? 1;
  const answer = await call('POST /get-template-bundle', { query: { page }, body: {}, signal });
  if (!('bundles' in answer)) throw new ApiError(200, UNEXPECTED);
  const more = page < answer.bundles.last_page;
  return { items: answer.bundles.data, next: more ? { page: page + 1, cursor: null } : null };
}

/**
 * One bundle with every template (the bundle edit page).
 * @throws {ApiError} 404 for an unknown bundle (or one the user's team does not have).
 */
export async function fetchBundle(bundleId: string, signal?: AbortSignal): Promise<Bundle> {
  const answer = await call('POST /get-template-bundle', { body: { bundleId }, signal });
  if (!('bundle' in answer)) throw new ApiError(200, UNEXPECTED);
  return answer.bundle;
}

/** `POST /get-all-template-bundle/` `{id}` (docs/templates.md "Calls"): the save modal's bundle options. */
export async function fetchBundleOptions(templateId: string | null): Promise<BundleOption[]> {
  const answer = await call('POST /get-all-template-bundle', { body: { id: templateId } });
  return answer.bundles.map(toOption);
}

/** `POST /admin/template/changeStatus` (docs/templates.md "Calls"). @returns the server's message. */
export async function changeTemplateStatus(templateId: string, enabled: boolean) {
  const body = { picSnippetId: templateId, status: enabled ? 1 : 0 } as const;
  return (await call('POST /admin/template/changeStatus', { body })).message;
}

/** `DELETE /admin/template/delete` (docs/templates.md "Calls"). @returns the server's message (docs/editor.md "Messages"). */
export async function deleteTemplate(templateId: string): Promise<string> {
  const body = { picSnippetId: templateId };
  return (await call('DELETE /admin/template/delete', { body })).message;
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
 * `POST /admin/template/{save|update}` (docs/templates.md "Calls": picSnippetId, imageTags,
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
  const answer = await call('POST /admin/template/{action}', {
    params: { action },
    body: { picSnippetId: designId, imageTags: tags, templateBundles: choices },
  });
  return {
    message: answer.message,
    version: answer.version,
    tags: answer.imageTags,
    bundles: answer.bundles.map(toOption),
  };
}

/** `POST /admin/templateBundle/getBundleTeams` (docs/templates.md "Calls" -> teams). */
export async function fetchBundleTeams(bundleId: string): Promise<TeamRef[]> {
  return (await call('POST /admin/templateBundle/getBundleTeams', { body: { bundleId } })).teams;
}

/** The kiosk's team search (`POST /teams/search`, admins), for the add-teams modal. */
export async function searchTeams(query: string, signal?: AbortSignal): Promise<TeamRef[]> {
  const teams = await call('POST /teams/search', { body: { query }, signal });
  return teams.map((team) => ({ id: team.id, name: team.name }));
}

/** `POST /admin/templateBundle/assignTeams` (docs/templates.md "Calls"): the bundle's teams become `teamIds`. */
export async function assignTeams(bundleId: string, teamIds: string[]) {
  const body = { bundleId, teamIds };
  const { message, teamsCount } = await call('POST /admin/templateBundle/assignTeams', { body });
  return { message, teamsCount };
}

/** `POST /admin/templateBundle/changeBundleStatus` (docs/templates.md "Calls"). @returns the message. */
export async function changeBundleStatus(bundleId: string, active: boolean): Promise<string> {
  const body = { templateBundleId: bundleId, status: active ? 1 : 0 } as const;
  return (await call('POST /admin/templateBundle/changeBundleStatus', { body })).message;
}

/** `DELETE /admin/templateBundle/deleteBundle` (docs/templates.md "Calls"). @returns the message. */
export async function deleteBundle(bundleId: string): Promise<string> {
  return (await call('DELETE /admin/templateBundle/deleteBundle', { body: { bundleId } })).message;
}

/** What removing a template from a bundle did. */
export interface RemovedFromBundle {
  message: string;
  /**
   * The template was the design open in the caller's editor (`currentDesignId`): it is a plain
   * design again, without tags or bundles (docs/templates.md "Model"), stored as `version`.
   */
  current: boolean;
  version: number | null;
}

/**
 * `DELETE /admin/templateBundle/deletePicSnippet` (docs/templates.md "Calls"): a template leaves a
 * bundle; when it is `currentDesignId`, the design open in the editor, its tags and bundles are
 * cleared on the server too (docs/templates.md "Deleting").
 * @throws {ApiError} 404 when the template is not in the bundle.
 */
export async function removeFromBundle(
  bundleId: string,
  templateId: string,
  currentDesignId: string | null,
): Promise<RemovedFromBundle> {
  const answer = await call('DELETE /admin/templateBundle/deletePicSnippet', {
    body: { bundleId, picSnippetId: templateId, currentPicsnippetId: currentDesignId },
  });
  return {
    message: answer.message,
    current: answer.current,
    version: answer.current ? answer.version : null,
  };
}
