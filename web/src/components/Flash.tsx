import { useCallback, useEffect, useState } from 'react';

/** How long a confirmation flash stays, ms (docs/adr/0018-design-lists.md "Design lists": "A confirmation flash lasts 4 seconds"). */
export const FLASH_MS = 4000;

export interface FlashMessage {
  text: string;
  /** Tells two equal texts apart, so a repeated action restarts the 4 seconds. */
  at: number;
}

/**
 * A confirmation that shows for {@link FLASH_MS} after an action (docs/adr/0018-design-lists.md
 * "Design lists").
 * @param initial a flash to start with (one handed over by the page before a navigation).
 */
export function useFlash(initial?: string): {
  flash: FlashMessage | null;
  show: (text: string) => void;
} {
  const [flash, setFlash] = useState<FlashMessage | null>(
    initial ? { text: initial, at: 0 } : null,
  );
  useEffect(() => {
    if (!flash) return;
    const timer = window.setTimeout(() => setFlash(null), FLASH_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);
  const show = useCallback((text: string) => setFlash({ text, at: Date.now() }), []);
  return { flash, show };
}

/**
 * The outcome of a design action, pinned to the bottom of the window so it is seen wherever
 * the user scrolled to: the confirmation flash in a polite live region that is always in the
 * page (so screen readers hear each new text), and a failure as an alert that stays until it
 * is closed or the next action starts (docs/adr/0020-dashboard-spa.md "Dashboard SPA").
 */
export function ActionFeedback({
  flash,
  error,
  onDismissError,
}: {
  flash: FlashMessage | null;
  error: string | null;
  onDismissError: () => void;
}) {
  return (
    <div className="flash-area">
      <div role="status" aria-live="polite" className="flash-area__slot">
        {flash && (
          <p key={flash.at} className="flash" data-testid="flash">
            <span className="flash__icon" aria-hidden="true">
              ✓
            </span>
            {flash.text}
          </p>
        )}
      </div>
      {error && (
        <div role="alert" className="flash flash--error" data-testid="action-error">
          <span className="flash__icon" aria-hidden="true">
            !
          </span>
          <p className="flash__text">{error}</p>
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={onDismissError}
          >
            Close<span className="visually-hidden"> the message</span>
          </button>
        </div>
      )}
    </div>
  );
}
