import { tagLabel } from '#shared/onboarding.ts';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { DashboardView, DesignSort } from '../api/designs.ts';
import { Tabs, type TabItem } from '../components/Tabs.tsx';
import { CREATE_PATH, DesignList } from '../features/dashboard/DesignList.tsx';
import { parseSort, parseView } from '../features/dashboard/query.ts';
import { SortSelect } from '../features/dashboard/SortSelect.tsx';
import { BundleList } from '../features/dashboard/BundleList.tsx';
import { BonusTemplates, useHasBonus } from '../features/dashboard/BonusTemplates.tsx';
import { useAppStore } from '../state/store.ts';
import { FrozenNotice } from '../features/dashboard/FrozenNotice.tsx';
import { useCurrentTeam } from '../hooks/useCurrentTeam.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';

/** The view switches (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "tabs Active {product}, Archive, View Templates"). */
const VIEWS: readonly TabItem<DashboardView>[] = [
  { id: 'active', label: 'Active PicSnippets' },
  { id: 'archived', label: 'Archive' },
  { id: 'templates', label: 'View Templates' },
];

/**
 * The dashboard's tabs: the lists, for admins Template Bundles, and for a team with bundles its
 * private bundle view, Bonus Templates (docs/adr/0020-dashboard-spa.md "Dashboard SPA" view
 * switches).
 */
type DashboardTab = DashboardView | 'bundles' | 'bonus';
const ADMIN_VIEWS: readonly TabItem<DashboardTab>[] = [
  ...VIEWS,
  { id: 'bundles', label: 'Template Bundles' },
];
const BONUS_VIEWS: readonly TabItem<DashboardTab>[] = [
  ...VIEWS,
  { id: 'bonus', label: 'Bonus Templates' },
];

/**
 * The dashboard, `/dashboard` (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Dashboard"): the
 * header with the title, the Sort by dropdown and Create a new PicSnippet; the lists Active,
 * Archive and View Templates. The list is kept in `view` (`active` when absent, `archived`,
 * `templates`), the sort in `sortby` (empty = last updated, `created`, `name`, `views`), and
 * onboarding's template filter in `tag` (docs/accounts.md "Screens";
 * `/dashboard?view=templates&tag=…`), so each state has an address.
 *
 * A frozen team (docs/adr/0018-design-lists.md "Design lists") sees why its Create button and card
 * actions are disabled, with the way to its subscription settings.
 *
 * Admins (docs/adr/0023-team-roles.md "Team roles") also get the Template Bundles tab
 * (`view=bundles`), the template cards' Deactivate/Activate and Delete, and an Enabled/Disabled
 * switch over the templates (`templates=disabled`; docs/templates.md).
 */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  return (
    <SignedInOnly>
      <Dashboard />
    </SignedInOnly>
  );
}

function Dashboard() {
  const [params, setParams] = useSearchParams();
  const admin = useAppStore((s) => s.user?.isAdmin === true);
  const view = parseView(params.get('view'));
  const hasBonus = useHasBonus(admin) === true;
  const asked = params.get('view');
  const tab: DashboardTab =
    admin && asked === 'bundles' ? 'bundles' : hasBonus && asked === 'bonus' ? 'bonus' : view;
  // Admins reach disabled templates to activate them again (`templates=disabled`).
  const templateStatus = admin && params.get('templates') === 'disabled' ? 'archived' : 'active';
  const sort = parseSort(params.get('sortby'));
  const tag = view === 'templates' ? (params.get('tag') ?? '').trim() : '';
  const { team } = useCurrentTeam();
  const frozen = team?.frozen ?? false;
  const idBase = useId();
  const frozenHintId = `${idBase}-frozen`;

  /** Sets query parameters (null or '' removes one); sorting replaces, a new view pushes. */
  function setQuery(changes: Record<string, string | null>, replace: boolean) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace },
    );
  }

  return (
    <div className="container stack-lg dashboard">
      <header className="dashboard__header">
        <h1 className="page-title">Your PicSnippets</h1>
        <div className="dashboard__tools">
          <SortSelect
            value={sort}
            onChange={(next: DesignSort) => setQuery({ sortby: next }, true)}
          />
          {frozen ? (
            <button
              type="button"
              className="button"
              aria-disabled="true"
              aria-describedby={frozenHintId}
              data-testid="create-design"
            >
              Create a new PicSnippet
            </button>
          ) : (
            <Link to={CREATE_PATH} className="button" data-testid="create-design">
              Create a new PicSnippet
            </Link>
          )}
        </div>
      </header>

      {frozen && team && <FrozenNotice team={team} id={frozenHintId} />}

      <Tabs
        idBase={`${idBase}-views`}
        label="PicSnippets"
        tabs={admin ? ADMIN_VIEWS : hasBonus ? BONUS_VIEWS : VIEWS}
        active={tab}
        onSelect={(next, keyboard) =>
          setQuery({ view: next === 'active' ? null : next, tag: null, templates: null }, keyboard)
        }
      >
        {tab === 'bundles' ? (
          <BundleList />
        ) : tab === 'bonus' ? (
          <BonusTemplates frozen={frozen} frozenHintId={frozenHintId} />
        ) : (
          <div className="stack">
            {admin && view === 'templates' && (
              <fieldset className="segmented">
                <legend className="visually-hidden">Templates shown</legend>
                <div className="segmented__options">
                  {(['active', 'archived'] as const).map((status) => (
                    <label key={status} className="segmented__option">
                      <input
                        type="radio"
                        name="template-status"
                        checked={templateStatus === status}
                        onChange={() =>
                          setQuery({ templates: status === 'archived' ? 'disabled' : null }, false)
                        }
                      />
                      {status === 'active' ? 'Enabled' : 'Disabled'}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            {tag && (
              <p className="filter-chips">
                <span className="muted">Filtered by tag</span>
                <span className="chip" data-testid="tag-chip">
                  {tagLabel(tag)}
                  <button
                    type="button"
                    className="chip__remove"
                    onClick={() => setQuery({ tag: null }, false)}
                  >
                    <span aria-hidden="true">×</span>
                    <span className="visually-hidden">Remove the tag filter {tagLabel(tag)}</span>
                  </button>
                </span>
              </p>
            )}
            <DesignList
              key={`${view}|${templateStatus}`}
              view={view}
              sort={sort}
              tag={tag}
              frozen={frozen}
              frozenHintId={frozenHintId}
              admin={admin}
              templateStatus={templateStatus}
            />
          </div>
        )}
      </Tabs>
    </div>
  );
}
