import type { ReactNode } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import type { PagedList } from '../../../hooks/usePagedQuery.ts';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

/**
 * The search box of a kiosk list (the Sticker packs and Image library tabs): a labelled
 * `searchbox` in a `search` landmark; the list searches as the text settles.
 */
export function SearchBox({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <form role="search" className="kiosk-search" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input"
        value={value}
        maxLength={100}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
    </form>
  );
}

/**
 * A kiosk list's first page as it stands: loading (a polite status), failed (the reason and
 * Retry), empty (`empty`), else `children` (the items).
 */
export function ListState({
  list,
  loading,
  empty,
  children,
}: {
  list: Pick<PagedList<unknown>, 'phase' | 'items' | 'error' | 'retry'>;
  loading: string;
  empty: string;
  children: ReactNode;
}) {
  if (list.phase === 'loading') {
    return (
      <p className="muted" role="status">
        <Spinner /> {loading}
      </p>
    );
  }
  if (list.phase === 'error') return <LoadFailed message={list.error} onRetry={list.retry} />;
  if (list.items.length === 0) return <p className="muted">{empty}</p>;
  return children;
}
