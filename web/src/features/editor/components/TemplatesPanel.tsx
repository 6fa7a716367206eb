import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { createFromTemplate } from '../../../api/designs.ts';
import {
  fetchPanelTemplates,
  removeFromBundle,
  type Bundle,
  type TemplateCard,
} from '../../../api/templates.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Tabs, type TabItem } from '../../../components/Tabs.tsx';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { usePagedQuery, type PagedList } from '../../../hooks/usePagedQuery.ts';
import { STALE_TIME } from '../../../state/queryClient.ts';
import { queryKeys } from '../../../state/queryKeys.ts';
import { useAppStore } from '../../../state/store.ts';
import { useFlash } from '../../../components/Flash.tsx';
import { NO_MORE_RESULTS } from '../../../components/ListFooter.tsx';
import {
  DELETE_TEMPLATE_TITLE,
  TEMPLATE_ALERT_MS,
  useTemplateAdmin,
} from '../../dashboard/useTemplateAdmin.ts';
import { actionFailure } from '../../../lib/formFailure.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import '../../templates/templates.css';

/** docs/editor.md "Constants": "Debounce: … 1000 ms template … search". */
export const TEMPLATE_SEARCH_DEBOUNCE_MS = 1000;

/** docs/editor.md "Architecture": "No more results" shows after more than 4 items in the template lists. */
const END_AFTER = 4;

type PanelTab = 'global' | 'bonus';
const TABS: readonly TabItem<PanelTab>[] = [
  { id: 'global', label: 'Global' },
  { id: 'bonus', label: 'Bonus' },
];

const templateIdOf = (template: TemplateCard) => template.id;

/** A page of the Global tab as the paged list reads it (`next`: the page number). */
async function fetchGlobalPage(search: string, page: number | null, signal: AbortSignal) {
  const answer = await fetchPanelTemplates('templates', search, page ?? 1, signal);
  return {
    items: answer.templates,
    next: answer.page < answer.lastPage ? answer.page + 1 : null,
  };
}

/** The Bonus tab's bundles of the team, searched (the first page holds them all). */
const bonusQuery = (teamId: string, search: string) =>
  queryOptions({
    queryKey: queryKeys.bundles.panel(teamId, search),
    queryFn: ({ signal }) => fetchPanelTemplates('templateBundles', search, 1, signal),
    staleTime: STALE_TIME.library,
  });

/**
 * The editor's Templates panel (docs/editor.md "Architecture": "Templates: tabs Global and Bonus
 * (Bonus only if bundle images exist); single templates and bundles; search box. Admins see a
 * settings menu per template (Edit, Delete, Activate/Deactivate)"; docs/editor.md "Constants" 1000
 * ms search debounce). Global pages by infinite scroll and ends with "No more results" after more
 * than 4 items; Bonus lists the team's bundles with their templates. Choosing a template makes a
 * design from it and opens it, after a confirmation: the open design stays as saved. Deleting the
 * open template leads to `/image` (docs/editor.md "Commands"). In the Bonus tab an admin's menu
 * also removes a template from its bundle (`deletePicSnippet` with the open design's id); when it
 * is the open design, the server clears its tags and bundles and the editor's document follows, so
 * the Save as template modal reads "save" with no tags and no bundle (docs/editor.md "Commands").
 * Both tabs are cached per search; an admin's change reads the template and bundle lists again.
 */
