/**
 * The modal dialog and the "Are you sure?" dialog (./Modal.tsx): named by their title and
 * described by their text, focus on opening (the `data-autofocus` control, else the first one),
 * Escape reported as a cancel, and focus back where it was when they close.
 */
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { ConfirmDialog, Modal } from './Modal.tsx';

/** A page with a button that opens a modal, which Escape or its Close button closes. */
function ModalPage({
  escapeCloses = true,
  focusClose = false,
}: {
  escapeCloses?: boolean;
  /** Mark Close `data-autofocus`. */
  focusClose?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open the details
      </button>
      <Modal
        open={open}
        title="Design details"
        onCancel={escapeCloses ? () => setOpen(false) : undefined}
        actions={
          <button
            type="button"
            data-autofocus={focusClose || undefined}
            onClick={() => setOpen(false)}
          >
            Close
          </button>
        }
      >
        <p>Created on 5 January.</p>
        <label>
          Note <input type="text" />
        </label>
      </Modal>
    </>
  );
}

/** A page with a Delete button asking first. */
function ConfirmPage({ onConfirm, pending = false }: { onConfirm: () => void; pending?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete design
      </button>
      <ConfirmDialog
        open={open}
        title="Delete this design?"
        confirmLabel="Delete"
        pending={pending}
        onConfirm={onConfirm}
        onCancel={() => setOpen(false)}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}

describe('Modal', () => {
  it('is shown only while open, named by its title and described by its text', async () => {
    const { user } = renderWithProviders(<ModalPage />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open the details' }));
    const dialog = screen.getByRole('dialog', { name: 'Design details' });
    expect(screen.getByRole('dialog', { description: /Created on 5 January\./ })).toBe(dialog);
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });

  it('focuses the first control on opening', async () => {
    const { user } = renderWithProviders(<ModalPage />);
    await user.click(screen.getByRole('button', { name: 'Open the details' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Note' })),
    );
  });

  it('focuses the control marked data-autofocus instead', async () => {
    const { user } = renderWithProviders(<ModalPage focusClose />);
    await user.click(screen.getByRole('button', { name: 'Open the details' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' })),
    );
  });

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const { user } = renderWithProviders(<ModalPage />);
    const opener = screen.getByRole('button', { name: 'Open the details' });
    await user.click(opener);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('gives focus back when an action closes it', async () => {
    const { user } = renderWithProviders(<ModalPage />);
    const opener = screen.getByRole('button', { name: 'Open the details' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('stays open on Escape when it has no cancel', async () => {
    const { user } = renderWithProviders(<ModalPage escapeCloses={false} />);
    await user.click(screen.getByRole('button', { name: 'Open the details' }));
    await user.keyboard('{Escape}');
    const dialog = screen.getByRole('dialog', { name: 'Design details' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });
});

describe('ConfirmDialog', () => {
  it('asks as an alert dialog with the safe choice focused', async () => {
    const onConfirm = vi.fn();
    const { user } = renderWithProviders(<ConfirmPage onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Delete design' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this design?' });
    expect(dialog.textContent).toContain('This cannot be undone.');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })),
    );
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('confirms with its button, by mouse or by keyboard', async () => {
    const onConfirm = vi.fn();
    const { user } = renderWithProviders(<ConfirmPage onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Delete design' }));
    // Tab from Cancel (focused on opening) to Delete, then Enter.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })),
    );
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete' }));
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('cancels on Escape or Cancel, focus back on the button that asked', async () => {
    const onConfirm = vi.fn();
    const { user } = renderWithProviders(<ConfirmPage onConfirm={onConfirm} />);
    const asker = screen.getByRole('button', { name: 'Delete design' });
    await user.click(asker);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(asker);
    await user.click(asker);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(asker);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('does not confirm twice while the first confirmation is under way', async () => {
    const onConfirm = vi.fn();
    const { user } = renderWithProviders(<ConfirmPage onConfirm={onConfirm} pending />);
    await user.click(screen.getByRole('button', { name: 'Delete design' }));
    const confirm = screen.getByRole('button', { name: 'Delete' });
    expect(confirm.getAttribute('aria-disabled')).toBe('true');
    await user.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
