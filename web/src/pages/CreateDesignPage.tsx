import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { createDesign, type DesignDetails } from '../api/designs.ts';
import { fetchGlobalImages, type LibraryImage } from '../api/images.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { CREATE_PATH } from '../features/dashboard/DesignList.tsx';
import { ListFooter } from '../components/ListFooter.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { FrozenNotice } from '../features/dashboard/FrozenNotice.tsx';
import { useCurrentTeam } from '../hooks/useCurrentTeam.ts';
import { formatDay } from '../lib/format.ts';
import { actionFailure } from '../lib/formFailure.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { usePagedQuery } from '../hooks/usePagedQuery.ts';
import { STALE_TIME } from '../state/queryClient.ts';
import { queryKeys } from '../state/queryKeys.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { UploadButton } from '../features/editor/components/LibraryParts.tsx';
import { uploadImage } from '../features/editor/imagesApi.ts';

/** Where the picker's pictures come from, passed on as `from` (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "&from={source}"). */
const LIBRARY_SOURCE = 'library';
/** `from` of a photo the user uploaded on this page. */
const UPLOAD_SOURCE = 'upload';

/**
 * `/pic-snippet/create?base_image={imageId}&from={source}` (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA": "Start a new design from an image"). With `base_image` the design is created at
 * once and the address is replaced by its editor (Back does not create a second one); without it
 * the page shows the library to pick a picture from, each card linking back here with `base_image`.
 * Tests: ./CreateDesignPage.test.tsx.
 */
export function CreateDesignPage() {
  const [params] = useSearchParams();
  const imageId = (params.get('base_image') ?? '').trim();
  useDocumentTitle(imageId ? 'Creating your PicSnippet' : 'Create a new PicSnippet');
  return (
    <SignedInOnly>{imageId ? <CreateFrom imageId={imageId} /> : <LibraryPicker />}</SignedInOnly>
  );
}

/**
 * Creations under way, by history entry: React's strict mode runs effects twice, and a
 * creation must be asked for once per visit of the address.
 */
const creations = new Map<string, Promise<DesignDetails>>();

/** Creates the design on `imageId` (`POST /api/pic-snippet`), then opens it in the editor. */
function CreateFrom({ imageId }: { imageId: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const key = `${location.key}:${imageId}`;
    let creation = creations.get(key);
    if (!creation) {
      creation = createDesign({ image_id: imageId });
      creations.set(key, creation);
    }
    creation.then(
      (design) => {
        if (!live) return;
        creations.delete(key);
        // The new design belongs in the Active lists: read them again when they are shown.
        void queryClient.invalidateQueries({
          queryKey: queryKeys.designs.all,
          refetchType: 'none',
        });
        navigate(design.editurl, { replace: true });
      },
      (error: unknown) => {
        creations.delete(key);
        if (live) setFailure(actionFailure(error));
      },
    );
    return () => {
      live = false;
    };
  }, [location.key, imageId, navigate, queryClient]);

  if (failure === null) {
    return (
      <div className="container container--narrow">
        <section className="card empty-state" aria-busy="true">
          <h1 className="page-title">Creating your PicSnippet</h1>
          <p className="muted" role="status">
            <Spinner /> Putting your picture on a new canvas…
          </p>
        </section>
      </div>
    );
  }
  return (
    <div className="container container--narrow">
      <section className="card empty-state" data-testid="create-failed">
        <h1 className="page-title">Your PicSnippet was not created</h1>
        <Notice tone="error">{failure}</Notice>
        <div className="form-actions form-actions--center">
          <Link to={CREATE_PATH} className="button">
            Pick another picture
          </Link>
          <Link to="/dashboard" className="button button--secondary">
            Back to the dashboard
          </Link>
        </div>
      </section>
    </div>
  );
}

const imageIdOf = (image: LibraryImage) => image.id;

/**
 * "Upload your own photo": the file goes to the team's uploads (`POST /image`, the editor's
 * Images panel's rules and messages, with its progress), then the design is created on it as on
 * a library picture (docs/adr/0020-dashboard-spa.md "Dashboard SPA"; ./CreateDesignPage.test.tsx).
 */
function UploadOwnPhoto() {
  const navigate = useNavigate();
  return (
    <UploadButton
      label="Upload your own photo"
      upload={async (file, onProgress) => {
        const image = await uploadImage(file, '', onProgress);
        navigate(
          `${CREATE_PATH}?${new URLSearchParams({ base_image: image.id, from: UPLOAD_SOURCE })}`,
        );
      }}
    />
  );
}

/** A page of the global library as the paged list reads it (`next`: the page number). */
async function fetchPicturePage(next: number | null, signal: AbortSignal) {
  const page = await fetchGlobalImages(next ?? 1, signal);
  return { items: page.images, next: page.nextPage };
}

/**
 * The global library as "Use this Pic" cards (docs/adr/0020-dashboard-spa.md "Dashboard SPA"
 * gallery cards) with each photo's title and credit, paged like the dashboard (cached as a shared
 * library).
 */
