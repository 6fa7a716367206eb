/**
 * WAI-ARIA tabs (./Tabs.tsx) kept in the address's hash (web/src/hooks/useHashTab.ts;
 * docs/accounts.md "Screens": "tabs profile, companies, security, invoice, payment method,
 * subscription"), as the settings page uses them: the active tab from the hash (the first for an
 * unknown one), a click that pushes the hash, arrow keys that wrap, Home and End, and only the
 * active tab in the tab order.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useHashTab } from '../hooks/useHashTab.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { SettingsIcon } from './SettingsIcon.tsx';
import { Tabs, type TabItem } from './Tabs.tsx';

type Tab = 'profile' | 'companies' | 'security' | 'subscription';
const TABS: readonly TabItem<Tab>[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'companies', label: 'Companies' },
  { id: 'security', label: 'Security' },
  { id: 'subscription', label: 'Subscription' },
];

/** The settings page's tabs, each panel saying which tab it is. */
function SettingsTabs() {
  const { tab, select } = useHashTab(TABS.map((t) => t.id));
  return (
    <Tabs
      idBase="settings"
      label="Settings"
      tabs={TABS}
      active={tab}
      onSelect={(next, keyboard) => select(next, { replace: keyboard })}
    >
      <p>The {tab} panel</p>
    </Tabs>
  );
}

function renderTabs(route = '/settings') {
  const view = renderWithProviders(<SettingsTabs />, { route });
  const tab = (name: string) =>
    within(screen.getByRole('tablist', { name: 'Settings' })).getByRole('tab', { name });
  const selected = () =>
    screen
      .getAllByRole('tab')
      .filter((t) => t.getAttribute('aria-selected') === 'true')
      .map((t) => t.textContent);
  return { ...view, tab, selected };
}

describe('Tabs kept in the hash', () => {
  it('opens the tab the hash names, its panel named by it', () => {
    const { selected } = renderTabs('/settings#/security');
    expect(selected()).toEqual(['Security']);
    const panel = screen.getByRole('tabpanel', { name: 'Security' });
    expect(panel.textContent).toBe('The security panel');
  });

  it('opens the first tab for an unknown hash', () => {
    const { selected } = renderTabs('/settings#/nope');
    expect(selected()).toEqual(['Profile']);
  });

  it('puts only the active tab in the tab order', () => {
    const { tab } = renderTabs('/settings#/companies');
    expect(tab('Companies').tabIndex).toBe(0);
    expect(tab('Profile').tabIndex).toBe(-1);
    expect(tab('Security').tabIndex).toBe(-1);
  });

  it('pushes the hash of a clicked tab', async () => {
    const { user, tab, router, selected } = renderTabs('/settings#/profile');
    await user.click(tab('Companies'));
    expect(router.state.location.hash).toBe('#/companies');
    expect(router.state.historyAction).toBe('PUSH');
    expect(selected()).toEqual(['Companies']);
  });

  it('moves with the arrow keys, wrapping, and to the ends with Home and End, focus following', async () => {
    const { user, tab, router, selected } = renderTabs('/settings#/security');
    tab('Security').focus();
    await user.keyboard('{ArrowRight}');
    expect(selected()).toEqual(['Subscription']);
    expect(router.state.location.hash).toBe('#/subscription');
    expect(router.state.historyAction).toBe('REPLACE');
    await user.keyboard('{ArrowRight}');
    expect(selected()).toEqual(['Profile']);
    expect(document.activeElement).toBe(tab('Profile'));
    await user.keyboard('{ArrowLeft}');
    expect(selected()).toEqual(['Subscription']);
    await user.keyboard('{Home}');
    expect(selected()).toEqual(['Profile']);
    await user.keyboard('{End}');
    expect(selected()).toEqual(['Subscription']);
    expect(document.activeElement).toBe(tab('Subscription'));
  });
});

describe('tabs with icons', () => {
  it('draws each icon before its label, hidden from screen readers, the label naming the tab', () => {
    const withIcons: readonly TabItem<Tab>[] = TABS.map((t) => ({
      ...t,
      icon: <SettingsIcon name={t.id} />,
    }));
    renderWithProviders(
      <Tabs idBase="icons" label="Settings" tabs={withIcons} active="profile" onSelect={() => {}}>
        <p>Panel</p>
      </Tabs>,
    );
    const tabs = within(screen.getByRole('tablist', { name: 'Settings' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Profile',
      'Companies',
      'Security',
      'Subscription',
    ]);
    for (const [i, tab] of tabs.entries()) {
      const icon = tab.querySelector('svg');
      expect(icon?.getAttribute('aria-hidden')).toBe('true');
      expect(icon?.getAttribute('data-icon')).toBe(TABS[i]!.id);
      expect(icon?.querySelectorAll('path').length).toBeGreaterThan(0);
      expect(tab.firstElementChild).toBe(icon);
    }
    expect(screen.getByRole('tab', { name: 'Security' })).toBeTruthy();
  });
});
