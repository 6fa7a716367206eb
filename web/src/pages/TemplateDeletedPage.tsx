import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import '../features/templates/templates.css';

/**
 * `/image` (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Page reached after deleting the
 * template that is currently open"; docs/adr/0018-design-lists.md "Design lists": "Deleting the
 * currently open template leads to /image"): says what happened and leads back to the templates.
 */
export function TemplateDeletedPage() {
  useDocumentTitle('Template deleted');
  return (
    <div className="container container--narrow">
      <section className="card empty-state" data-testid="template-deleted">
        <h1 className="page-title">The template was deleted</h1>
        <p className="muted">
          The template you had open is gone from the template library and its bundles. Designs
          already made from it stay as they are.
        </p>
        <p className="template-deleted__actions">
          <Link to="/dashboard?view=templates" className="button">
            Go to the templates
          </Link>
          <Link to="/dashboard" className="button button--secondary">
            Go to the dashboard
          </Link>
        </p>
      </section>
    </div>
  );
}