function LibraryPicker() {
  const list = usePagedQuery({
    queryKey: queryKeys.images.picker,
    fetchPage: fetchPicturePage,
    idOf: imageIdOf,
    staleTime: STALE_TIME.library,
    failure: actionFailure,
  });
  const { team } = useCurrentTeam();
  const frozen = team?.frozen ?? false;
  const [view, setView] = useState<GalleryView>('cards');

  return (
    <div className="container stack-lg">
      <header className="stack">
        <p>
          <Link to="/dashboard">
            <span aria-hidden="true">← </span>Dashboard
          </Link>
        </p>
        <h1 className="page-title">Create a new PicSnippet</h1>
        <p className="muted">
          Pick a picture to start from, or upload your own photo. Text snippets with merge fields go
          on it next.
        </p>
        {!frozen && <UploadOwnPhoto />}
      </header>

      {frozen && team && <FrozenNotice team={team} />}

      {list.phase === 'loading' && (
        <p className="muted" role="status">
          <Spinner /> Loading the picture library…
        </p>
      )}
      {list.phase === 'error' && (
        <LoadFailed
          title="The picture library could not be loaded"
          message={list.error}
          onRetry={list.retry}
        />
      )}
      {list.phase === 'ready' && list.items.length === 0 && (
        <section className="empty-state">
          <h2 className="card__title">The library is empty</h2>
          <p className="muted">No pictures have been added to the library yet.</p>
        </section>
      )}

      {list.items.length > 0 && (
        <>
          <div className="gallery-views" role="group" aria-label="Show the pictures as">
            {GALLERY_VIEWS.map(([value, label]) => (
              <button
                key={value}
                type="button"
                className="button button--secondary button--small"
                aria-pressed={view === value}
                onClick={() => setView(value)}
              >
                {label}
              </button>
            ))}
          </div>
          {view === 'cards' ? (
            <ul className="picture-grid" aria-label="Pictures" data-testid="picture-grid">
              {list.items.map((image) => (
                <PictureCard key={image.id} image={image} frozen={frozen} />
              ))}
            </ul>
          ) : (
            <ul className="picture-masonry" aria-label="Pictures" data-testid="picture-masonry">
              {list.items.map((image) => (
                <MasonryCard key={image.id} image={image} frozen={frozen} />
              ))}
            </ul>
          )}
          <ListFooter list={list} moreLabel="Load more pictures" showEnd />
        </>
      )}
    </div>
  );
}

/** The gallery's two views (docs/adr/0020-dashboard-spa.md "Dashboard SPA"): cards with title and date, or masonry. */
type GalleryView = 'cards' | 'masonry';
const GALLERY_VIEWS: ReadonlyArray<readonly [GalleryView, string]> = [
  ['cards', 'Cards'],
  ['masonry', 'Masonry'],
];

/** The create link of a library picture. */
const createLink = (image: LibraryImage) =>
  `${CREATE_PATH}?${new URLSearchParams({ base_image: image.id, from: LIBRARY_SOURCE })}`;

/**
 * A library picture at its own aspect ratio with "Edit Image" (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA" gallery cards: the masonry card), linking to the same create link as "Use this
 * Pic".
 */
function MasonryCard({ image, frozen }: { image: LibraryImage; frozen: boolean }) {
  const action = (
    <>
      Edit Image<span className="visually-hidden"> {image.title}</span>
    </>
  );
  return (
    <li className="masonry-card" data-testid="masonry-card">
      {image.thumb ? (
        <img
          src={image.thumb}
          alt={image.title}
          loading="lazy"
          decoding="async"
          width={image.width}
          height={image.height}
        />
      ) : (
        <span className="design-card__no-preview">{image.title}</span>
      )}
      {frozen ? (
        <span className="button button--small masonry-card__action" aria-disabled="true">
          {action}
        </span>
      ) : (
        <Link to={createLink(image)} className="button button--small masonry-card__action">
          {action}
        </Link>
      )}
    </li>
  );
}

/**
 * The page of a licence named by its SPDX id ("CC-BY-4.0", "GPL-2.0-or-later"; spaces read as
 * dashes), where the photo's credit links: the attribution the licence asks for, in words a
 * marketer does not have to read.
 */
function licenceUrl(licence: string): string {
  return `https://spdx.org/licenses/${encodeURIComponent(licence.trim().replace(/\s+/g, '-'))}.html`;
}

/** A library picture with its credit and "Use this Pic" (docs/adr/0020-dashboard-spa.md "Dashboard SPA" gallery cards). */
function PictureCard({ image, frozen }: { image: LibraryImage; frozen: boolean }) {
  const added = image.created_at ? formatDay(image.created_at) : '';
  return (
    <li className="picture-card" data-testid="picture-card">
      <div className="picture-card__image">
        {image.thumb ? (
          <img src={image.thumb} alt="" loading="lazy" decoding="async" width={400} height={300} />
        ) : (
          <span className="design-card__no-preview">No preview</span>
        )}
      </div>
      <div className="picture-card__body">
        <h2 className="picture-card__title">{image.title}</h2>
        {added && (
          <p className="picture-card__credit muted">
            Added <time dateTime={image.created_at!}>{added}</time>
          </p>
        )}
        {image.author && (
          <p className="picture-card__credit muted">
            Photo by{' '}
            {image.author_url ? (
              <a href={image.author_url} target="_blank" rel="noopener noreferrer">
                {image.author}
              </a>
            ) : (
              image.author
            )}
            {image.licence && (
              <>
                {' · '}
                <a
                  href={licenceUrl(image.licence)}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={`Licence: ${image.licence}`}
                >
                  licence<span className="visually-hidden"> {image.licence}</span>
                </a>
              </>
            )}
          </p>
        )}
      </div>
      {frozen ? (
        <span className="button button--small" aria-disabled="true">
          Use this Pic<span className="visually-hidden"> {image.title}</span>
        </span>
      ) : (
        <Link to={createLink(image)} className="button button--small">
          Use this Pic<span className="visually-hidden"> {image.title}</span>
        </Link>
      )}
    </li>
  );
}
