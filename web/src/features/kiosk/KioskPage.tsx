import { lazy, Suspense, type ComponentType } from 'react';
import { PageLoading, Spinner } from '../../components/Spinner.tsx';
import { Tabs, type TabItem } from '../../components/Tabs.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useHashTab } from '../../hooks/useHashTab.ts';
import { NotFoundPage } from '../../pages/NotFoundPage.tsx';
import { useAppStore } from '../../state/store.ts';
import { AnnouncementsTab } from './AnnouncementsTab.tsx';
import { CancelReasonsTab } from './CancelReasonsTab.tsx';
import { LibraryTab } from './LibraryTab.tsx';
import { StickersTab } from './StickersTab.tsx';
import { KIOSK_TABS, type KioskTabId, type KioskTabProps } from './tab.ts';
import { TeamsTab } from './TeamsTab.tsx';
import { UsersTab } from './UsersTab.tsx';

const TAB_ITEMS: readonly TabItem<KioskTabId>[] = [
  { id: 'announcements', label: 'Announcements' },
  { id: 'metrics', label: 'Metrics' },
  { id: 'users', label: 'Users' },
  { id: 'teams', label: 'Teams' },
  { id: 'cancel-reasons', label: 'Cancel reasons' },
  { id: 'stickers', label: 'Sticker packs' },
  { id: 'library', label: 'Image library' },
];

/** The metrics tab and its chart library load when the tab is first opened. */
const MetricsTab = lazy(() => import('./MetricsTab.tsx').then((m) => ({ default: m.MetricsTab })));

const PANELS: Record<KioskTabId, ComponentType<KioskTabProps>> = {
  announcements: AnnouncementsTab,
  metrics: MetricsTab,
  users: UsersTab,
  teams: TeamsTab,
  'cancel-reasons': CancelReasonsTab,
  stickers: StickersTab,
  library: LibraryTab,
};

/**
 * The admin kiosk at `/spark/kiosk` (docs/kiosk.md "Kiosk", docs/kiosk.md): tabs
 * chosen by hash (`#/users`, `#/users/{id}`, …). Anyone but a platform admin gets the
 * not-found page, as if the kiosk did not exist; the API refuses them too (shared/routes.ts
 * `kiosk`).
 */
export function KioskPage() {
  useDocumentTitle('Kiosk');
  const isAdmin = useAppStore((s) => s.user?.isAdmin === true);
  const loading = useAppStore((s) => s.sessionStatus === 'loading');
  const { tab, rest, select } = useHashTab(KIOSK_TABS);
  if (loading) return <PageLoading>Loading the kiosk…</PageLoading>;
  if (!isAdmin) return <NotFoundPage />;
  const Panel = PANELS[tab];
  return (
    <div className="container">
      <h1 className="page-title">Kiosk</h1>
      <Tabs
        idBase="kiosk"
        label="Kiosk"
        tabs={TAB_ITEMS}
        active={tab}
        onSelect={(next, keyboard) => select(next, { replace: keyboard })}
      >
        <Suspense
          fallback={
            <p className="muted" role="status">
              <Spinner /> Loading the tab…
            </p>
          }
        >
          <Panel rest={rest} go={(next, where) => select(next, { rest: where ?? '' })} />
        </Suspense>
      </Tabs>
    </div>
  );
}
