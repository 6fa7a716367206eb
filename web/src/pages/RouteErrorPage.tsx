import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { GENERIC_ERROR_MESSAGE } from '../api/client.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { LogoMark } from '../components/LogoMark.tsx';

/**
 * What browsers say when a lazily loaded chunk of the app cannot be fetched (Chromium, Firefox,
 * Safari; Vite's CSS preload): after a deploy removed the files this tab was built with, or the
 * network dropped.
 */
const CHUNK_FAILURES = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
  'Unable to preload CSS',
];

/** Whether `error` is a chunk of the app that could not be loaded (see CHUNK_FAILURES). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_FAILURES.some((text) => message.includes(text));
}

/**
 * Shown instead of the app when rendering a route throws. It renders without the app shell
 * (the shell may be what failed), so it brings its own landmark and way home. A part of the app
 * that could not be loaded (a new version was deployed while the tab was open, or the network
 * dropped) offers a reload of the same page instead (docs/adr/0068-failed-page-loads.md "Failed
 * page loads"; web/src/pages/RouteErrorPage.test.tsx).
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  useDocumentTitle(chunk ? 'Reload to continue' : 'Something went wrong');
  useEffect(() => {
    // Not swallowed: the cause goes to the console for whoever reports the problem.
    console.error(error);
  }, [error]);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <main id="main" className="site-main">
      <div className="container container--narrow">
        <section className="card empty-state">
          <LogoMark size={48} />
          {chunk ? (
            <>
              <h1 className="page-title">Reload to continue</h1>
              <p className="muted">
                This part of PicSnippets could not be loaded: a new version may have come out while
                this tab was open, or the connection dropped. Reloading opens this page again;
                everything saved is kept.
              </p>
              <button type="button" className="button" onClick={() => window.location.reload()}>
                Reload this page
              </button>
            </>
          ) : (
            <>
              <h1 className="page-title">Something went wrong</h1>
              <p className="muted">{GENERIC_ERROR_MESSAGE}</p>
              {detail && <p className="muted">{detail}</p>}
              <a href="/" className="button">
                Reload the home page
              </a>
            </>
          )}
        </section>
      </div>
    </main>
  );
}
