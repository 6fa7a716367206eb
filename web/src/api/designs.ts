/**
 * The design calls of the dashboard and the show page (docs/adr/0019-design-api-shapes.md "Design
 * API shapes": "Dashboard lists" and "Design actions"), and the current team's flags the dashboard
 * needs (docs/adr/0018-design-lists.md "Design lists" frozen accounts, docs/adr/0023-team-roles.md
 * "Team roles" `can_export_pdf`).
 *
 * The answers are typed by the designs and templates contracts (shared/contract; the server
 * checks its answers against them in tests), so the screens can trust what they get.
 */
import type { DesignCard as ContractDesignCard, Design } from '#shared/contract/designs.ts';
import type { Team } from '#shared/contract/teams.ts';
import { call } from './client.ts';

/** The dashboard sorts (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "sortby: empty = last updated, created, name, views"). */
export const DESIGN_SORTS = ['', 'created', 'name', 'views'] as const;
export type DesignSort = (typeof DESIGN_SORTS)[number];

/** The dashboard's lists (docs/adr/0020-dashboard-spa.md "Dashboard SPA" view switches: active/archived toggle, template view). */
export const DASHBOARD_VIEWS = ['active', 'archived', 'templates'] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

/**
 * A dashboard card (shared/contract/designs.ts `DesignCardSchema`, the one declaration the
 * server's answers are checked against; docs/adr/0020-dashboard-spa.md "Dashboard SPA").
 */
export type DesignCard = ContractDesignCard;

/** A parameter as the show page reads it (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" Parameter). */
export interface DesignParameter {
  param_name: string;
  param_default_value: string;
}

/** The full design (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" PicSnippet), with the fields the show page reads. */
export interface DesignDetails extends DesignCard {
  /** Canvas size in px (docs/editor.md "Constants" default 900×600). */
  canvas_width: number;
  canvas_height: number;
  text_snippets: { parameters: DesignParameter[] }[];
  /**
   * The parameters of its dynamic stickers (a QR code's, a hosted image's, …) that a URL may
   * carry, each once; a countdown that reads no value is left out (docs/export.md "The screen").
   * Absent: none.
   */
  sticker_parameters?: string[];
}

/** One page of a list: its cards and how to ask for the next one (null on the last page). */
export interface DesignListPage {
  cards: DesignCard[];
  next: NextPage | null;
}

/** The next page of a list: `page` (docs/editor.md "Constants": "later pages start at 2") and its cursor. */
export interface NextPage {
  page: number;
  /** Opaque; sent back with `page` so the server reads the page in one query. */
  cursor: string | null;
}

/**
 * The current team's flags (`GET /settings/companies/current`, docs/export.md "Saves";
 * shared/contract/ teams.ts `TeamSchema`): `frozen` (docs/adr/0018-design-lists.md "Design lists":
 * a frozen team cannot create, archive, clone or activate designs) and `can_export_pdf`
 * (docs/adr/0023-team-roles.md "Team roles": PDF export is for Pro plans).
 */
export type CurrentTeam = Pick<
  Team,
  | 'id'
  | 'name'
  | 'frozen'
  | 'can_export_pdf'
  | 'watermark'
  | 'product_watermark'
  | 'export_provider'
  | 'export_storefront'
>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/** The card's fields of a full design (the answer also carries the document). */
function pickCard(design: Design): DesignCard {
  const { id, public_id, title, version, status, isTemplate, counter } = design;
  const { created_at, updated_at, archived_at, base_url, preview_url } = design;
  const { showurl, editurl, archiveurl, unarchiveurl, proxy_fetches, campaign, counted_at } =
    design;
  return {
    ...{ id, public_id, title, version, status, isTemplate, counter, created_at, updated_at },
    ...{ archived_at, base_url, preview_url, showurl, editurl, archiveurl, unarchiveurl },
    // Absent on older answers: none (docs/analytics.md "Campaigns").
    ...{
      proxy_fetches: proxy_fetches ?? 0,
      campaign: campaign ?? null,
      counted_at: counted_at ?? null,
    },
  };
}

/**
 * Reads one page of a dashboard list: `GET /getActive`, `/getArchived` or `/getHomeTemplates`
 * with `sortby` and `page` (docs/adr/0019-design-api-shapes.md "Design API shapes"), plus the
 * previous page's `cursor` (functions/designs/lists.ts) and, for templates, the onboarding `tag`
 * (docs/adr/0020-dashboard-spa.md "Dashboard SPA"; the server may ignore it).
 * @param next null for the first page, else what the previous page answered.
 * @returns up to 15 cards (docs/editor.md "Constants") and the next page, or null after the last one.
 * @throws {ApiError} for any failed call.
 */
export async function fetchDesignList(
  view: DashboardView,
  options: { sortby: DesignSort; tag?: string; next: NextPage | null },
  signal?: AbortSignal,
): Promise<DesignListPage> {
  const query = {
    sortby: options.sortby,
    page: options.next?.page ?? 1,
    cursor: options.next?.cursor ?? undefined,
  };
  const answer =
    view === 'active'
      ? (await call('GET /getActive', { query, signal })).active
      : view === 'archived'
        ? (await call('GET /getArchived', { query, signal })).archived
        : (await call('GET /getHomeTemplates', { query: { ...query, tag: options.tag }, signal }))
            .templates;
  return {
    cards: answer.data,
    next: answer.next_page === null ? null : { page: answer.next_page, cursor: answer.cursor },
  };
}

