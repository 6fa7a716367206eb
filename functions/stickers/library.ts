/**
 * The sticker library's lists (docs/adr/0021-sticker-library.md "Sticker library" `POST
 * /getStickers`, `/getFavorites`, `/getUploads`, `/getPacksStickers`;
 * docs/adr/0020-dashboard-spa.md "Dashboard SPA" Stickers panel: tabs Library, My Uploads,
 * Favorites, drill-down into a pack). Packs and their stickers are global; uploads belong to a
 * team; favourites belong to a user (docs/adr/0021-sticker-library.md "Sticker library").
 *
 * Every list is read whole and cut into pages here: packs number in the tens, a pack in the
 * tens to hundreds of stickers, so a page costs a few small queries and `last_page` is exact.
 */
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { DYNAMIC_STICKERS } from './dynamic.ts';
import {
  iconView,
  packView,
  uploadView,
  type FavoriteKind,
  type LibraryItem,
  type PackRecord,
  type StickerRecord,
  type UploadRecord,
} from './views.ts';

/** Items per page of every sticker list: six rows of the panel's four columns. */
export const STICKER_PAGE_SIZE = 24;

/** The spec's "not found" answers for a pack or a sticker the caller cannot see. */
export const STICKER_NOT_FOUND = {
  pack: 'Sticker pack not found.',
  sticker: 'Sticker not found.',
} as const;

/** One page of a list: `current_page` from 1, `last_page` at least 1, `per_page`, `total`. */
export interface Page<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** Cuts page `page` (from 1) of {@link STICKER_PAGE_SIZE} out of `items`. */
export function pageOf<T>(items: readonly T[], page: number): Page<T> {
  const start = (page - 1) * STICKER_PAGE_SIZE;
  return {
    data: items.slice(start, start + STICKER_PAGE_SIZE),
    current_page: page,
    last_page: Math.max(1, Math.ceil(items.length / STICKER_PAGE_SIZE)),
    per_page: STICKER_PAGE_SIZE,
    total: items.length,
  };
}

/** Text as search compares it: accents and case folded, runs of other characters one space. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * How well a search matches a name and its keywords, lower is better, or null for no match:
 * every word of the search must appear in the name or a keyword (as part of a word, so `cake`
 * finds "birthday cake" and `shop` finds "shopping cart"). 0: the name is the search; 1: the
 * name starts with it; 2: every word is in the name; 3: found through the keywords.
 * @param search the folded search ({@link foldForSearch}), not empty.
 */
export function searchScore(search: string, name: string, keywords: readonly string[] = []) {
  const folded = foldForSearch(name);
  const words = search.split(' ');
  const inName = words.every((w) => folded.includes(w));
  if (!inName) {
    const all = `${folded} ${keywords.map(foldForSearch).join(' ')}`;
    return words.every((w) => all.includes(w)) ? 3 : null;
  }
  if (folded === search) return 0;
  return folded.startsWith(search) ? 1 : 2;
}

/** Keeps the matching entries, best first, in their list order within a score. */
export function ranked<T>(items: readonly T[], score: (item: T) => number | null): T[] {
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .filter((x): x is { item: T; i: number; s: number } => x.s !== null)
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.item);
}

/** The library's packs that are not removed, in library order. */
export async function activePacks(): Promise<PackRecord[]> {
  const { data } = await db().StickerPack.query.all({}).go({ pages: 'all' });
  return data.filter((p) => p.status === 'active');
}

/** A pack the library shows. @throws AppError 404 for an unknown or removed pack. */
async function activePack(packId: string): Promise<PackRecord> {
  const pack = (await db().StickerPack.get({ packId }).go()).data;
  if (!pack || pack.status !== 'active') throw notFound(STICKER_NOT_FOUND.pack);
  return pack;
}

/** A pack's stickers in pack order. */
async function packStickers(packId: string): Promise<StickerRecord[]> {
  return (await db().Sticker.query.byPack({ packId }).go({ pages: 'all' })).data;
}

/** A team's uploaded stickers, newest first. */
async function teamUploads(teamId: string): Promise<UploadRecord[]> {
  return (await db().StickerUpload.query.byTeam({ teamId }).go({ pages: 'all', order: 'desc' }))
    .data;
}

/** A user's favourites, newest first, and a test for "is this a favourite". */
async function favoritesOf(userId: string) {
  const { data } = await db().StickerFavorite.query.byUser({ userId }).go({ pages: 'all' });
  data.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  const marked = new Set(data.map((f) => `${f.kind}:${f.targetId}`));
  return {
    list: data,
    has: (kind: FavoriteKind, id: string) => marked.has(`${kind}:${id}`),
  };
}

/**
 * The Library tab (`POST /getStickers`). Without a search: the packs, in library order. With
 * one: the packs whose name matches, then the stickers of every pack whose name or keywords
 * match, best first. `dynamic` (on every page) lists the dynamic stickers, filtered by the
 * search too.
 * @param search free text (may be empty).
 * @param page from 1.
 */
