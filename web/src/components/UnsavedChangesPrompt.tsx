import { useEffect } from 'react';
import { useBlocker, type Location } from 'react-router-dom';
import { hasUnsavedChanges, useHasUnsavedChanges } from '../hooks/useUnsavedChangesGuard.ts';
import { Modal } from './Modal.tsx';

/** Whether a navigation goes somewhere else (a hash is a tab of the page: its panel goes). */
function leaves(current: Location, next: Location): boolean {
  return (
    current.pathname !== next.pathname ||
    current.search !== next.search ||
    current.hash !== next.hash
  );
}

/**
 * The question before leaving a page with unsaved changes (`useUnsavedChangesGuard`), once in
 * the app shell: an in-app navigation waits in react-router's blocker while an alert dialog asks
 * "Leave this page?" (focus on "Stay", the safe choice; Esc also stays; "Leave" goes on and the
 * changes are dropped), and closing the tab or reloading gets the browser's `beforeunload`
 * prompt. Both read the marks at the moment of leaving, so a form saved a moment earlier does
 * not ask.
 */
export function UnsavedChangesPrompt() {
  const dirty = useHasUnsavedChanges();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedChanges() && leaves(currentLocation, nextLocation),
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const stay = () => {
    if (blocker.state === 'blocked') blocker.reset();
  };
  return (
    <Modal
      open={blocker.state === 'blocked'}
      title="Leave this page?"
      role="alertdialog"
      onCancel={stay}
      actions={
        <>
          <button type="button" className="button button--secondary" data-autofocus onClick={stay}>
            Stay
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              if (blocker.state === 'blocked') blocker.proceed();
            }}
          >
            Leave
          </button>
        </>
      }
    >
      <p>Your changes on this page are not saved yet. If you leave now, they may be lost.</p>
    </Modal>
  );
}
