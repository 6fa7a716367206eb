/**
 * The browser's modal `<dialog>` behaviour that happy-dom lacks and web/src/components/Modal.tsx
 * relies on. happy-dom's `showModal()` only sets `open`; a browser also
 * - runs the dialog focusing steps: focus goes to the first descendant with `autofocus`, else
 *   the first focusable descendant (Modal then moves it to its `data-autofocus` control);
 * - turns Escape into a close request for the topmost modal dialog: a cancelable `cancel`
 *   event at the dialog, which closes it unless the event is cancelled (Modal cancels it and
 *   reports `onCancel`).
 * Not emulated: the focus trap and the inert page behind the dialog (the e2e tests cover them).
 */

/** What can take focus when a dialog opens (the browser's "focusable area" for form controls and links). */
const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** The open modal dialogs, the topmost last. */
const modals: HTMLDialogElement[] = [];

const forget = (dialog: HTMLDialogElement) => {
  const at = modals.indexOf(dialog);
  if (at !== -1) modals.splice(at, 1);
};

/**
 * Installs the emulation on happy-dom's `HTMLDialogElement` and `document` of this test file.
 * Idempotent per window.
 */
export function emulateModalDialogs(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { emulated?: true };
  if (proto.emulated) return;
  proto.emulated = true;
  const showModal = proto.showModal;
  const close = proto.close;
  proto.showModal = function (this: HTMLDialogElement) {
    showModal.call(this);
    forget(this);
    modals.push(this);
    const first =
      this.querySelector<HTMLElement>('[autofocus]') ?? this.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
  };
  proto.close = function (this: HTMLDialogElement, returnValue?: string) {
    forget(this);
    close.call(this, returnValue);
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const top = modals.filter((dialog) => dialog.isConnected && dialog.open).at(-1);
    if (!top) return;
    const cancel = new Event('cancel', { cancelable: true });
    if (top.dispatchEvent(cancel)) top.close();
  });
}