/** The show page's view of a full design (its parameters with their fallbacks). */
function toDetails(design: Design): DesignDetails {
  return {
    ...pickCard(design),
    canvas_width: design.canvas_width,
    canvas_height: design.canvas_height,
    text_snippets: design.text_snippets.map((snippet) => ({
      parameters: (Array.isArray(snippet.parameters) ? snippet.parameters : [])
        .filter(isRecord)
        .filter((p) => typeof p.param_name === 'string' && p.param_name !== '')
        .map((p) => ({
          param_name: p.param_name as string,
          param_default_value: text(p.param_default_value),
        })),
    })),
    sticker_parameters: [
      ...new Set(
        design.graphics_data
          .filter(
            (s) =>
              s.stickerType === 'dynamicSticker' &&
              !(s.dynamicStickerType === 'countdown' && s.countdownMode !== 'evergreen'),
          )
          .map((s) => text(s.dynamicStickerParamName))
          .filter((name) => name !== ''),
      ),
    ],
  };
}

/**
 * `GET /api/pic-snippet/{id}` (docs/adr/0019-design-api-shapes.md "Design API shapes").
 * @throws {ApiError} 404 when the design is not the current team's (or does not exist).
 */
export async function fetchDesign(id: string, signal?: AbortSignal): Promise<DesignDetails> {
  return toDetails(await call('GET /api/pic-snippet/{id}', { params: { id }, signal }));
}

/**
 * `POST /api/pic-snippet` `{image_id, title?}` (docs/adr/0019-design-api-shapes.md "Design API
 * shapes"): a new design on a base photo.
 * @returns the new design (the server answers 201 with it).
 * @throws {ApiError} 403 for a frozen team (docs/adr/0018-design-lists.md "Design lists", with the server's message), 422 with
 *   `errors.image_id` ('The selected image is invalid.') or `errors.title`.
 */
export async function createDesign(values: {
  image_id: string;
  title?: string;
}): Promise<DesignDetails> {
  return toDetails(await call('POST /api/pic-snippet', { body: values }));
}

/**
 * `PUT /api/pic-snippet/{id}` with `{title}` (docs/editor.md "Editing rules": at most 255
 * characters; a blank title keeps the old one).
 * @returns the saved title and the design's new version.
 * @throws {ApiError} 422 `errors.title` 'The title may not be greater than 255 characters'.
 */
export async function renameDesign(
  id: string,
  title: string,
): Promise<{ title: string; version: number }> {
  const saved = await call('PUT /api/pic-snippet/{id}', { params: { id }, body: { title } });
  return { title: saved.title, version: saved.version };
}

/**
 * `PUT /api/pic-snippet/{id}/archive` (docs/adr/0019-design-api-shapes.md "Design API shapes": "->
 * success, archived").
 * @returns the archived design's card.
 * @throws {ApiError} 403 for a frozen team (docs/adr/0018-design-lists.md "Design lists"), 404 for another team's design.
 */
export async function archiveDesign(id: string): Promise<DesignCard> {
  return (await call('PUT /api/pic-snippet/{id}/archive', { params: { id }, body: {} })).archived;
}

/**
 * `PUT /api/pic-snippet/{id}/unarchive` (docs/adr/0019-design-api-shapes.md "Design API shapes":
 * "-> success, active"): Activate.
 * @returns the active design's card.
 * @throws {ApiError} 403 for a frozen team (docs/adr/0018-design-lists.md "Design lists"), 404 for another team's design.
 */
export async function activateDesign(id: string): Promise<DesignCard> {
  return (await call('PUT /api/pic-snippet/{id}/unarchive', { params: { id }, body: {} })).active;
}

/**
 * `PUT /pic-snippet/{id}/copy` (docs/adr/0019-design-api-shapes.md "Design API shapes"): Clone. The
 * copy is titled "Copy of - …" and its parameters are renamed (docs/editor.md "Editing rules").
 * @returns the new design's card.
 * @throws {ApiError} 403 for a frozen team (docs/adr/0018-design-lists.md "Design lists"), 404 for another team's design.
 */
export async function cloneDesign(id: string): Promise<DesignCard> {
  return (await call('PUT /pic-snippet/{id}/copy', { params: { id } })).active;
}

/**
 * `POST /pic-snippet/{id}/createFromTemplate` (docs/adr/0019-design-api-shapes.md "Design API
 * shapes": "-> newPicSnippetId"; a POST with the CSRF headers rather than the spec's GET,
 * docs/security.md "State changes are not GETs").
 * @returns the new design's id.
 * @throws {ApiError} 403 for a frozen team, 404 for an unknown or disabled template.
 */
export async function createFromTemplate(templateId: string): Promise<string> {
  const params = { id: templateId };
  return (await call('POST /pic-snippet/{id}/createFromTemplate', { params })).newPicSnippetId;
}

/**
 * `GET /settings/companies/current` (docs/export.md "Saves"): the current team's id and the flags
 * the dashboard and the show page act on, and its watermarks (the editor's preview).
 * @throws {ApiError} 404 when the user has no current team.
 */
export async function fetchCurrentTeam(signal?: AbortSignal): Promise<CurrentTeam> {
  const team = await call('GET /settings/companies/current', { signal });
  const { id, name, frozen, can_export_pdf, watermark, product_watermark } = team;
  const { export_provider, export_storefront } = team;
  return {
    id,
    name,
    frozen,
    can_export_pdf,
    watermark,
    product_watermark,
    export_provider,
    export_storefront,
  };
}
