import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { LogoMark } from './LogoMark.tsx';
import { SessionExpiredModal } from './SessionExpiredModal.tsx';
import { useSessionKeepAlive } from '../hooks/useSessionKeepAlive.ts';
import { SessionNav } from './SessionNav.tsx';
import { useAppStore } from '../state/store.ts';

const NAV = [
  { to: '/', label: 'Home', end: true },
  { to: '/status', label: 'Status', end: false },
] as const;

/** Shown to a signed-in user only: their designs (spec 000 §2 Dashboard). */
const SIGNED_IN_NAV = [{ to: '/dashboard', label: 'Dashboard', end: false }] as const;

/**
 * The frame of every page: skip link, header with the product name, navigation and the
 * account corner ({@link SessionNav}), the main landmark and a footer. After a client-side navigation, focus moves to `<main>` so keyboard
 * and screen-reader users start at the new page's content, as after a full page load.
 */
export function AppShell() {
  useSessionKeepAlive();
  const signedIn = useAppStore((s) => s.user !== null);
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    mainRef.current?.focus();
  }, [pathname]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <Link to="/" className="brand">
            <LogoMark size={32} />
            <span className="brand__name">PicSnippets</span>
          </Link>
          <nav aria-label="Main" className="site-nav">
            <ul>
              {[...NAV, ...(signedIn ? SIGNED_IN_NAV : [])].map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end} className="site-nav__link">
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <SessionNav />
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="container">
          <p>PicSnippets: personalised images for every recipient.</p>
        </div>
      </footer>
      <SessionExpiredModal />
    </div>
  );
}
