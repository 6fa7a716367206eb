import { tagLabel } from '#shared/onboarding.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  createFromTemplate,
  fetchDesignList,
  type DashboardView,
  type DesignCard,
  type DesignSort,
  type NextPage,
} from '../../api/designs.ts';
import { fetchTemplateList } from '../../api/templates.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { usePagedQuery } from '../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { DesignCardItem, DesignCardSkeleton, type CardAction } from './DesignCardItem.tsx';
import { ActionFeedback } from '../../components/Flash.tsx';
import { ListFooter } from '../../components/ListFooter.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { ACTION_LABELS, useDesignActions, type DesignAction } from './useDesignActions.ts';
import { placeCard } from './placeCard.ts';
import { DELETE_TEMPLATE_TITLE, useTemplateAdmin } from './useTemplateAdmin.ts';

/** Cards shown while the first page loads: two rows of the wide grid. */
const SKELETON_CARDS = 6;

/** docs/adr/0020-dashboard-spa.md "Dashboard SPA": the templates list says "No more results" only after more than 4 items. */
const TEMPLATE_END_AFTER = 4;

/** The create page (docs/adr/0020-dashboard-spa.md "Dashboard SPA" routes). */
export const CREATE_PATH = '/pic-snippet/create';

const idOf = (card: DesignCard) => card.id;

/**
 * One dashboard list (docs/adr/0020-dashboard-spa.md "Dashboard SPA"): Active PicSnippets (Archive,
 * Clone), Archive (Activate) or View Templates ("Use this template"), paged by infinite scroll,
 * with its loading, empty and failure states and the 4-second confirmation flash of each action.
 *
 * A card that leaves the list (archived, activated) hands focus to the card now in its place,
 * so keyboard users keep their position. A clone joins the list where the sort puts it. Each
 * list is cached per team, view, sort and tag: an action changes the shown list in the cache and
 * marks the other lists of its family stale, so they are read again when they are shown.
 *
 * @param frozen the team is frozen (docs/adr/0018-design-lists.md "Design lists"): the actions are disabled, described by the
 *   element `frozenHintId`.
 * @param admin a platform admin: template cards also get Deactivate/Activate and Delete with
 *   'Delete Template ?' (docs/adr/0020-dashboard-spa.md "Dashboard SPA",
 *   docs/adr/0023-team-roles.md "Team roles").
 * @param templateStatus the template list shown: enabled (`active`) or, for admins, disabled.
 */
