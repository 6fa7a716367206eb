/**
 * Pieces the Images and Stickers panels share: the end of an infinite list (spinner, error with
 * Retry, 'No more results' of docs/editor.md "Messages", or the sentinel that loads the next page)
 * and the upload button with its progress and the refused-upload notice (docs/editor.md "Editing
 * rules": "a not-allowed notice shows for 4 seconds"; docs/editor.md "Messages" 'Allowed extensions
 * are: .jpg, .jpeg, .bmp, .gif, .png').
 */
import { useEffect, useId, useRef, useState } from 'react';
import { isApiError, type UploadProgress } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import type { Page, PagedList } from '../../../hooks/usePagedQuery.ts';
import type { Paged } from '../imagesApi.ts';

/** docs/editor.md "Editing rules" extensions (the reading with webp) and the docs/editor.md "Messages" message (the reading without). */
export const IMAGE_EXTENSIONS = /\.(jpe?g|bmp|webp|gif|png)$/i;
export const BAD_EXTENSION = 'Allowed extensions are: .jpg, .jpeg, .bmp, .gif, .png';
/** How long an upload notice stays, ms (docs/editor.md "Editing rules"). */
export const UPLOAD_NOTICE_MS = 4000;

/**
 * The end of an infinite list: an error with Retry, a spinner, the empty or 'No more results'
 * line, or an invisible sentinel that reads the next page when it scrolls into view (again after
 * each page, while it stays in view).
 */
export function ListEnd({
  count,
  loading,
  error,
  done,
  onMore,
  empty,
}: {
  /** How many items the list shows. */
  count: number;
  loading: boolean;
  error: string | null;
  done: boolean;
  onMore: () => void;
  /** Said when the list has nothing at all. */
  empty: string;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const waiting = !error && !loading && !done;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !waiting) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [waiting, count, onMore]);
  if (error)
    return (
      <div className="library__end">
        <p className="field__error small" role="alert">
          {error}
        </p>
        <button type="button" className="button button--small button--secondary" onClick={onMore}>
          Retry
        </button>
      </div>
    );
  if (loading)
    return (
      <p className="library__end muted small" role="status">
        <Spinner /> Loading…
      </p>
    );
  if (done)
    return <p className="library__end muted small">{count === 0 ? empty : 'No more results'}</p>;
  return <div ref={sentinel} className="library__sentinel" aria-hidden="true" />;
}

/** A tile's delete button (an upload), labelled with what it deletes. */
export function DeleteTileButton({ name, onDelete }: { name: string; onDelete: () => void }) {
  return (
    <button
      type="button"
      className="library__delete"
      aria-label={`Delete ${name}`}
      onClick={onDelete}
    >
      ×
    </button>
  );
}

/**
 * 'Are you sure?' (docs/editor.md "Messages") before an upload is deleted; open while `name` is
 * set. Designs using the upload keep it (the file stays, docs/security.md "Deleted uploads").
 */
export function DeleteUploadDialog({
  name,
  onCancel,
  onConfirm,
}: {
  name: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={name !== null}
      title="Are you sure?"
      confirmLabel="Delete"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>“{name}” will be removed from your uploads. Designs using it keep it.</p>
    </ConfirmDialog>
  );
}

/** The props of `ListEnd` from a paged list (its Retry asks again for what failed). */
export const listEndOf = <T,>(list: PagedList<T, unknown>) => ({
  count: list.items.length,
  loading: list.phase === 'loading' || list.phase === 'loading-more',
  error: list.error,
  done: !list.hasMore,
  onMore: list.error === null ? list.loadMore : list.retry,
});

/** A library page (page numbers from 1) as a paged list reads it. */
export const pageOf = <T,>(paged: Paged<T>): Page<T, number> => ({
  items: paged.items,
  next: paged.nextPage,
});

/** The message of a library list that failed: the server's, else a plain one. */
export const libraryFailure = (error: unknown): string =>
  isApiError(error) ? error.message : 'The list could not be loaded.';

/**
 * An upload button: a file of another extension is refused at once, a refused upload shows the
 * server's message; either notice stays 4 s. The progress shows while the file is sent. What the
 * upload says it kept (an animated sticker's frames cut by a bound, docs/editor.md "Animated GIF
 * stickers") stays, politely announced, until the next upload.
 * @param upload sends the file, reporting progress; throws ApiError when refused; may return
 *   that message.
 */
export function UploadButton({
  label,
  upload,
}: {
  label: string;
  /** Stores the file; a message it returns is shown until the next upload (what was kept). */
  upload: (
    file: File,
    onProgress: (progress: UploadProgress) => void,
  ) => Promise<void | string | null>;
}) {
  const id = useId();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [kept, setKept] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = (message: string) => {
    setNotice(message);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setNotice(null), UPLOAD_NOTICE_MS);
  };
  const send = async (file: File) => {
    if (!IMAGE_EXTENSIONS.test(file.name)) return show(BAD_EXTENSION);
    setProgress({ loaded: 0, total: file.size });
    setKept(null);
    try {
      setKept((await upload(file, setProgress)) || null);
    } catch (e) {
      show(isApiError(e) ? (e.errors?.image?.[0] ?? e.message) : 'The upload failed.');
    } finally {
      setProgress(null);
    }
  };
  const percent =
    progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="library__upload">
      <label htmlFor={id} className="button button--small library__upload-button">
        {label}
      </label>
      <input
        id={id}
        type="file"
        className="visually-hidden"
        accept=".jpg,.jpeg,.bmp,.webp,.gif,.png,image/*"
        required
        disabled={progress !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void send(file);
        }}
      />
      {progress && (
        <div className="library__progress">
          <progress max={100} value={percent} aria-label="Upload progress" />
          <span className="small">{percent}%</span>
        </div>
      )}
      {notice && <Notice tone="error">{notice}</Notice>}
      {kept && <Notice tone="info">{kept}</Notice>}
    </div>
  );
}
