import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isApiError } from '../api/client.ts';
import { fetchBundle, removeFromBundle, type Bundle, type TemplateCard } from '../api/templates.ts';
import { ConfirmDialog } from '../components/Modal.tsx';
import { PageLoading } from '../components/Spinner.tsx';
import { ActionFeedback, useFlash } from '../components/Flash.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { TEMPLATE_ALERT_MS } from '../features/dashboard/useTemplateAdmin.ts';
import { actionFailure } from '../lib/formFailure.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { queryKeys } from '../state/queryKeys.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import '../features/templates/templates.css';

/**
 * The bundle edit page, `/template-bundle/{id}/edit` (docs/adr/0020-dashboard-spa.md "Dashboard
 * SPA": "Bundle picture cards are edited at the bundle's edit URL with /edit appended";
 * docs/templates.md): a picture card per template of the bundle with Delete, which takes the
 * template out of the bundle (the template itself stays). Admins only; others see the not-found
 * state.
 */
export function BundleEditPage() {
  useDocumentTitle('Edit template bundle');
  return (
    <SignedInOnly>
      <BundleEditor />
    </SignedInOnly>
  );
}

function BundleEditor() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const bundleKey = queryKeys.bundles.one(id);
  const read = useQuery({
    queryKey: bundleKey,
    queryFn: ({ signal }) => fetchBundle(id, signal),
  });
  const [removing, setRemoving] = useState<TemplateCard | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { flash, show } = useFlash();

  useEffect(() => {
    if (!error) return;
    const timer = window.setTimeout(() => setError(null), TEMPLATE_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [error]);

  const remove = useCallback(
    async (template: TemplateCard) => {
      setBusy(true);
      setError(null);
      try {
        show((await removeFromBundle(id, template.id, null)).message);
        queryClient.setQueryData<Bundle>(queryKeys.bundles.one(id), (bundle) =>
          bundle
            ? {
                ...bundle,
                templatesCount: bundle.templatesCount - 1,
                bundle_images: bundle.bundle_images.filter((t) => t.id !== template.id),
              }
            : bundle,
        );
        // The bundle lists, the Bonus views and the editor's panel show its templates too.
        void queryClient.invalidateQueries({
          queryKey: queryKeys.bundles.all,
          refetchType: 'none',
        });
        void queryClient.invalidateQueries({
          queryKey: queryKeys.templates.all,
          refetchType: 'none',
        });
      } catch (failure) {
        setError(actionFailure(failure));
      } finally {
        setBusy(false);
        setRemoving(null);
      }
    },
    [id, show, queryClient],
  );

  if (read.isPending) {
    return <PageLoading>Loading the bundle…</PageLoading>;
  }
  if (read.isError && isApiError(read.error) && read.error.status === 404) {
    return (
      <div className="container container--narrow">
        <section className="card empty-state">
          <h1 className="page-title">This template bundle was not found</h1>
          <p className="muted">It may have been deleted, or the link may be mistyped.</p>
          <Link to="/dashboard?view=bundles" className="button">
            Back to the template bundles
          </Link>
        </section>
      </div>
    );
  }
  if (read.isError) {
    return (
      <div className="container">
        <LoadFailed
          title="The bundle could not be loaded"
          message={actionFailure(read.error)}
          onRetry={() => void read.refetch()}
        />
      </div>
    );
  }

  const bundle = read.data;
  return (
    <div className="container stack-lg">
      <p>
        <Link to="/dashboard?view=bundles">
          <span aria-hidden="true">← </span>Template bundles
        </Link>
      </p>
      <header className="dashboard__header">
        <h1 className="page-title">{bundle.name}</h1>
        <p className="muted">
          {bundle.active ? 'Active' : 'Inactive'} · {bundle.teamsCount}{' '}
          {bundle.teamsCount === 1 ? 'team' : 'teams'}
        </p>
      </header>
      {bundle.bundle_images.length === 0 ? (
        <section className="empty-state" data-testid="list-empty">
          <h2 className="card__title">No templates in this bundle</h2>
          <p className="muted">
            Add templates from the editor: Save as template, then choose this bundle.
          </p>
        </section>
      ) : (
        <ul className="picture-grid" aria-label="Templates in the bundle">
          {bundle.bundle_images.map((template) => (
            <li key={template.id} className="picture-card" data-testid="bundle-picture">
              <div className="picture-card__image">
                <img src={template.preview_url} alt={template.title} loading="lazy" />
              </div>
              <div className="design-card__body">
                <h2 className="design-card__title">{template.title}</h2>
                {template.tags.length > 0 && (
                  <p className="design-card__meta muted">{template.tags.join(', ')}</p>
                )}
              </div>
              <div className="design-card__actions">
                <button
                  type="button"
                  className="button button--small button--secondary"
                  aria-disabled={busy}
                  onClick={() => {
                    if (!busy) setRemoving(template);
                  }}
                >
                  Delete<span className="visually-hidden"> {template.title} from the bundle</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Are you sure?"
        confirmLabel="Delete"
        pending={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      >
        <p>
          “{removing?.title}” leaves the bundle “{bundle.name}”. The template stays in the template
          library.
        </p>
      </ConfirmDialog>
      <ActionFeedback flash={flash} error={error} onDismissError={() => setError(null)} />
    </div>
  );
}
