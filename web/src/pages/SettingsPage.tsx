import { useId, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageLoading } from '../components/Spinner.tsx';
import { Tabs, type TabItem } from '../components/Tabs.tsx';
import { ApiTokensSection } from '../features/settings/ApiTokensSection.tsx';
import { CompaniesTab } from '../features/settings/CompaniesTab.tsx';
import { ProfileTab } from '../features/settings/ProfileTab.tsx';
import { SubscriptionTab } from '../features/settings/SubscriptionTab.tsx';
import { TwoFactorSection } from '../features/settings/TwoFactorSection.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useHashTab } from '../hooks/useHashTab.ts';
import { useAppStore } from '../state/store.ts';

type SettingsTab = 'profile' | 'companies' | 'security' | 'subscription';
const TABS: readonly TabItem<SettingsTab>[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'companies', label: 'Companies' },
  { id: 'security', label: 'Security' },
  { id: 'subscription', label: 'Subscription' },
];
const TAB_IDS = TABS.map((t) => t.id);

/** User settings (spec 001 §2): tabs kept in the hash, `#/{tab}/{rest}`. */
export function SettingsPage() {
  const { tab, select } = useHashTab(TAB_IDS);
  const label = TABS.find((t) => t.id === tab)?.label ?? '';
  useDocumentTitle(`Settings: ${label}`);
  const idBase = useId();
  return (
    <SignedInOnly>
      <div className="container stack">
        <h1 className="page-title">Settings</h1>
        <Tabs
          idBase={idBase}
          label="Settings"
          tabs={TABS}
          active={tab}
          onSelect={(next, keyboard) => select(next, { replace: keyboard })}
        >
          {tab === 'profile' && <ProfileTab />}
          {tab === 'companies' && <CompaniesTab />}
          {tab === 'subscription' && <SubscriptionTab />}
          {tab === 'security' && (
            <div className="stack-lg">
              <TwoFactorSection />
              <ApiTokensSection />
            </div>
          )}
        </Tabs>
      </div>
    </SignedInOnly>
  );
}

/**
 * Renders its children for a signed-in user; sends a signed-out visitor to /login.
 */
export function SignedInOnly({ children }: { children: ReactNode }) {
  const status = useAppStore((s) => s.sessionStatus);
  const user = useAppStore((s) => s.user);
  const expired = useAppStore((s) => s.sessionExpired);
  const location = useLocation();
  if (status === 'loading') {
    return <PageLoading>Loading your settings…</PageLoading>;
  }
  // After a 401 the page stays behind the session-expired modal, which offers to sign in.
  if (!user && !expired) return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}
