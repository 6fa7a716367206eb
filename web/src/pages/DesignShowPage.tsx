import { useCallback, useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { fetchDesign, type DesignCard, type DesignDetails } from '../api/designs.ts';
import { DesignViewer } from '../features/dashboard/DesignViewer.tsx';
import { ActionFeedback } from '../components/Flash.tsx';
import { FrozenNotice } from '../features/dashboard/FrozenNotice.tsx';
import { DesignLoadState, useDesignLoad } from '../features/dashboard/useDesignLoad.tsx';
import { CampaignField } from '../features/analytics/CampaignField.tsx';
import { countedLabel } from '../features/dashboard/format.ts';
import { formatDay } from '../lib/format.ts';
import { exampleQuery, parameterNames } from '../features/dashboard/personalise.ts';
import { subscriptionPath, useCurrentTeam } from '../hooks/useCurrentTeam.ts';
import {
  ACTION_LABELS,
  useDesignActions,
  type DesignAction,
} from '../features/dashboard/useDesignActions.ts';
import { Spinner } from '../components/Spinner.tsx';
import { CopyField } from '../components/CopyField.tsx';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { formatCount } from '../lib/format.ts';

/** What a page hands over in the history state: a flash to show on arrival (docs/adr/0018-design-lists.md "Design lists"). */
interface ShowState {
  flash?: string;
}

/**
 * The show page of a design, `/pic-snippet/{id}` (docs/adr/0020-dashboard-spa.md "Dashboard SPA"
 * routes): its title, dates and views, the viewer (image, or PDF for Pro plans), the render URL
 * with a copy button and a hint built from the design's parameter names, and the actions of its
 * state (Archive and Clone, or Activate) with the 4-second confirmation flash
 * (docs/adr/0018-design-lists.md "Design lists"). A design that is not the current team's gets a
 * not-found state (the API answers 404 for both).
 */
/** `1 Open`, `1,234 Opens`: a count with its label, in the page's number format. */
function countLabel(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function DesignShowPage() {
  const { id = '' } = useParams();
  return (
    <SignedInOnly>
      <DesignShow key={id} id={id} />
    </SignedInOnly>
  );
}

function DesignShow({ id }: { id: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [handedOver] = useState(() => (location.state as ShowState | null)?.flash);
  const { loaded, retry, update } = useDesignLoad('show', id, fetchDesign, {
    pending: 'PicSnippet',
    ready: (design: DesignDetails) => design.title,
  });
  const { team } = useCurrentTeam();
  const frozen = team?.frozen ?? false;
  const idBase = useId();
  const frozenHintId = `${idBase}-frozen`;

  // The handed-over flash is shown once: a reload must not show it again.
  useEffect(() => {
    if ((location.state as ShowState | null)?.flash) {
      void navigate(
        { pathname: location.pathname, search: location.search, hash: location.hash },
        { replace: true, state: null },
      );
    }
  }, [location, navigate]);

  const onDone = useCallback(
    (action: DesignAction, design: DesignCard, result: DesignCard) => {
      if (action === 'clone') {
        void navigate(result.showurl, {
          state: { flash: `“${design.title}” was cloned. This is the copy.` },
        });
        return;
      }
      update((design) => ({ ...design, ...result }));
    },
    [navigate, update],
  );
  const actions = useDesignActions(onDone, handedOver);

  if (loaded.state !== 'ready') {
    return (
      <DesignLoadState
        loaded={loaded}
        retry={retry}
        loadingText="Loading the PicSnippet…"
        failedTitle="This PicSnippet could not be loaded"
      />
    );
  }

  const { data: design } = loaded;
  const kinds: DesignAction[] = design.status === 'active' ? ['archive', 'clone'] : ['activate'];
  const names = parameterNames(design);
  const example = exampleQuery(names);
  const created = formatDay(design.created_at);
  const updated = formatDay(design.updated_at);
  const counted = countedLabel(design.counted_at);

  return (
    <div className="container stack-lg design-show">
      <p>
        <Link to={design.status === 'archived' ? '/dashboard?view=archived' : '/dashboard'}>
          <span aria-hidden="true">← </span>Dashboard
        </Link>
      </p>
      <header className="design-show__header">
        <div className="stack">
          <h1 className="page-title design-show__title" data-testid="design-title">
            {design.title}
            {design.status === 'archived' && <span className="pill pill--muted">Archived</span>}
          </h1>
          <p className="muted design-show__meta">
            {created && <time dateTime={design.created_at}>Created {created}</time>}
            {updated && (
              <>
                <span aria-hidden="true"> · </span>
                <time dateTime={design.updated_at}>Updated {updated}</time>
              </>
            )}
            <span aria-hidden="true"> · </span>
            <span
              data-testid="design-opens"
              title="Images shown to recipients whose mail app fetched them directly"
            >
              {countLabel(design.counter, 'Open', 'Opens')}
            </span>
            <span aria-hidden="true"> · </span>
            <span
              data-testid="design-proxy-fetches"
              title="Images fetched by mail image proxies (Gmail, Yahoo, Outlook, Apple Mail Privacy Protection): prefetches and proxied opens, which cannot be told apart"
            >
              {countLabel(design.proxy_fetches ?? 0, 'Mail-proxy fetch', 'Mail-proxy fetches')}
            </span>
            {counted && (
              <>
                <span aria-hidden="true"> · </span>
                <span data-testid="design-counted" title={design.counted_at ?? undefined}>
                  {counted}
                </span>
              </>
            )}
          </p>
        </div>
        <div className="design-show__actions">
          {design.status === 'active' && (
            <Link to={design.editurl} className="button">
              Edit
            </Link>
          )}
          <a
            href={`${design.showurl}/export`}
            className="button button--secondary"
            target="_blank"
            rel="noopener"
          >
            Export<span className="visually-hidden"> (opens in a new window)</span>
          </a>
          <Link to={`${design.showurl}/analytics`} className="button button--secondary">
            Analytics
          </Link>
          {kinds.map((action) => {
            const pending = actions.busy?.action === action;
            const disabled = frozen || actions.busy !== null;
            return (
              <button
                key={action}
                type="button"
                className="button button--secondary"
                aria-disabled={disabled}
                aria-describedby={frozen ? frozenHintId : undefined}
                onClick={() => {
                  if (!disabled) void actions.run(action, design);
                }}
              >
                {pending && <Spinner />}
                {ACTION_LABELS[action]}
              </button>
            );
          })}
        </div>
      </header>

      {frozen && team && <FrozenNotice team={team} id={frozenHintId} />}

      <div className="design-show__layout">
        <DesignViewer
          design={design}
          canExportPdf={team?.can_export_pdf ?? false}
          upgradePath={team ? subscriptionPath(team.id) : null}
        />
        <section className="design-show__share stack" aria-labelledby={`${idBase}-share`}>
          <h2 id={`${idBase}-share`} className="card__title">
            Share
          </h2>
          <p className="muted small">
            Put the render URL where the image should show: an e-mail, a web page, a video player.
          </p>
          <CopyField label="Render URL" value={design.base_url} testId="render-url" />
          {example ? (
            <div className="stack">
              <p className="field__hint">
                Personalise it: add <code className="break">{example}</code> to the URL. A recipient
                without a value sees the fallback.
              </p>
              <p className="small">
                <a href={`${design.base_url}${example}`} target="_blank" rel="noopener">
                  Open it with these values
                </a>
              </p>
              <div>
                <p className="field__label">Parameters</p>
                <ul className="param-list">
                  {names.map((name) => (
                    <li key={name}>
                      <code>{name}</code>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          ) : (
            <p className="field__hint">
              This PicSnippet has no merge fields yet, so every recipient sees the same image. Text
              snippets with {'{{parameters}}'} personalise it.
            </p>
          )}
          <CampaignField
            designId={design.id}
            version={design.version}
            campaign={design.campaign ?? null}
            onSaved={(saved) => update((current) => ({ ...current, ...saved }))}
          />
        </section>
      </div>

      <ActionFeedback
        flash={actions.flash}
        error={actions.error}
        onDismissError={actions.dismissError}
      />
    </div>
  );
}
