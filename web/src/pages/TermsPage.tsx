import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';

/**
 * The terms of service page (`/terms`, docs/accounts.md "Terms of service"), linked from
 * registration's terms checkbox. PicSnippets is run by an operator, who sets the terms: this is
 * the page an installation shows until its operator puts their own terms here.
 */
export function TermsPage() {
  useDocumentTitle('Terms of service');
  return (
    <div className="container container--narrow">
      <article className="card stack">
        <h1 className="page-title">Terms of service</h1>
        <p>
          This PicSnippets service is run by its operator, the company that gave you its address.
          The operator sets the terms you accept when you create an account: what the service
          offers, what it costs, how your designs, images and recipients&rsquo; data are kept, and
          how either side may end the agreement.
        </p>
        <p>
          This installation has not published its own terms on this page yet. Before you accept, ask
          the operator for them through the contact you were given with the address.
        </p>
        <p>
          <Link to="/register">Back to registration</Link>
        </p>
      </article>
    </div>
  );
}
