import { NavLink } from 'react-router-dom';
import { useAppStore } from '../state/store.ts';

/**
 * The header's account corner: "Sign in" and "Create account" when signed out, the user's
 * name and "Sign out" when signed in, a quiet placeholder while the session loads (so the
 * header does not flash the wrong links).
 */
export function SessionNav() {
  const status = useAppStore((s) => s.sessionStatus);
  const user = useAppStore((s) => s.user);
  const signOut = useAppStore((s) => s.signOut);

  if (status === 'loading') {
    return <div className="session-nav session-nav--loading" aria-hidden="true" />;
  }
  if (user) {
    return (
      <div className="session-nav" data-testid="session-nav">
        {user.photo_url && (
          <img className="session-nav__photo" src={user.photo_url} alt="" width={28} height={28} />
        )}
        <p className="session-nav__user" title={user.email}>
          <span className="visually-hidden">Signed in as </span>
          <span className="session-nav__name">{user.name}</span>
        </p>
        <NavLink to="/settings" className="button button--small button--secondary">
          Settings
        </NavLink>
        <button type="button" className="button button--small button--secondary" onClick={signOut}>
          Sign out
        </button>
      </div>
    );
  }
  return (
    <div className="session-nav" data-testid="session-nav">
      <NavLink to="/login" className="button button--small button--secondary">
        Sign in
      </NavLink>
      <NavLink to="/register" className="button button--small">
        Create account
      </NavLink>
    </div>
  );
}
