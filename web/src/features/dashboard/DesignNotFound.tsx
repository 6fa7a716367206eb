import { Link } from 'react-router-dom';

/**
 * The page for a design that is not there, or not the current team's (the API answers 404 for
 * both, so ids of other teams do not leak): what may have happened, and the ways on.
 */
export function DesignNotFound() {
  return (
    <div className="container container--narrow">
      <section className="card empty-state" data-testid="design-not-found">
        <p className="empty-state__code" aria-hidden="true">
          404
        </p>
        <h1 className="page-title">This PicSnippet was not found</h1>
        <p className="muted">
          It may have been deleted, or it belongs to another of your teams: switch teams in Settings
          to work on that team's PicSnippets.
        </p>
        <div className="form-actions form-actions--center">
          <Link to="/dashboard" className="button">
            Back to the dashboard
          </Link>
          <Link to="/settings#/companies" className="button button--secondary">
            Your teams
          </Link>
        </div>
      </section>
    </div>
  );
}
