import type { ReactNode } from 'react';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { useAppStore } from '../state/store.ts';
import { Notice } from './Notice.tsx';
import './ImpersonationBanner.css';

/**
 * Wraps what an impersonating admin may not change: the user's password, two-factor
 * authentication and API tokens (docs/kiosk.md "Users, impersonation and discounts";
 * functions/lib/auth.ts refuses those calls with a 403). While impersonating, the controls
 * inside are disabled (a disabled fieldset) under a notice saying why; otherwise `children`
 * render as they are.
 */
export function ImpersonationLock({ children }: { children: ReactNode }) {
  const impersonating = useAppStore((s) => Boolean(s.user?.impersonator));
  if (!impersonating) return children;
  return (
    <div className="stack">
      <Notice tone="info">{KIOSK_USER_MESSAGES.readOnlyWhileImpersonating}</Notice>
      <fieldset className="impersonation-lock" disabled>
        {children}
      </fieldset>
    </div>
  );
}