export function TemplatesPanel() {
  const { sync, store } = useEditorContext();
  const openId = useEditor((s) => s.meta?.id ?? '');
  const admin = useAppStore((s) => s.user?.isAdmin === true);
  const navigate = useNavigate();
  const idBase = useId();
  const [chosenTab, setTab] = useState<PanelTab>('global');
  const [query, setQuery] = useState('');
  const search = useDebouncedValue(query.trim(), TEMPLATE_SEARCH_DEBOUNCE_MS);
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const [choosing, setChoosing] = useState<TemplateCard | null>(null);
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<{ bundle: Bundle; template: TemplateCard } | null>(null);
  const [leavingBusy, setLeavingBusy] = useState(false);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  const leaveFlash = useFlash();

  // docs/editor.md "Architecture": the Bonus tab shows only when the team's bundles hold templates.
  const hasBonus =
    useQuery({
      ...bonusQuery(teamId, ''),
      select: (page) => page.bundles.some((b) => b.bundle_images.length > 0),
    }).data === true;
  const tab = hasBonus ? chosenTab : 'global';
  const list = usePagedQuery({
    queryKey: queryKeys.templates.panel(search),
    fetchPage: (page: number | null, signal: AbortSignal) => fetchGlobalPage(search, page, signal),
    idOf: templateIdOf,
    staleTime: STALE_TIME.library,
    failure: actionFailure,
    enabled: tab === 'global',
  });
  const bonus = useQuery({ ...bonusQuery(teamId, search), enabled: tab === 'bonus' });
  const bonusError = bonus.isError ? actionFailure(bonus.error) : null;

  /** After an admin's change: the template lists and the bundles are read again. */
  const reread = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.bundles.all });
  }, [queryClient]);

  // docs/editor.md "Messages": a failed bundle-template delete's danger alert clears after 3
  // seconds.
  useEffect(() => {
    if (!leaveError) return;
    const timer = window.setTimeout(() => setLeaveError(null), TEMPLATE_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [leaveError]);

  const { update } = list;
  const removeTile = useCallback(
    (id: string) => {
      update((items) => items.filter((t) => t.id !== id));
      // Status changes read the list again, so the tile comes back in its new state.
      reread();
    },
    [update, reread],
  );
  const templateAdmin = useTemplateAdmin(
    useCallback(
      (id: string, action: string) => {
        if (action === 'delete' && id === openId) {
          // docs/editor.md "Commands": deleting the open template leads to /image.
          navigate('/image');
          return;
        }
        removeTile(id);
      },
      [navigate, openId, removeTile],
    ),
  );

  async function openFrom(template: TemplateCard) {
    setOpening(true);
    setOpenError(null);
    try {
      await sync.flush();
      const id = await createFromTemplate(template.id);
      void queryClient.invalidateQueries({ queryKey: queryKeys.designs.all, refetchType: 'none' });
      navigate(`/pic-snippet/${encodeURIComponent(id)}/edit`);
    } catch (error) {
      setOpenError(actionFailure(error));
      setOpening(false);
      setChoosing(null);
    }
  }

  /**
   * Takes the template being confirmed out of its bundle. The open design's unsaved changes
   * are saved first, so the version the server answers is the one the editor continues from.
   */
  async function leaveBundle() {
    if (!leaving) return;
    setLeavingBusy(true);
    setLeaveError(null);
    try {
      if (leaving.template.id === openId) await sync.flush();
      const removed = await removeFromBundle(
        leaving.bundle.id,
        leaving.template.id,
        openId || null,
      );
      const { design } = store.getState();
      if (removed.current && removed.version !== null && design) {
        store.getState().replaceDocument({ ...design, image_tags: [] }, removed.version, true);
      }
      leaveFlash.show(removed.message);
      reread();
    } catch (error) {
      setLeaveError(actionFailure(error));
    } finally {
      setLeavingBusy(false);
      setLeaving(null);
    }
  }

  const tile = (template: TemplateCard, bundle?: Bundle) => (
    <TemplateTile
      key={template.id}
      template={template}
      admin={admin}
      busy={
        templateAdmin.busy?.id === template.id ||
        (leavingBusy && leaving?.template.id === template.id)
      }
      onChoose={() => setChoosing(template)}
      onEdit={() => navigate(template.editurl)}
      onToggle={() => void templateAdmin.setEnabled(template.id, template.status !== 'active')}
      onDelete={() => templateAdmin.askDelete(template.id, template.title)}
      {...(bundle ? { onLeaveBundle: () => setLeaving({ bundle, template }) } : {})}
    />
  );

  const bonusBundles = bonus.isError ? [] : bonus.data?.bundles;
  return (
    <div className="templates-panel">
      <div className="field">
        <label htmlFor={`${idBase}-search`} className="field__label">
          Search templates
        </label>
        <input
          id={`${idBase}-search`}
          type="search"
          className="input"
          placeholder="Tag or title"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {(templateAdmin.flash ?? leaveFlash.flash) && (
        <Notice tone="success">{(templateAdmin.flash ?? leaveFlash.flash)!.text}</Notice>
      )}
      {(templateAdmin.error ?? leaveError ?? openError ?? bonusError) && (
        <Notice tone="error">{templateAdmin.error ?? leaveError ?? openError ?? bonusError}</Notice>
      )}
      <Tabs
        idBase={`${idBase}-tabs`}
        label="Templates"
        tabs={hasBonus ? TABS : TABS.slice(0, 1)}
        active={tab}
        onSelect={(next) => setTab(next)}
      >
        <div className="templates-panel__scroll">
          {tab === 'global' ? (
            <GlobalTemplates list={list} tile={tile} />
          ) : !bonusBundles ? (
            <p className="muted small" role="status">
              <Spinner /> Loading your Bonus templates…
            </p>
          ) : bonusBundles.length === 0 ? (
            <p className="muted small">No Bonus template matches “{search}”.</p>
          ) : (
            bonusBundles.map((bundle) => (
              <section key={bundle.id} className="stack" aria-label={bundle.name}>
                <h3 className="templates-panel__bundle">{bundle.name}</h3>
                <ul className="templates-panel__list">
                  {bundle.bundle_images.map((template) => tile(template, bundle))}
                </ul>
              </section>
            ))
          )}
        </div>
      </Tabs>

      <ConfirmDialog
        open={choosing !== null}
        title="Start a new PicSnippet from this template?"
        confirmLabel="Use this template"
        pending={opening}
        onCancel={() => setChoosing(null)}
        onConfirm={() => {
          if (choosing) void openFrom(choosing);
        }}
      >
        <p>
          A new PicSnippet is made from “{choosing?.title}” and opens in the editor. The one open
          now stays as saved on your dashboard.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={templateAdmin.confirming !== null}
        title={DELETE_TEMPLATE_TITLE}
        confirmLabel="Delete"
        pending={templateAdmin.busy?.action === 'delete'}
        onCancel={templateAdmin.cancelDelete}
        onConfirm={() => void templateAdmin.confirmDelete()}
      >
        <p>
          “{templateAdmin.confirming?.title}” leaves the template library and its bundles. Designs
          already made from it stay as they are.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving !== null}
        title="Are you sure?"
        confirmLabel="Remove"
        pending={leavingBusy}
        onCancel={() => setLeaving(null)}
        onConfirm={() => void leaveBundle()}
      >
        <p>
          “{leaving?.template.title}” leaves the bundle “{leaving?.bundle.name}”.{' '}
          {leaving?.template.id === openId
            ? 'It is the design open here: its tags are removed and it leaves every bundle, so it can be saved as a template again.'
            : 'The template stays in the template library.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** The Global tab: the templates so far, a sentinel that loads the next page, the end. */
function GlobalTemplates({
  list,
  tile,
}: {
  list: PagedList<TemplateCard>;
  tile: (template: TemplateCard) => ReactNode;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const more = list.phase === 'ready' && list.hasMore;
  const onMore = list.loadMore;
  useEffect(() => {
    const target = sentinel.current;
    if (!more || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onMore();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [more, onMore]);

  if (list.phase === 'loading') {
    return (
      <p className="muted small" role="status">
        <Spinner /> Loading templates…
      </p>
    );
  }
  if (list.phase === 'error') return <Notice tone="error">{list.error}</Notice>;
  if (list.items.length === 0) return <p className="muted small">No template found.</p>;
  const finished = list.phase === 'ready' && !list.hasMore;
  return (
    <>
      <ul className="templates-panel__list" data-testid="panel-templates">
        {list.items.map(tile)}
      </ul>
      <div ref={sentinel} aria-hidden="true" />
      {list.phase === 'loading-more' && (
        <p className="muted small templates-panel__end" role="status">
          <Spinner /> Loading more…
        </p>
      )}
      {more && (
        <button type="button" className="button button--small button--secondary" onClick={onMore}>
          Load more templates
        </button>
      )}
      {list.phase === 'error-more' && <Notice tone="error">{list.error}</Notice>}
      {finished && list.items.length > END_AFTER && (
        <p className="muted templates-panel__end">{NO_MORE_RESULTS}</p>
      )}
    </>
  );
}

/** Where a menu opens under its button, in viewport px (the menu is `position: fixed`). */
const placeBelow = (rect: DOMRect) => ({
  top: rect.bottom + 4,
  right: window.innerWidth - rect.right,
});

/**
 * A template tile: its preview as the button that chooses it, its title, a Disabled badge,
 * and for admins the settings menu (Edit, Delete, Activate/Deactivate; in the Bonus tab also
 * Remove from bundle).
 */
function TemplateTile({
  template,
  admin,
  busy,
  onChoose,
  onEdit,
  onToggle,
  onDelete,
  onLeaveBundle,
}: {
  template: TemplateCard;
  admin: boolean;
  busy: boolean;
  onChoose: () => void;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  /** In the Bonus tab: takes the template out of the bundle it is listed in. */
  onLeaveBundle?: () => void;
}) {
  // The open menu's place on screen (fixed, so the panel's scrolling box does not clip it).
  const [menu, setMenu] = useState<{ top: number; right: number } | null>(null);
  const menuId = useId();
  const disabled = template.status !== 'active';
  const wrapper = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuOpen = menu !== null;
  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: Event) => {
      if (!wrapper.current?.contains(event.target as Node)) setMenu(null);
    };
    // The menu follows its button when the panel scrolls or the window resizes.
    const follow = () => {
      const rect = button.current?.getBoundingClientRect();
      if (rect) setMenu(placeBelow(rect));
    };
    document.addEventListener('pointerdown', close);
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      document.removeEventListener('pointerdown', close);
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [menuOpen]);
  const pick = (action: () => void) => () => {
    setMenu(null);
    action();
  };
  return (
    <li ref={wrapper} className="template-tile" data-testid="template-tile">
      <button
        type="button"
        className="template-tile__use"
        aria-disabled={disabled || busy}
        title={disabled ? 'Disabled: activate it to use it' : `Use “${template.title}”`}
        onClick={() => {
          if (!disabled && !busy) onChoose();
        }}
      >
        <img src={template.preview_url} alt={`Use the template ${template.title}`} loading="lazy" />
      </button>
      {disabled && <span className="template-tile__badge">Disabled</span>}
      <p className="template-tile__title" title={template.title}>
        {template.title}
      </p>
      {admin && (
        // role="presentation": the handler only catches Escape bubbling up from the menu button
        // and the menu's items; the wrapper itself is not interactive.
        <div
          className="template-tile__menu"
          role="presentation"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setMenu(null);
          }}
        >
          <button
            type="button"
            ref={button}
            className="template-tile__menu-button"
            aria-haspopup="true"
            aria-expanded={menu !== null}
            aria-controls={menuId}
            onClick={(event) => {
              const rect = event.currentTarget.getBoundingClientRect();
              setMenu((m) => (m ? null : placeBelow(rect)));
            }}
          >
            {busy ? <Spinner /> : <span aria-hidden="true">⋮</span>}
            <span className="visually-hidden">Settings of {template.title}</span>
          </button>
          {menu && (
            <ul
              id={menuId}
              className="template-menu"
              style={{ top: menu.top, right: menu.right }}
              aria-label={`Settings of ${template.title}`}
            >
              <li>
                <button type="button" onClick={pick(onEdit)}>
                  Edit
                </button>
              </li>
              <li>
                <button type="button" onClick={pick(onDelete)}>
                  Delete
                </button>
              </li>
              <li>
                <button type="button" onClick={pick(onToggle)}>
                  {disabled ? 'Activate' : 'Deactivate'}
                </button>
              </li>
              {onLeaveBundle && (
                <li>
                  <button type="button" onClick={pick(onLeaveBundle)}>
                    Remove from bundle
                  </button>
                </li>
              )}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
