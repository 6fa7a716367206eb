import { useEffect } from 'react';

/**
 * Esc goes back from a kiosk profile to its search (docs/kiosk.md
 * "Users, impersonation and discounts"): a key press nothing else handled (an open menu or dialog
 * prevents its default).
 */
export function useEscapeBack(back: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open], [role="dialog"]')) return;
      back();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [back]);
}