export function DesignList({
  view,
  sort,
  tag,
  frozen,
  frozenHintId,
  admin = false,
  templateStatus = 'active',
}: {
  view: DashboardView;
  sort: DesignSort;
  tag: string;
  frozen: boolean;
  frozenHintId: string;
  admin?: boolean;
  templateStatus?: 'active' | 'archived';
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const teamId = useAppStore((s) => s.user?.current_team_id ?? '');
  const list = usePagedQuery({
    queryKey:
      view === 'templates'
        ? queryKeys.templates.list(templateStatus, sort, tag)
        : queryKeys.designs.list(teamId, view, sort, tag),
    fetchPage: async (next: NextPage | null, signal: AbortSignal) => {
      if (view === 'templates') {
        return fetchTemplateList(templateStatus, { sortby: sort, tag, next }, signal);
      }
      const page = await fetchDesignList(view, { sortby: sort, tag, next }, signal);
      return { items: page.cards as DesignCard[], next: page.next };
    },
    idOf,
    failure: actionFailure,
  });
  const { update } = list;
  /** Marks a family's cached lists stale (this one is already changed in place). */
  const staleFamily = useCallback(
    (...families: (readonly string[])[]) => {
      for (const queryKey of families) {
        void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
      }
    },
    [queryClient],
  );

  const listRef = useRef<HTMLDivElement>(null);
  // Set after a card left the list (its index), read once the list has re-rendered.
  const [focusAt, setFocusAt] = useState<{ index: number } | null>(null);
  const onDone = useCallback(
    (action: DesignAction, design: DesignCard, result: DesignCard) => {
      // The other views and sorts are marked stale by `useDesignActions`.
      if (action === 'clone') update((cards, hasMore) => placeCard(cards, result, sort, hasMore));
      else update((cards) => cards.filter((c) => c.id !== design.id));
    },
    [update, sort],
  );
  const actions = useDesignActions(onDone);
  const templateAdmin = useTemplateAdmin(
    useCallback(
      (id: string) => {
        update((cards) => cards.filter((c) => c.id !== id));
        // The other status's list, the editor's panel and the bundles show templates too.
        staleFamily(queryKeys.templates.all, queryKeys.bundles.all);
      },
      [update, staleFamily],
    ),
  );

  // After a card left: focus the card now at its place (or the last one).
  useEffect(() => {
    if (focusAt === null) return;
    const cards = listRef.current?.querySelectorAll<HTMLElement>('.design-card');
    const card = cards?.[Math.min(focusAt.index, cards.length - 1)];
    // The last card gone: the empty state's heading says what is left.
    const target =
      card?.querySelector<HTMLElement>('a, button') ??
      listRef.current?.querySelector<HTMLElement>('[data-testid="list-empty"] h2');
    target?.focus();
  }, [focusAt]);

  const [templateBusy, setTemplateBusy] = useState<string | null>(null);
  const [templateError, setTemplateError] = useState<string | null>(null);
  async function startFromTemplate(card: DesignCard) {
    if (templateBusy || actions.busy) return;
    setTemplateBusy(card.id);
    setTemplateError(null);
    try {
      const id = await createFromTemplate(card.id);
      staleFamily(queryKeys.designs.all);
      // docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Creates a design from a template, then
      // goes to its edit page".
      navigate(`/pic-snippet/${encodeURIComponent(id)}/edit`);
    } catch (error) {
      setTemplateError(actionFailure(error));
      setTemplateBusy(null);
    }
  }

  const working = actions.busy !== null || templateBusy !== null || templateAdmin.busy !== null;
  function cardActions(card: DesignCard, index: number): CardAction[] {
    if (view === 'templates') {
      const enabled = templateStatus === 'active';
      const use: CardAction[] = enabled
        ? [
            {
              key: 'use',
              label: 'Use this template',
              primary: true,
              pending: templateBusy === card.id,
              disabled: frozen || working,
              describedBy: frozen ? frozenHintId : undefined,
              onClick: () => void startFromTemplate(card),
            },
          ]
        : [];
      if (!admin) return use;
      const pending = (action: string) =>
        templateAdmin.busy?.id === card.id && templateAdmin.busy.action === action;
      return [
        ...use,
        {
          key: 'status',
          label: enabled ? 'Deactivate' : 'Activate',
          pending: pending(enabled ? 'disable' : 'enable'),
          disabled: working,
          onClick: () =>
            void templateAdmin.setEnabled(card.id, !enabled).then((done) => {
              if (done) setFocusAt({ index });
            }),
        },
        {
          key: 'delete',
          label: 'Delete',
          pending: pending('delete'),
          disabled: working,
          onClick: () => templateAdmin.askDelete(card.id, card.title),
        },
      ];
    }
    const kinds: DesignAction[] = view === 'active' ? ['archive', 'clone'] : ['activate'];
    return kinds.map((action) => ({
      key: action,
      label: ACTION_LABELS[action],
      pending: actions.busy?.id === card.id && actions.busy.action === action,
      disabled: frozen || working,
      describedBy: frozen ? frozenHintId : undefined,
      onClick: () =>
        void actions.run(action, card).then((result) => {
          // The card leaves this list: its place (now the next card) takes focus.
          if (result && action !== 'clone') setFocusAt({ index });
        }),
    }));
  }

  const what = view === 'templates' ? 'templates' : 'PicSnippets';
  return (
    <div ref={listRef} className="design-list">
      {list.phase === 'loading' && (
        <>
          <p role="status" className="visually-hidden">
            Loading {what}…
          </p>
          <ul className="design-grid" aria-hidden="true">
            {Array.from({ length: SKELETON_CARDS }, (_, i) => (
              <DesignCardSkeleton key={i} />
            ))}
          </ul>
        </>
      )}

      {list.phase === 'error' &&
        (view === 'templates' && list.errorStatus === 501 ? (
          <EmptyState title="The template library is not open yet" action={createAction(frozen)}>
            Templates arrive with the template library. Until then, start from a picture.
          </EmptyState>
        ) : (
          <LoadFailed
            title={`Your ${what} could not be loaded`}
            message={list.error}
            onRetry={list.retry}
          />
        ))}

      {list.phase !== 'loading' &&
        list.phase !== 'error' &&
        list.items.length === 0 &&
        (templateStatus === 'archived' && view === 'templates' ? (
          <EmptyState title="No disabled templates">
            Templates you deactivate wait here. Activate one to show it to everyone again.
          </EmptyState>
        ) : (
          <EmptyFor view={view} tag={tag} frozen={frozen} />
        ))}

      {list.items.length > 0 && (
        <ul className="design-grid" aria-label={what} data-testid="design-grid">
          {list.items.map((card, index) => (
            <DesignCardItem
              key={card.id}
              card={card}
              // docs/adr/0020-dashboard-spa.md "Dashboard SPA": an active card links to the edit
              // URL; an archived one to its page.
              href={
                view === 'templates' ? undefined : view === 'active' ? card.editurl : card.showurl
              }
              actions={cardActions(card, index)}
              links={
                view === 'templates'
                  ? []
                  : [{ key: 'analytics', label: 'Analytics', href: `${card.showurl}/analytics` }]
              }
            />
          ))}
        </ul>
      )}

      {list.phase !== 'loading' && list.phase !== 'error' && list.items.length > 0 && (
        <ListFooter
          list={list}
          moreLabel={`Load more ${what}`}
          showEnd={view !== 'templates' || list.items.length > TEMPLATE_END_AFTER}
        />
      )}

      <ActionFeedback
        flash={templateAdmin.flash ?? actions.flash}
        error={actions.error ?? templateError ?? templateAdmin.error}
        onDismissError={() => {
          actions.dismissError();
          setTemplateError(null);
          templateAdmin.dismissError();
        }}
      />

      <ConfirmDialog
        open={templateAdmin.confirming !== null}
        title={DELETE_TEMPLATE_TITLE}
        confirmLabel="Delete"
        pending={templateAdmin.busy?.action === 'delete'}
        onCancel={templateAdmin.cancelDelete}
        onConfirm={() => {
          const at = list.items.findIndex((c) => c.id === templateAdmin.confirming?.id);
          void templateAdmin.confirmDelete().then((done) => {
            if (done) setFocusAt({ index: Math.max(0, at) });
          });
        }}
      >
        <p>
          “{templateAdmin.confirming?.title}” leaves the template library and its bundles. Designs
          already made from it stay as they are.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="empty-state design-list__empty" data-testid="list-empty">
      <h2 className="card__title" tabIndex={-1}>
        {title}
      </h2>
      <p className="muted">{children}</p>
      {action}
    </section>
  );
}

/** The call to action of an empty list: start from a picture (not for a frozen team). */
const createAction = (frozen: boolean) =>
  frozen ? undefined : (
    <Link to={CREATE_PATH} className="button">
      Create a new PicSnippet
    </Link>
  );

/** The empty state of each list: what it is for, and what to do next. */
function EmptyFor({ view, tag, frozen }: { view: DashboardView; tag: string; frozen: boolean }) {
  if (view === 'active') {
    return (
      <EmptyState title="No PicSnippets yet" action={createAction(frozen)}>
        Pick a picture, lay text snippets with merge fields on it, and every recipient gets an image
        with their own name.
      </EmptyState>
    );
  }
  if (view === 'archived') {
    return (
      <EmptyState title="Nothing archived">
        PicSnippets you archive wait here. Activate one to use it again.
      </EmptyState>
    );
  }
  return tag ? (
    <EmptyState
      title={`No templates for “${tagLabel(tag)}” yet`}
      action={
        <Link to="/dashboard?view=templates" className="button button--secondary">
          Show all templates
        </Link>
      }
    >
      Try the whole template library, or start from a picture.
    </EmptyState>
  ) : (
    <EmptyState title="No templates yet">
      Templates that admins publish show here, ready to make your own.
    </EmptyState>
  );
}
