/**
 * The Stickers panel (docs/editor.md "Architecture": "Stickers: tabs Library, My Uploads,
 * Favorites; drill-down into a pack with a back button; search";
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" Sticker library items, Dynamic sticker; docs/editor.md "Server sync" calls;
 * docs/editor.md "Constants": "1000 ms … sticker search"): packs open into their stickers, a star
 * marks a favourite, uploads come with progress and are deleted after 'Are you sure?', and the
 * dynamic stickers (QR code, Gravatar, hosted image, screenshot) sit at the top of the Library tab.
 * Choosing a sticker (click, or Enter on it) adds it to the canvas (`addSticker`, one undo step).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isApiError } from '../../../api/client.ts';
import { Notice } from '../../../components/Notice.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDeleteFromList, usePagedQuery } from '../../../hooks/usePagedQuery.ts';
import { STALE_TIME } from '../../../state/queryClient.ts';
import { queryKeys } from '../../../state/queryKeys.ts';
import { useAppStore } from '../../../state/store.ts';
import { runCommand } from '../commands.ts';
import { useEditorContext } from '../EditorContext.tsx';
import {
  deleteUploadedSticker,
  fetchStickers,
  setFavorite,
  uploadSticker,
  type DynamicStickerItem,
  type StickerItem,
  type StickerSource,
} from '../stickersApi.ts';
import {
  DeleteTileButton,
  DeleteUploadDialog,
  libraryFailure,
  ListEnd,
  listEndOf,
  pageOf,
  UploadButton,
} from './LibraryParts.tsx';
import { useDebouncedCommit } from './useDebouncedCommit.ts';
import '../image.css';

/** The search waits for this pause in typing, ms (docs/editor.md "Constants"). */
export const STICKER_SEARCH_DEBOUNCE_MS = 1000;

type Tab = 'library' | 'uploads' | 'favorites';
const TABS = [
  { id: 'library', label: 'Library' },
  { id: 'uploads', label: 'My Uploads' },
  { id: 'favorites', label: 'Favorites' },
] as const;

/** An item's identity in a list: packs and stickers are told apart by type. */
const stickerIdOf = (item: StickerItem) => `${item.type}:${item.id}`;

/** One library item: a pack opens, a sticker is added; the star toggles the favourite. */
function StickerTile({
  item,
  onOpen,
  onFavorite,
  onDelete,
}: {
  item: StickerItem;
  onOpen: (item: StickerItem) => void;
  onFavorite: (item: StickerItem) => void;
  onDelete?: (item: StickerItem) => void;
}) {
  const { store } = useEditorContext();
  const add = () =>
    runCommand(store, 'addSticker', {
      source: {
        kind: 'image',
        url: item.url,
        stickerType: item.stickerType,
        width: item.width,
        height: item.height,
      },
    });
  const pack = item.type === 'pack';
  return (
    <li className="library__item">
      <button
        type="button"
        className="library__pick library__pick--sticker"
        aria-label={pack ? `Open the ${item.name} pack` : `Add ${item.name}`}
        onClick={() => (pack ? onOpen(item) : add())}
      >
        <img src={item.iconUrl} alt="" loading="lazy" />
        {pack && <span className="library__caption small">{item.name}</span>}
      </button>
      <button
        type="button"
        className="library__star"
        aria-pressed={item.isFavorite}
        aria-label={`Favourite ${item.name}`}
        title={item.isFavorite ? 'Remove from favourites' : 'Add to favourites'}
        onClick={() => onFavorite(item)}
      >
        <span aria-hidden="true">{item.isFavorite ? '★' : '☆'}</span>
      </button>
      {onDelete && <DeleteTileButton name={item.name} onDelete={() => onDelete(item)} />}
    </li>
  );
}

