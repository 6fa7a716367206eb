import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';
import { LogoMark } from './LogoMark.tsx';
import { SessionExpiredModal } from './SessionExpiredModal.tsx';
import { useSessionKeepAlive } from '../hooks/useSessionKeepAlive.ts';
import { SessionNav } from './SessionNav.tsx';
import { NotificationBell } from '../features/notifications/NotificationBell.tsx';
import { SupportButton } from '../features/notifications/SupportModal.tsx';
import { UnsavedChangesPrompt } from './UnsavedChangesPrompt.tsx';
import { useAppStore } from '../state/store.ts';

/**
 * Shown to everyone. The service's status (its DynamoDB and S3 checks) is for whoever operates
 * it, not a marketer's daily path: it is linked from the footer, not the header.
 */
const NAV = [{ to: '/', label: 'Home', end: true }] as const;

/** Shown to a signed-in user only: their designs (docs/adr/0020-dashboard-spa.md "Dashboard SPA" Dashboard). */
const SIGNED_IN_NAV = [
  { to: '/dashboard', label: 'Dashboard', end: false },
  // docs/analytics.md "Campaigns".
  { to: '/campaigns', label: 'Campaigns', end: false },
] as const;

/** Shown to platform admins only (docs/accounts.md "Screens": "Kiosk (admin)"; docs/kiosk.md). */
const ADMIN_NAV = [{ to: '/spark/kiosk', label: 'Kiosk', end: false }] as const;

/**
 * The frame of every page: skip link, header with the product name, navigation and the
 * account corner ({@link SessionNav}), the main landmark and a footer. After a client-side
 * navigation, focus moves to `<main>` so keyboard and screen-reader users start at the new page's
 * content, as after a full page load; a field of the new page that already has focus (its own
 * autofocus) keeps it.
 */
export function AppShell() {
  useSessionKeepAlive();
  const signedIn = useAppStore((s) => s.user !== null);
  const isAdmin = useAppStore((s) => s.user?.isAdmin === true);
  const { pathname } = useLocation();
  // A page whose code is still on its way (a lazy route's chunk): the page being left stays on
  // screen meanwhile, dimmed and inert, so nothing is typed into a form that is about to go.
  const leaving = useNavigation().state !== 'idle';
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);
  // The header's menu on a narrow screen (styles.css "site-menu"): closed again by a navigation.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  // Esc closes the open menu and gives focus back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [menuOpen]);

  // In the commit that shows the new page, before the browser hands the user its fields: an
  // effect ran after it, and could pull focus out of a field the user had already clicked into
  // and was typing in (test/e2e/forms-settle.test.ts).
  useLayoutEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    const main = mainRef.current;
    if (main && !holdsTypingFocus(main)) main.focus();
  }, [pathname]);

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // Focus, not a fragment navigation: a history entry the router did not make would let
          // back and forward pass the unsaved-changes question unasked (and the settings pages
          // read the hash as their tab; docs/accounts.md "Screens").
          event.preventDefault();
          mainRef.current?.focus();
          mainRef.current?.scrollIntoView();
        }}
      >
        Skip to content
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <Link to="/" className="brand">
            <LogoMark size={32} />
            <span className="brand__name">PicSnippets</span>
          </Link>
          <button
            ref={menuButton}
            type="button"
            className="site-menu-toggle button button--small button--secondary"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          <div id="site-menu" className="site-menu" data-open={menuOpen}>
            <nav aria-label="Main" className="site-nav">
              <ul>
                {[...NAV, ...(signedIn ? SIGNED_IN_NAV : []), ...(isAdmin ? ADMIN_NAV : [])].map(
                  (item) => (
                    <li key={item.to}>
                      <NavLink to={item.to} end={item.end} className="site-nav__link">
                        {item.label}
                      </NavLink>
                    </li>
                  ),
                )}
              </ul>
            </nav>
            {signedIn && <SupportButton />}
            {signedIn && <NotificationBell />}
            <SessionNav />
          </div>
        </div>
      </header>
      <ImpersonationBanner />
      <main
        id="main"
        ref={mainRef}
        tabIndex={-1}
        className="site-main"
        inert={leaving}
        aria-busy={leaving}
      >
        <Outlet />
      </main>
      <p role="status" className="visually-hidden">
        {leaving ? 'Loading the page…' : ''}
      </p>
      <footer className="site-footer">
        <div className="container">
          <p>
            PicSnippets: personalised images for every recipient.{' '}
            <Link to="/status">System status</Link>
          </p>
        </div>
      </footer>
      <SessionExpiredModal />
      <UnsavedChangesPrompt />
    </div>
  );
}

/**
 * Whether focus is in a control of `main` that takes typing (a text field, a select, an editable
 * region), which a navigation's focus move must leave alone.
 */
function holdsTypingFocus(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === main || !main.contains(active)) return false;
  return (
    active.isContentEditable ||
    active instanceof HTMLTextAreaElement ||
    active instanceof HTMLSelectElement ||
    (active instanceof HTMLInputElement && !NOT_TYPED.has(active.type))
  );
}

/** Input types that take no typing. */
const NOT_TYPED = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'image', 'file']);
