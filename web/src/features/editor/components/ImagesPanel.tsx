/**
 * The Images panel (docs/editor.md "Architecture": "Images: tabs Library and My Uploads; search
 * box; stock-photo search"; docs/editor.md "Editing rules" upload rules; docs/editor.md "Messages"
 * 'Allowed extensions are: …', 'Are you sure?', 'No more results'; docs/editor.md "Constants" 700
 * ms image search debounce; docs/editor.md "Images panel"): the global library and the team's
 * uploads with infinite scroll and a search by title and tags, an upload with progress, deleting an
 * upload, and stock photos. Choosing an image makes it the design's photo (`replaceBaseImage`, one
 * undo step; the sync saves it through `saveImageId`, imagesApi.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useId, useState, type ReactNode } from 'react';
import { MAX_SEARCH_LENGTH } from '#shared/contract/stickers.ts';
import { isApiError } from '../../../api/client.ts';
import { Notice } from '../../../components/Notice.tsx';
import { Tabs } from '../../../components/Tabs.tsx';
import { useDeleteFromList, usePagedQuery, type PagedList } from '../../../hooks/usePagedQuery.ts';
import { STALE_TIME } from '../../../state/queryClient.ts';
import { queryKeys } from '../../../state/queryKeys.ts';
import { useAppStore } from '../../../state/store.ts';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import {
  baseImageOf,
  deleteImage,
  fetchImages,
  importStockImage,
  isNotConfigured,
  pagedOf,
  searchStockImages,
  uploadImage,
  type LibraryImage,
  type Paged,
  type StockImage,
  type StockPage,
} from '../imagesApi.ts';
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

/** Every image search (Library, My Uploads, Stock) waits for this pause in typing, ms (docs/editor.md "Constants"). */
export const IMAGE_SEARCH_DEBOUNCE_MS = 700;

type Tab = 'library' | 'uploads' | 'stock';
const TABS = [
  { id: 'library', label: 'Library' },
  { id: 'uploads', label: 'My Uploads' },
  { id: 'stock', label: 'Stock' },
] as const;

/**
 * Where a chosen image goes when the panel is a picker for something else (a rule's photo,
 * RulesPanel.tsx): `choose` gets it, `current` is the image shown as chosen (null: none).
 */
interface ImageChoice {
  choose: (image: LibraryImage) => void;
  current: string | null;
}
const ImageChoiceContext = createContext<ImageChoice | null>(null);

/** Uses a chosen image as the design's photo, or hands it to the picker's `choose`. */
function useChoose(): (image: LibraryImage) => void {
  const { store } = useEditorContext();
  const picker = useContext(ImageChoiceContext);
  if (picker) return picker.choose;
  return (image) => {
    try {
      runCommand(store, 'replaceBaseImage', { image: baseImageOf(image) });
    } catch (e) {
      store.getState().showNotice({
        tone: 'error',
        text: isApiError(e) ? e.message : 'This image cannot be used.',
      });
    }
  };
}

const imageIdOf = (image: LibraryImage) => image.id;
const stockIdOf = (photo: StockImage) => `${photo.from}:${photo.id}`;

