import { Link, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  const { pathname } = useLocation();
  return (
    <div className="container container--narrow">
      <section className="card empty-state">
        <p className="empty-state__code" aria-hidden="true">
          404
        </p>
        <h1 className="page-title">Page not found</h1>
        <p className="muted">
          There is no page at <code className="break">{pathname}</code>. It may have moved, or the
          link may be mistyped.
        </p>
        <Link to="/" className="button">
          Go to the home page
        </Link>
      </section>
    </div>
  );
}
