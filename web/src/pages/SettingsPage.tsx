import { useId } from 'react';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { SettingsIcon } from '../components/SettingsIcon.tsx';
import { Tabs, type TabItem } from '../components/Tabs.tsx';
import { ApiTokensSection } from '../features/settings/ApiTokensSection.tsx';
import { CompaniesTab } from '../features/settings/CompaniesTab.tsx';
import { ProfileTab } from '../features/settings/ProfileTab.tsx';
import { SubscriptionTab } from '../features/settings/SubscriptionTab.tsx';
import { TwoFactorSection } from '../features/settings/TwoFactorSection.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useHashTab } from '../hooks/useHashTab.ts';

type SettingsTab =
  'profile' | 'companies' | 'security' | 'invoices' | 'payment-method' | 'subscription';
/** docs/accounts.md "Screens": "tabs profile, companies, security, invoice, payment method, subscription". */
const TABS: readonly TabItem<SettingsTab>[] = [
  { id: 'profile', label: 'Profile', icon: <SettingsIcon name="profile" /> },
  { id: 'companies', label: 'Companies', icon: <SettingsIcon name="companies" /> },
  { id: 'security', label: 'Security', icon: <SettingsIcon name="security" /> },
  { id: 'invoices', label: 'Invoices', icon: <SettingsIcon name="invoices" /> },
  { id: 'payment-method', label: 'Payment method', icon: <SettingsIcon name="payment-method" /> },
  { id: 'subscription', label: 'Subscription', icon: <SettingsIcon name="subscription" /> },
];
const TAB_IDS = TABS.map((t) => t.id);

/** User settings (docs/accounts.md "Screens"): tabs kept in the hash, `#/{tab}/{rest}`. */
export function SettingsPage() {
  const { tab, select } = useHashTab(TAB_IDS);
  const label = TABS.find((t) => t.id === tab)?.label ?? '';
  useDocumentTitle(`Settings: ${label}`);
  const idBase = useId();
  return (
    <SignedInOnly loading="Loading your settings…">
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
          {(tab === 'invoices' || tab === 'payment-method' || tab === 'subscription') && (
            <SubscriptionTab key={tab} part={tab} />
          )}
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
