import { type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: string;
  /** Drawn before the label, hidden from screen readers (the label names the tab). */
  icon?: ReactNode;
}

/**
 * WAI-ARIA tabs: a `tablist` of `tab` buttons and the active `tabpanel`. Only the active tab
 * is in the tab order; Left/Right move between tabs (wrapping), Home/End go to the ends, and
 * the tab reached is activated at once. `idBase` makes the tab and panel ids.
 */
export function Tabs<T extends string>({
  idBase,
  label,
  tabs,
  active,
  onSelect,
  children,
}: {
  idBase: string;
  label: string;
  tabs: readonly TabItem<T>[];
  active: T;
  /** `keyboard` is true for arrow-key moves (the caller may replace rather than push). */
  onSelect: (tab: T, keyboard: boolean) => void;
  children: ReactNode;
}) {
  const tabId = (tab: T) => `${idBase}-tab-${tab}`;
  const panelId = `${idBase}-panel`;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const at = tabs.findIndex((t) => t.id === active);
    let next: number;
    if (event.key === 'ArrowRight') next = (at + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    else return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id, true);
    document.getElementById(tabId(tab.id))?.focus();
  }

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={tabId(tab.id)}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={tab.id === active}
            aria-controls={panelId}
            tabIndex={tab.id === active ? 0 : -1}
            onKeyDown={onKeyDown}
            onClick={() => {
              if (tab.id !== active) onSelect(tab.id, false);
            }}
          >
            {tab.icon}
            {tab.label}
          </button>
        ))}
      </div>
      <div
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(active)}
        tabIndex={0}
        className="tabs__panel"
      >
        {children}
      </div>
    </div>
  );
}
