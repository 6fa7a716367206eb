import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  changeBundleStatus,
  deleteBundle,
  fetchBundles,
  type Bundle,
} from '../../api/templates.ts';
import type { NextPage } from '../../api/designs.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { usePagedQuery } from '../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { AddTeamsModal } from './AddTeamsModal.tsx';
import { ActionFeedback, useFlash } from '../../components/Flash.tsx';
import { ListFooter } from '../../components/ListFooter.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { TEMPLATE_ALERT_MS } from './useTemplateAdmin.ts';
import '../templates/templates.css';

type BundleAction = 'status' | 'delete';

const fetchPage = (next: NextPage | null, signal: AbortSignal) => fetchBundles(next, signal);
const idOf = (bundle: Bundle) => bundle.id;

/**
 * The dashboard's Template Bundles tab (docs/adr/0020-dashboard-spa.md "Dashboard SPA", admins
 * only): bundle cards with up to six template images, the template and team counts, Add teams (the
 * add-teams modal), Activate/Deactivate, Edit (the bundle edit page) and Delete after 'Are you
 * sure?' (docs/editor.md "Messages"), paged by infinite scroll. Bundles are made in the editor's
 * Save as template modal. An action changes the cached list in place and marks the other bundle
 * reads (the Bonus views, the editor's panel) stale.
 */
