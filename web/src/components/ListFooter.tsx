import { useEffect, useRef } from 'react';
import { LoadFailed } from './LoadFailed.tsx';
import { Spinner } from './Spinner.tsx';
import type { PagedList } from '../hooks/usePagedQuery.ts';

/** The spec's end-of-list message (docs/adr/0020-dashboard-spa.md "Dashboard SPA", docs/editor.md "Messages" empty states). */
export const NO_MORE_RESULTS = 'No more results';

/** How far below the viewport the next page starts loading, px: before the user gets there. */
const PRELOAD_MARGIN_PX = 600;

/**
 * The end of a paged list (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "All lists page by
 * infinite scroll and end with the message 'No more results'"): an invisible sentinel that loads
 * the next page as it nears the viewport (IntersectionObserver), a visible "Load more" button for
 * keyboard users and browsers without the observer, the loading and failure states of a further
 * page, and the end message once the last page is in.
 *
 * @param showEnd whether the end message shows (templates: only after more than 4 items).
 * @param moreLabel the button's text, e.g. "Load more PicSnippets".
 */
export function ListFooter({
  list,
  showEnd,
  moreLabel,
}: {
  list: Pick<PagedList<unknown>, 'phase' | 'hasMore' | 'error' | 'loadMore' | 'retry'>;
  showEnd: boolean;
  moreLabel: string;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { phase, hasMore, loadMore } = list;
  const armed = hasMore && phase === 'ready';

  useEffect(() => {
    const target = sentinel.current;
    if (!armed || !target || typeof IntersectionObserver === 'undefined') return;
    // A new observer reports at once whether the sentinel is already in view (a tall screen
    // after a short page), so pages keep coming until the screen is full.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: `0px 0px ${PRELOAD_MARGIN_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [armed, loadMore]);

  // The button leaves with the last page: if it had focus, the end message takes it over.
  const end = useRef<HTMLParagraphElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const buttonHadFocus = useRef(false);
  const finished = phase === 'ready' && !hasMore;
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (finished && buttonHadFocus.current && lost) end.current?.focus();
    buttonHadFocus.current = false;
  }, [finished]);

  return (
    <div className="list-footer">
      <div ref={sentinel} className="list-footer__sentinel" aria-hidden="true" />
      {phase === 'error-more' && <LoadFailed message={list.error} onRetry={list.retry} />}
      <p className="muted list-footer__status" role="status">
        {phase === 'loading-more' && (
          <>
            <Spinner /> Loading more…
          </>
        )}
      </p>
      {hasMore && (phase === 'ready' || phase === 'loading-more') && (
        <button
          ref={button}
          type="button"
          className="button button--secondary"
          aria-disabled={phase === 'loading-more'}
          onClick={() => {
            buttonHadFocus.current = document.activeElement === button.current;
            loadMore();
          }}
        >
          {moreLabel}
        </button>
      )}
      {finished && showEnd && (
        <p ref={end} tabIndex={-1} className="list-footer__end" data-testid="list-end">
          {NO_MORE_RESULTS}
        </p>
      )}
    </div>
  );
}
