import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { createFromTemplate } from '../api/designs.ts';
import { Notice } from '../components/Notice.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { actionFailure } from '../lib/formFailure.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';

/**
 * `/pic-snippet/{templateId}/createFromTemplate` opened in the browser: old links, onboarding and
 * marketing links (docs/adr/0019-design-api-shapes.md "Design API shapes": createFromTemplate). A
 * page never creates anything by being opened (docs/security.md "State changes are not GETs"), so
 * it asks: "Create my design" posts `POST /pic-snippet/{id}/createFromTemplate` with the CSRF
 * headers and opens the new design's editor, replacing this address (Back does not offer the button
 * again). A signed-out visitor signs in first and comes back here. Tests:
 * ./CreateFromTemplatePage.test.tsx.
 */
export function CreateFromTemplatePage() {
  useDocumentTitle('Make a design from a template');
  return (
    <SignedInOnly>
      <CreateFromTemplate />
    </SignedInOnly>
  );
}

function CreateFromTemplate() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const designId = await createFromTemplate(id);
      navigate(`/pic-snippet/${encodeURIComponent(designId)}/edit`, { replace: true });
    } catch (error) {
      setFailure(actionFailure(error));
      setBusy(false);
    }
  };

  return (
    <div className="container container--narrow">
      <section className="card empty-state" aria-busy={busy}>
        <h1 className="page-title">Make a design from this template</h1>
        <p className="muted">
          A copy of the template goes into your team&apos;s designs, and opens in the editor.
        </p>
        {failure && <Notice tone="error">{failure}</Notice>}
        <div className="form-actions form-actions--center">
          <button type="button" className="button" onClick={() => void create()} disabled={busy}>
            {busy ? (
              <>
                <Spinner /> Creating your design…
              </>
            ) : (
              'Create my design'
            )}
          </button>
          <Link to="/dashboard" className="button button--secondary">
            Back to the dashboard
          </Link>
        </div>
      </section>
    </div>
  );
}