/** The dynamic stickers (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"): each adds a sticker whose value comes per recipient. */
function DynamicStickers({ items }: { items: DynamicStickerItem[] }) {
  const { store } = useEditorContext();
  if (items.length === 0) return null;
  return (
    <section aria-label="Dynamic stickers" className="library__dynamic">
      <h3 className="library__heading">Dynamic stickers</h3>
      <ul className="library__grid">
        {items.map((d) => (
          <li key={d.id} className="library__item">
            <button
              type="button"
              className="library__pick library__pick--sticker"
              aria-label={`Add ${d.name}: ${d.description}`}
              title={d.description}
              onClick={() =>
                runCommand(store, 'addSticker', {
                  source: { kind: 'dynamic', dynamicType: d.type },
                })
              }
            >
              <img src={d.iconUrl} alt="" />
              <span className="library__caption small">{d.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A tab's or a pack's list, searched, with favourites, uploads and deletes; cached per tab, pack
 * and search. A favourite or a delete changes this list in the cache and marks the other sticker
 * lists stale (the Favorites tab, the pack the sticker is in).
 */
function StickerList({
  source,
  search,
  onOpen,
}: {
  source: StickerSource;
  search: string;
  onOpen: (pack: StickerItem) => void;
}) {
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const list = usePagedQuery({
    queryKey: queryKeys.stickers.list(teamId, source, search),
    fetchPage: async (page: number | null, signal: AbortSignal) => {
      const result = await fetchStickers(source, search, page ?? 1, signal);
      return { ...pageOf(result), dynamic: result.dynamic };
    },
    idOf: stickerIdOf,
    staleTime: STALE_TIME.library,
    failure: libraryFailure,
  });
  const dynamic: DynamicStickerItem[] = list.first?.dynamic ?? [];
  /** The other sticker lists may show the item changed here: read again when shown. */
  const staleOthers = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.stickers.all, refetchType: 'none' });
  const { deleting, setDeleting, remove, error, setError } = useDeleteFromList(
    list,
    deleteUploadedSticker,
    'The sticker could not be deleted.',
    staleOthers,
  );
  const favorite = async (item: StickerItem) => {
    setError(null);
    try {
      const isFavorite = await setFavorite(item, !item.isFavorite);
      list.update((items) =>
        source.kind === 'favorites' && !isFavorite
          ? items.filter((i) => i.id !== item.id)
          : items.map((i) => (i.id === item.id ? { ...i, isFavorite } : i)),
      );
      staleOthers();
    } catch (e) {
      setError(isApiError(e) ? e.message : 'The favourite could not be saved.');
    }
  };
  const uploads = source.kind === 'uploads';
  return (
    <>
      {uploads && (
        <UploadButton
          label="Upload a sticker"
          upload={async (file, onProgress) => {
            const { item, notice } = await uploadSticker(file, onProgress);
            list.update((items) => [item, ...items]);
            return notice;
          }}
        />
      )}
      {source.kind === 'library' && <DynamicStickers items={dynamic} />}
      {error && <Notice tone="error">{error}</Notice>}
      <ul className="library__grid" aria-label="Stickers">
        {list.items.map((item) => (
          <StickerTile
            key={`${item.type}:${item.id}`}
            item={item}
            onOpen={onOpen}
            onFavorite={(i) => void favorite(i)}
            onDelete={uploads ? setDeleting : undefined}
          />
        ))}
      </ul>
      <ListEnd
        {...listEndOf(list)}
        empty={
          search
            ? 'No more results'
            : uploads
              ? 'No uploads yet. Upload an image to use it as a sticker.'
              : source.kind === 'favorites'
                ? 'No favourites yet. Star a sticker or a pack to keep it here.'
                : 'No more results'
        }
      />
      <DeleteUploadDialog
        name={deleting ? deleting.name : null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </>
  );
}

/** The Stickers panel: tabs, search, and a pack's drill-down with Back. */
export function StickersPanel() {
  const id = useId();
  const [tab, setTab] = useState<Tab>('library');
  const [pack, setPack] = useState<StickerItem | null>(null);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useDebouncedCommit<string>(
    (value) => setSearch(value.trim()),
    STICKER_SEARCH_DEBOUNCE_MS,
  );
  const source: StickerSource = pack ? { kind: 'pack', id: pack.id } : { kind: tab };
  const reset = () => {
    setTyped('');
    setSearch('');
  };
  return (
    <div className="library">
      <label htmlFor={`${id}-search`} className="visually-hidden">
        Search stickers
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="input"
        placeholder={pack ? `Search ${pack.name}` : 'Search stickers'}
        value={typed ?? search}
        onChange={(e) => setTyped(e.target.value)}
      />
      <Tabs
        idBase={`${id}-stickers`}
        label="Stickers"
        tabs={TABS}
        active={tab}
        onSelect={(t) => {
          setTab(t);
          setPack(null);
        }}
      >
        {pack && (
          <div className="library__pack">
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => {
                setPack(null);
                reset();
              }}
            >
              <span aria-hidden="true">←</span> Back
            </button>
            <h3 className="library__heading">{pack.name}</h3>
          </div>
        )}
        <StickerList
          key={`${JSON.stringify(source)}:${search}`}
          source={source}
          search={search}
          onOpen={(p) => {
            setPack(p);
            reset();
          }}
        />
      </Tabs>
    </div>
  );
}