export async function libraryPage(userId: string, search: string, page: number) {
  const query = foldForSearch(search);
  const [packs, favorites] = await Promise.all([activePacks(), favoritesOf(userId)]);
  const dynamic = query
    ? ranked(DYNAMIC_STICKERS, (d) => searchScore(query, d.sticker_name, [d.description]))
    : [...DYNAMIC_STICKERS];
  let items: LibraryItem[];
  if (!query) {
    items = packs.map((p) => packView(p, favorites.has('pack', p.packId)));
  } else {
    const stickers = (await Promise.all(packs.map((p) => packStickers(p.packId)))).flat();
    items = [
      ...ranked(packs, (p) => searchScore(query, p.name)).map((p) =>
        packView(p, favorites.has('pack', p.packId)),
      ),
      ...ranked(stickers, (s) => searchScore(query, s.name, s.keywords)).map((s) =>
        iconView(s, favorites.has('icon', s.stickerId)),
      ),
    ];
  }
  return { success: true, ...pageOf(items, page), dynamic };
}

/**
 * One pack's stickers (`POST /getPacksStickers`, the drill-down), optionally searched.
 * @throws AppError 404 `Sticker pack not found.` for an unknown or removed pack.
 */
export async function packPage(userId: string, packId: string, search: string, page: number) {
  const query = foldForSearch(search);
  const [pack, stickers, favorites] = await Promise.all([
    activePack(packId),
    packStickers(packId),
    favoritesOf(userId),
  ]);
  const shown = query ? ranked(stickers, (s) => searchScore(query, s.name, s.keywords)) : stickers;
  return {
    success: true,
    pack: packView(pack, favorites.has('pack', pack.packId)),
    ...pageOf(
      shown.map((s) => iconView(s, favorites.has('icon', s.stickerId))),
      page,
    ),
  };
}

/** The My Uploads tab (`POST /getUploads`): the team's uploads, newest first, searched by name. */
export async function uploadsPage(userId: string, teamId: string, search: string, page: number) {
  const query = foldForSearch(search);
  const [uploads, favorites] = await Promise.all([teamUploads(teamId), favoritesOf(userId)]);
  const shown = query ? ranked(uploads, (u) => searchScore(query, u.imageName)) : uploads;
  return {
    success: true,
    ...pageOf(
      shown.map((u) => uploadView(u, favorites.has('custom_sticker', u.stickerId))),
      page,
    ),
  };
}

/**
 * The Favorites tab (`POST /getFavorites`): the user's favourite packs, stickers and uploads,
 * most recently added first. Favourites the user can no longer see (a removed pack, a deleted
 * upload, another team's upload after switching teams) are left out.
 */
export async function favoritesPage(userId: string, teamId: string, search: string, page: number) {
  const query = foldForSearch(search);
  const favorites = await favoritesOf(userId);
  const ids = (kind: FavoriteKind) =>
    favorites.list.filter((f) => f.kind === kind).map((f) => f.targetId);
  const [packs, stickers, uploads] = await Promise.all([
    activePacks(),
    batchGet(ids('icon'), (keys) =>
      db()
        .Sticker.get(keys.map((stickerId) => ({ stickerId })))
        .go(),
    ),
    batchGet(ids('custom_sticker'), (keys) =>
      db()
        .StickerUpload.get(keys.map((stickerId) => ({ stickerId })))
        .go(),
    ),
  ]);
  const packById = new Map(packs.map((p) => [p.packId, p]));
  const stickerById = new Map(
    stickers.filter((s) => packById.has(s.packId)).map((s) => [s.stickerId, s]),
  );
  const uploadById = new Map(
    uploads.filter((u) => u.teamId === teamId).map((u) => [u.stickerId, u]),
  );
  const items: Array<{ item: LibraryItem; score: number | null }> = [];
  for (const f of favorites.list) {
    if (f.kind === 'pack') {
      const p = packById.get(f.targetId);
      if (p) items.push({ item: packView(p, true), score: query ? searchScore(query, p.name) : 0 });
    } else if (f.kind === 'icon') {
      const s = stickerById.get(f.targetId);
      if (s)
        items.push({
          item: iconView(s, true),
          score: query ? searchScore(query, s.name, s.keywords) : 0,
        });
    } else {
      const u = uploadById.get(f.targetId);
      if (u)
        items.push({
          item: uploadView(u, true),
          score: query ? searchScore(query, u.imageName) : 0,
        });
    }
  }
  return {
    success: true,
    ...pageOf(
      ranked(items, (x) => x.score).map((x) => x.item),
      page,
    ),
  };
}

/**
 * Reads items by id with BatchGetItem (100 keys a call), sending unprocessed keys again; ids that
 * do not exist are skipped.
 * @throws Error when DynamoDB keeps keys unprocessed after three tries.
 */
async function batchGet<T>(
  ids: string[],
  get: (ids: string[]) => Promise<{ data: T[]; unprocessed: Array<{ stickerId: string }> }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    let pending = ids.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 3) throw new Error('DynamoDB left sticker keys unprocessed');
      const res = await get(pending);
      out.push(...res.data);
      pending = res.unprocessed.map((k) => k.stickerId);
    }
  }
  return out;
}
