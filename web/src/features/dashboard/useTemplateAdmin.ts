import { useCallback, useEffect, useState } from 'react';
import { changeTemplateStatus, deleteTemplate } from '../../api/templates.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { useFlash, type FlashMessage } from '../../components/Flash.tsx';

/** docs/editor.md "Messages": a failed template action's danger alert clears after 3 seconds. */
export const TEMPLATE_ALERT_MS = 3000;

/** The spec's confirmation before a template is deleted (docs/editor.md "Messages"). */
export const DELETE_TEMPLATE_TITLE = 'Delete Template ?';

export type TemplateAdminAction = 'enable' | 'disable' | 'delete';

export interface TemplateAdmin {
  /** The action under way, on which template. */
  busy: { id: string; action: TemplateAdminAction } | null;
  /** The template waiting for the delete confirmation. */
  confirming: { id: string; title: string } | null;
  flash: FlashMessage | null;
  error: string | null;
  dismissError: () => void;
  /** Enables or disables a template (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Deactivate/Activate"). */
  setEnabled: (id: string, enabled: boolean) => Promise<boolean>;
  /** Opens the 'Delete Template ?' confirmation. */
  askDelete: (id: string, title: string) => void;
  cancelDelete: () => void;
  /** Deletes the template being confirmed. */
  confirmDelete: () => Promise<boolean>;
}

/**
 * The admin's template actions on dashboard cards and in the editor's Templates panel
 * (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Template card: Deactivate/Activate and Delete
 * (with confirmation)", docs/adr/0023-team-roles.md "Team roles" admin, docs/editor.md "Messages"):
 * each shows the server's message as a flash, or a danger alert that clears after 3 s.
 * @param onDone called after a successful action with the template id (the card leaves).
 */
export function useTemplateAdmin(
  onDone: (id: string, action: TemplateAdminAction) => void,
): TemplateAdmin {
  const [busy, setBusy] = useState<TemplateAdmin['busy']>(null);
  const [confirming, setConfirming] = useState<TemplateAdmin['confirming']>(null);
  const [error, setError] = useState<string | null>(null);
  const { flash, show } = useFlash();

  useEffect(() => {
    if (!error) return;
    const timer = window.setTimeout(() => setError(null), TEMPLATE_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [error]);

  const run = useCallback(
    async (id: string, action: TemplateAdminAction, call: () => Promise<string>) => {
      setBusy({ id, action });
      setError(null);
      try {
        show(await call());
        onDone(id, action);
        return true;
      } catch (failure) {
        setError(actionFailure(failure));
        return false;
      } finally {
        setBusy(null);
      }
    },
    [onDone, show],
  );

  return {
    busy,
    confirming,
    flash,
    error,
    dismissError: () => setError(null),
    setEnabled: (id, enabled) =>
      run(id, enabled ? 'enable' : 'disable', () => changeTemplateStatus(id, enabled)),
    askDelete: (id, title) => setConfirming({ id, title }),
    cancelDelete: () => setConfirming(null),
    confirmDelete: async () => {
      if (!confirming) return false;
      const done = await run(confirming.id, 'delete', () => deleteTemplate(confirming.id));
      setConfirming(null);
      return done;
    },
  };
}