/** A grid of images; each is a button that makes it the design's photo. */
function ImageGrid({
  list,
  onDelete,
}: {
  list: PagedList<LibraryImage>;
  onDelete?: (image: LibraryImage) => void;
}) {
  const choose = useChoose();
  const picker = useContext(ImageChoiceContext);
  const designImage = useEditor((s) => s.design?.image_id);
  const current = picker ? picker.current : designImage;
  return (
    <ul className="library__grid" aria-label="Images">
      {list.items.map((image) => (
        <li key={image.id} className="library__item">
          <button
            type="button"
            className="library__pick"
            aria-pressed={image.id === current}
            aria-label={`Use ${image.title}${image.author ? ` by ${image.author}` : ''}`}
            onClick={() => choose(image)}
          >
            {image.thumb ? (
              <img src={image.thumb} alt="" loading="lazy" />
            ) : (
              <span className="muted small">{image.title}</span>
            )}
          </button>
          {onDelete && <DeleteTileButton name={image.title} onDelete={() => onDelete(image)} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * The Library or My Uploads tab: a search by title and tags (docs/editor.md "Images panel"),
 * sent 700 ms after the last key, over its results.
 */
function ImageList({ source }: { source: 'library' | 'uploads' }) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useDebouncedCommit<string>(
    (value) => setSearch(value.trim()),
    IMAGE_SEARCH_DEBOUNCE_MS,
  );
  const clear = () => {
    setTyped('');
    setSearch('');
  };
  const label = source === 'library' ? 'Search the library' : 'Search my uploads';
  const box = (
    <div className="library__search">
      <label htmlFor={`${id}-search`} className="visually-hidden">
        {label}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="input"
        placeholder={`${label} by title or tag`}
        maxLength={MAX_SEARCH_LENGTH}
        value={typed ?? search}
        onChange={(e) => setTyped(e.target.value)}
      />
      {(typed ?? search) !== '' && (
        <button type="button" className="button button--small button--secondary" onClick={clear}>
          Clear search
        </button>
      )}
    </div>
  );
  return (
    <ImageResults key={search} source={source} search={search} searchBox={box} onClear={clear} />
  );
}

/**
 * One search's list of the Library or My Uploads tab, cached per search (the library is shared,
 * the uploads are the team's): an upload joins the list shown and marks the tab's other lists
 * stale, a delete leaves it. Nothing found for a search says so, with a way to clear it.
 */
function ImageResults({
  source,
  search,
  searchBox,
  onClear,
}: {
  source: 'library' | 'uploads';
  search: string;
  searchBox: ReactNode;
  onClear: () => void;
}) {
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const queryClient = useQueryClient();
  const list = usePagedQuery({
    queryKey: queryKeys.images.list(teamId, source, search),
    fetchPage: async (page: number | null, signal: AbortSignal) =>
      pageOf(await fetchImages(source, page ?? 1, search, signal)),
    idOf: imageIdOf,
    staleTime: STALE_TIME.library,
    failure: libraryFailure,
  });
  const designId = useEditor((s) => s.meta?.id ?? '');
  const { deleting, setDeleting, remove, error } = useDeleteFromList(
    list,
    deleteImage,
    'The image could not be deleted.',
  );
  const end = listEndOf(list);
  const noMatch = search !== '' && end.done && !end.loading && !end.error && end.count === 0;
  return (
    <>
      {source === 'uploads' && (
        <UploadButton
          label="Upload an image"
          upload={async (file, onProgress) => {
            const image = await uploadImage(file, designId, onProgress);
            list.update((items) => [image, ...items]);
            void queryClient.invalidateQueries({
              queryKey: queryKeys.images.list(teamId, 'uploads'),
              refetchType: 'none',
            });
          }}
        />
      )}
      {searchBox}
      {error && <Notice tone="error">{error}</Notice>}
      <ImageGrid list={list} onDelete={source === 'uploads' ? setDeleting : undefined} />
      {noMatch ? (
        <div className="library__no-match" role="status">
          <p className="muted small">No images match “{search}”.</p>
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={onClear}
          >
            Show all images
          </button>
        </div>
      ) : (
        <ListEnd
          {...end}
          empty={source === 'uploads' ? 'No uploads yet. Upload an image to use it.' : 'No images.'}
        />
      )}
      <DeleteUploadDialog
        name={deleting ? deleting.title : null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </>
  );
}

/** Thrown by the stock search when the server has no stock service configured. */
class NotConfigured extends Error {}

/**
 * Whether stock search is configured, asked once: a blank query answers `configured: false`
 * without keys and is refused (422) with them, so no search is made. A search that finds the
 * service missing sets it too.
 */
const stockConfiguredQuery = {
  queryKey: queryKeys.images.stockConfigured,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    searchStock(' ', 1, signal).then(
      () => true,
      (e: unknown) => !(e instanceof NotConfigured),
    ),
  staleTime: Infinity,
};

/** `GET /api/search-images/{query}?page=`; `configured: false` (or a 501) → NotConfigured. */
async function searchStock(
  query: string,
  page: number,
  signal: AbortSignal,
): Promise<Paged<StockImage>> {
  let answer: StockPage;
  try {
    answer = await searchStockImages(query, page, signal);
  } catch (e) {
    if (isNotConfigured(e)) throw new NotConfigured();
    throw e;
  }
  if (!answer.configured) throw new NotConfigured();
  return pagedOf(answer, (photo) => photo);
}

/** One search's results (cached per query): a grid with attribution, read page by page. */
function StockResults({
  query,
  busy,
  onUse,
}: {
  query: string;
  busy: boolean;
  onUse: (photo: StockImage) => void;
}) {
  const queryClient = useQueryClient();
  const list = usePagedQuery({
    queryKey: queryKeys.images.stock(query),
    fetchPage: async (page: number | null, signal: AbortSignal) => {
      try {
        return pageOf(await searchStock(query, page ?? 1, signal));
      } catch (e) {
        if (!(e instanceof NotConfigured)) throw e;
        queryClient.setQueryData(queryKeys.images.stockConfigured, false);
        return { items: [], next: null };
      }
    },
    idOf: stockIdOf,
    staleTime: STALE_TIME.library,
    failure: libraryFailure,
  });
  return (
    <>
      <ul className="library__grid" aria-label="Stock photos">
        {list.items.map((photo) => (
          <li key={`${photo.from}:${photo.id}`} className="library__item">
            <button
              type="button"
              className="library__pick"
              disabled={busy}
              aria-label={`Use ${photo.description || 'this photo'} by ${photo.user.name}`}
              onClick={() => onUse(photo)}
            >
              <img src={photo.thumb} alt="" loading="lazy" />
            </button>
            <a
              className="library__credit small"
              href={photo.user.link}
              target="_blank"
              rel="noopener noreferrer"
            >
              {photo.user.name}
            </a>
          </li>
        ))}
      </ul>
      <ListEnd {...listEndOf(list)} empty="No results." />
    </>
  );
}

/**
 * The stock-photo tab: a search (700 ms, docs/editor.md "Constants"); a chosen photo is imported
 * into the team's uploads (`POST /api/search-images/import`) and used. Without a configured service
 * the tab says so.
 */
function StockSearch() {
  const id = useId();
  const choose = useChoose();
  const [query, setQuery] = useState('');
  const [typed, setTyped] = useDebouncedCommit<string>(
    (value) => setQuery(value.trim()),
    IMAGE_SEARCH_DEBOUNCE_MS,
  );
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const configured = useQuery(stockConfiguredQuery).data !== false;
  // The photo is copied into the team's uploads: that list is read again when it is shown.
  const importPhoto = useMutation({
    mutationFn: importStockImage,
    onSuccess: (image) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(teamId, 'uploads') });
      choose(image);
    },
  });
  const error = importPhoto.isError
    ? isApiError(importPhoto.error)
      ? importPhoto.error.message
      : 'The photo could not be used.'
    : null;
  if (!configured)
    return <Notice tone="info">Stock photo search is not configured on this server.</Notice>;
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        Search stock photos
      </label>
      <input
        id={id}
        type="search"
        className="input"
        placeholder="Search stock photos"
        value={typed ?? query}
        onChange={(e) => setTyped(e.target.value)}
      />
      {error && <Notice tone="error">{error}</Notice>}
      {query === '' ? (
        <p className="muted small">Type to search free stock photos.</p>
      ) : (
        <StockResults
          key={query}
          query={query}
          busy={importPhoto.isPending}
          onUse={(photo) => importPhoto.mutate(photo)}
        />
      )}
    </>
  );
}

/**
 * The Images panel's tabs. Without props a chosen image becomes the design's photo; with
 * `onChoose` the panel is a picker: the image goes to `onChoose` and `chosenId` shows as chosen.
 */
export function ImagesPanel({
  onChoose,
  chosenId = null,
}: {
  onChoose?: (image: LibraryImage) => void;
  chosenId?: string | null;
} = {}) {
  const [tab, setTab] = useState<Tab>('library');
  const id = useId();
  const panel = (
    <div className="library">
      <Tabs
        idBase={`${id}-images`}
        label="Images"
        tabs={TABS}
        active={tab}
        onSelect={(t) => setTab(t)}
      >
        {tab === 'stock' ? <StockSearch /> : <ImageList key={tab} source={tab} />}
      </Tabs>
    </div>
  );
  return onChoose ? (
    <ImageChoiceContext.Provider value={{ choose: onChoose, current: chosenId }}>
      {panel}
    </ImageChoiceContext.Provider>
  ) : (
    panel
  );
}