export function BundleList() {
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const list = usePagedQuery({
    queryKey: queryKeys.bundles.pages(teamId),
    fetchPage,
    idOf,
    failure: actionFailure,
  });
  const update = (change: (items: Bundle[]) => Bundle[]) => {
    list.update(change);
    void queryClient.invalidateQueries({ queryKey: queryKeys.bundles.all, refetchType: 'none' });
  };
  const { flash, show } = useFlash();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<{ id: string; action: BundleAction } | null>(null);
  const [teamsFor, setTeamsFor] = useState<Bundle | null>(null);
  const [deleting, setDeleting] = useState<Bundle | null>(null);

  const fail = useCallback((failure: unknown) => {
    const message = actionFailure(failure);
    setError(message);
    window.setTimeout(() => setError((e) => (e === message ? null : e)), TEMPLATE_ALERT_MS);
  }, []);

  async function run(bundle: Bundle, action: BundleAction, call: () => Promise<string>) {
    if (busy) return false;
    setBusy({ id: bundle.id, action });
    setError(null);
    try {
      show(await call());
      return true;
    } catch (failure) {
      fail(failure);
      return false;
    } finally {
      setBusy(null);
    }
  }

  const toggle = (bundle: Bundle) =>
    void run(bundle, 'status', () => changeBundleStatus(bundle.id, !bundle.active)).then(
      (done) =>
        done &&
        update((items) =>
          items.map((b) => (b.id === bundle.id ? { ...b, active: !bundle.active } : b)),
        ),
    );

  return (
    <div className="design-list">
      {list.phase === 'loading' && (
        <p role="status" className="muted">
          <Spinner /> Loading template bundles…
        </p>
      )}
      {list.phase === 'error' && (
        <LoadFailed
          title="The template bundles could not be loaded"
          message={list.error}
          onRetry={list.retry}
        />
      )}
      {list.phase === 'ready' && list.items.length === 0 && (
        <section className="empty-state design-list__empty" data-testid="list-empty">
          <h2 className="card__title">No template bundles yet</h2>
          <p className="muted">
            Make one in the editor: Save as template, then type a new bundle name in the bundle
            select. Assign it to teams here, and their members find its templates in the Bonus tab.
          </p>
        </section>
      )}
      {list.items.length > 0 && (
        <ul className="design-grid" aria-label="Template bundles" data-testid="bundle-grid">
          {list.items.map((bundle) => (
            <BundleCard
              key={bundle.id}
              bundle={bundle}
              busy={busy?.id === bundle.id ? busy.action : null}
              disabled={busy !== null}
              onTeams={() => setTeamsFor(bundle)}
              onToggle={() => toggle(bundle)}
              onDelete={() => setDeleting(bundle)}
            />
          ))}
        </ul>
      )}
      {list.phase !== 'loading' && list.phase !== 'error' && list.items.length > 0 && (
        <ListFooter list={list} moreLabel="Load more bundles" showEnd />
      )}

      {teamsFor && (
        <AddTeamsModal
          bundle={teamsFor}
          onClose={() => setTeamsFor(null)}
          onSaved={(message, teamsCount) => {
            const id = teamsFor.id;
            update((items) => items.map((b) => (b.id === id ? { ...b, teamsCount } : b)));
            setTeamsFor(null);
            show(message);
          }}
        />
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure?"
        confirmLabel="Delete"
        pending={busy?.action === 'delete'}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const bundle = deleting;
          if (!bundle) return;
          void run(bundle, 'delete', () => deleteBundle(bundle.id)).then((done) => {
            setDeleting(null);
            if (done) update((items) => items.filter((b) => b.id !== bundle.id));
          });
        }}
      >
        <p>
          The bundle “{deleting?.name}” will be deleted. Its templates stay in the template library;
          its teams lose the Bonus templates it gave them.
        </p>
      </ConfirmDialog>

      <ActionFeedback flash={flash} error={error} onDismissError={() => setError(null)} />
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Pictures a bundle card previews at most (docs/editor.md "Constants"). */
export const BUNDLE_PREVIEW_IMAGES = 6;

/**
 * A bundle card (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Bundle card: number of templates,
 * count of assigned teams, an add-team action, Activate/Deactivate, Delete. Up to six bundle images
 * are shown").
 */
function BundleCard({
  bundle,
  busy,
  disabled,
  onTeams,
  onToggle,
  onDelete,
}: {
  bundle: Bundle;
  busy: BundleAction | null;
  disabled: boolean;
  onTeams: () => void;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const titleId = useId();
  const images = bundle.bundle_images.slice(0, BUNDLE_PREVIEW_IMAGES);
  return (
    <li className="design-card bundle-card" data-testid="bundle-card" data-bundle-id={bundle.id}>
      <article className="design-card__inner" aria-labelledby={titleId}>
        <div className="bundle-card__images" data-count={images.length}>
          {images.length === 0 ? (
            <span className="design-card__no-preview">No templates in this bundle</span>
          ) : (
            images.map((t) => (
              <img key={t.id} src={t.preview_url} alt={t.title} loading="lazy" decoding="async" />
            ))
          )}
        </div>
        <div className="design-card__body">
          <h3 id={titleId} className="design-card__title">
            <Link to={bundle.editurl} className="design-card__link">
              {bundle.name}
            </Link>
          </h3>
          <p className="design-card__meta muted">
            <span>{plural(bundle.templatesCount, 'template', 'templates')}</span>
            <span aria-hidden="true"> · </span>
            <span data-testid="bundle-teams">{plural(bundle.teamsCount, 'team', 'teams')}</span>
            <span aria-hidden="true"> · </span>
            <span className={bundle.active ? 'bundle-card__on' : 'bundle-card__off'}>
              {bundle.active ? 'Active' : 'Inactive'}
            </span>
          </p>
        </div>
        <div className="design-card__actions">
          {(
            [
              ['Add teams', onTeams, null, true],
              [bundle.active ? 'Deactivate' : 'Activate', onToggle, 'status', false],
              ['Delete', onDelete, 'delete', false],
            ] as const
          ).map(([label, onClick, action, primary]) => (
            <button
              key={label}
              type="button"
              className={`button button--small${primary ? '' : ' button--secondary'}`}
              aria-disabled={disabled}
              onClick={() => {
                if (!disabled) onClick();
              }}
            >
              {action !== null && busy === action && <Spinner />}
              {label}
              <span className="visually-hidden"> {bundle.name}</span>
            </button>
          ))}
          <Link to={bundle.editurl} className="button button--small button--secondary">
            Edit<span className="visually-hidden"> {bundle.name}</span>
          </Link>
        </div>
      </article>
    </li>
  );
}
