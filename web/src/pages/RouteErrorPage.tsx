import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { GENERIC_ERROR_MESSAGE } from '../api/client.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { LogoMark } from '../components/LogoMark.tsx';

/**
 * Shown instead of the app when rendering a route throws. It renders without the app shell
 * (the shell may be what failed), so it brings its own landmark and way home.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
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
          <h1 className="page-title">Something went wrong</h1>
          <p className="muted">{GENERIC_ERROR_MESSAGE}</p>
          {detail && <p className="muted">{detail}</p>}
          <a href="/" className="button">
            Reload the home page
          </a>
        </section>
      </div>
    </main>
  );
}
