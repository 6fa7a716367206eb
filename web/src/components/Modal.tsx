import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native `<dialog>` element (`showModal()`): the browser traps focus,
 * makes the page behind inert and closes on Escape (reported through `onCancel`). Focus goes
 * to the element marked `data-autofocus`, else the first control; it returns to where it was
 * when the dialog closes.
 */
export function Modal({
  open,
  title,
  children,
  actions,
  onCancel,
  role = 'dialog',
  wide = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  actions: ReactNode;
  /** Escape pressed; omit to keep the dialog open until an action closes it. */
  onCancel?: () => void;
  role?: 'dialog' | 'alertdialog';
  /** A wider dialog (up to 64rem) for previews and tables. */
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const before = document.activeElement;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal--wide' : 'modal'}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel?.();
      }}
    >
      <h2 id={titleId} className="card__title">
        {title}
      </h2>
      <div id={bodyId} className="stack">
        {children}
      </div>
      <div className="modal__actions">{actions}</div>
    </dialog>
  );
}

/** "Are you sure?" before something that cannot be undone. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      open={open}
      title={title}
      role="alertdialog"
      onCancel={onCancel}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            data-autofocus
            onClick={onCancel}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            aria-disabled={pending}
            onClick={() => {
              if (!pending) onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
