/**
 * The dashboard lists (docs/adr/0020-dashboard-spa.md "Dashboard SPA" Dashboard,
 * docs/adr/0019-design-api-shapes.md "Design API shapes": "Dashboard lists", docs/editor.md
 * "Constants" page size): a team's active or archived designs, and the enabled templates, by last
 * update (the default), by creation, by name or by views, 15 to a page.
 *
 * Each sort has its own index over the list key (functions/lib/db/entities.ts, Design), so a
 * page is ONE DynamoDB query. The spec pages by number; DynamoDB pages by key. The answer
 * carries an opaque `cursor` for the next page, which the SPA sends back with `page`; a page
 * number without its cursor (a reload, a shared link) is served by reading from the start of
 * the list (docs/adr/0018-design-lists.md "Design lists").
 */
import { createConversions } from 'electrodb';
import { db } from '#lib/db/index.ts';
import { ListQuerySchema, SORTS, type ListQuery, type Sort } from '#shared/contract/designs.ts';
import { validationFailed } from '#lib/errors.ts';
import { designCard, type DesignCard } from './views.ts';
import type { DesignRecord } from './store.ts';

/** Dashboard page size (docs/editor.md "Constants"). */
export const PAGE_SIZE = 15;

/** Deepest page served without a cursor: reading from the start costs one item per row skipped. */
export const MAX_PAGE_WITHOUT_CURSOR = 200;

/** The index and direction of each sort: newest, most viewed first; names A to Z. */
const SORT_INDEX = {
  '': { index: 'byListUpdated', order: 'desc' },
  created: { index: 'byListCreated', order: 'desc' },
  name: { index: 'byListName', order: 'asc' },
  views: { index: 'byListViews', order: 'desc' },
} as const satisfies Record<Sort, { index: string; order: 'asc' | 'desc' }>;

/** The attributes a card needs, plus the key composites a cursor is built from. */
const CARD_ATTRIBUTES = [
  'designId',
  'teamId',
  'publicId',
  'title',
  'version',
  'status',
  'isTemplate',
  'counter',
  'campaign',
  'createdAt',
  'updatedAt',
  'archivedAt',
  'listKey',
  'titleSort',
  'listedViews',
] as const;

export { ListQuerySchema, SORTS, type ListQuery, type Sort };

/** One page of a list, in the shape of Laravel's simple paginator (docs/decisions.md). */
export interface ListPage {
  data: DesignCard[];
  current_page: number;
  /** The next page's number, or null on the last page. */
  next_page: number | null;
  /** Send with `page=next_page` to read it in one query; null on the last page. */
  cursor: string | null;
  per_page: number;
}

/** The list key of a team's designs of a status, or of the templates (entities.ts). */
export const teamList = (teamId: string, status: DesignRecord['status']) =>
  `team:${teamId}:${status}`;
export const templateList = (status: DesignRecord['status']) => `templates:${status}`;

type SortIndex = (typeof SORT_INDEX)[Sort]['index'];

interface QueryListOptions {
  order: 'asc' | 'desc';
  attributes: typeof CARD_ATTRIBUTES;
  cursor?: string;
  limit?: number;
  count?: number;
}

/** One query of a list index (a switch keeps each index's ElectroDB types). */
function queryList(index: SortIndex, listKey: string, options: QueryListOptions) {
  const { query } = db().Design;
  switch (index) {
    case 'byListUpdated':
      return query.byListUpdated({ listKey }).go(options);
    case 'byListCreated':
      return query.byListCreated({ listKey }).go(options);
    case 'byListName':
      return query.byListName({ listKey }).go(options);
    case 'byListViews':
      return query.byListViews({ listKey }).go(options);
  }
}

let conversionsOf: { entity: unknown; value: ReturnType<typeof build> } | undefined;
const build = () => createConversions(db().Design);
/** ElectroDB's key/cursor conversions of the Design entity (rebuilt when db() is). */
function conversions() {
  const entity = db().Design;
  if (conversionsOf?.entity !== entity) conversionsOf = { entity, value: build() };
  return conversionsOf.value;
}

interface CursorBody {
  /** sort, page, ElectroDB's cursor (the last item's keys) */
  s: Sort;
  p: number;
  k: string;
}

const encodeCursor = (body: CursorBody) => Buffer.from(JSON.stringify(body)).toString('base64url');

/** The ElectroDB cursor inside `cursor`, if it was made for this list, sort and page. */
function decodeCursor(
  cursor: string | undefined,
  listKey: string,
  sort: Sort,
  page: number,
): string | undefined {
  if (!cursor) return undefined;
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody;
    if (body.s !== sort || body.p !== page || typeof body.k !== 'string') return undefined;
    // The cursor's keys must lie in this list: a cursor cannot move a query to another team.
    const composite = conversions().byAccessPattern[SORT_INDEX[sort].index].fromCursor.toComposite(
      body.k,
    ) as { listKey?: string };
    return composite.listKey === listKey ? body.k : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one page of a list.
 * @param listKey `teamList(teamId, status)` or `templateList(status)`; the caller decides
 *   whose list it may read.
 * @param query sort, page and the previous page's cursor.
 * @returns the page's cards and the way to the next page. One DynamoDB query when `page` is 1
 *   or comes with its cursor; otherwise the list is read from its start (bounded by
 *   {@link MAX_PAGE_WITHOUT_CURSOR}).
 * @throws AppError 422 (`page`) beyond {@link MAX_PAGE_WITHOUT_CURSOR} without a cursor.
 */
export async function listDesigns(listKey: string, query: ListQuery): Promise<ListPage> {
  const { sortby: sort, page } = query;
  const { index, order } = SORT_INDEX[sort];
  const from = page > 1 ? decodeCursor(query.cursor, listKey, sort, page) : undefined;
  const skip = page > 1 && from === undefined ? (page - 1) * PAGE_SIZE : 0;
  if (page > MAX_PAGE_WITHOUT_CURSOR && from === undefined) {
    throw validationFailed({
      page: [`Pages beyond ${MAX_PAGE_WITHOUT_CURSOR} need the cursor of the page before.`],
    });
  }
  // One more than the page shows tells whether there is a next page.
  const wanted = skip + PAGE_SIZE + 1;
  const result = await queryList(index, listKey, {
    order,
    attributes: CARD_ATTRIBUTES,
    ...(from ? { cursor: from } : {}),
    ...(skip > 0 ? { count: wanted } : { limit: wanted }),
  });
  const rows = (result.data as DesignRecord[]).slice(skip);
  const shown = rows.slice(0, PAGE_SIZE);
  const more = rows.length > PAGE_SIZE;
  const last = shown[shown.length - 1];
  const next = more && last ? page + 1 : null;
  return {
    data: shown.map(designCard),
    current_page: page,
    next_page: next,
    cursor:
      next !== null && last
        ? encodeCursor({
            s: sort,
            p: next,
            k: conversions().byAccessPattern[index].fromComposite.toCursor(last as never),
          })
        : null,
    per_page: PAGE_SIZE,
  };
}
