import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { activateDesign, archiveDesign, cloneDesign, type DesignCard } from '../../api/designs.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { useFlash, type FlashMessage } from '../../components/Flash.tsx';

/** The actions of a design card and the show page (docs/adr/0020-dashboard-spa.md "Dashboard SPA", docs/adr/0018-design-lists.md "Design lists"). */
export type DesignAction = 'archive' | 'clone' | 'activate';

const CALLS: Record<DesignAction, (id: string) => Promise<DesignCard>> = {
  archive: archiveDesign,
  clone: cloneDesign,
  activate: activateDesign,
};

/** The button labels (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "actions Archive and Clone", "action Activate"). */
export const ACTION_LABELS: Record<DesignAction, string> = {
  archive: 'Archive',
  clone: 'Clone',
  activate: 'Activate',
};

/**
 * The confirmation flash of a finished action (docs/adr/0018-design-lists.md "Design lists").
 * @param design the design acted on; `result` the card the server answered (for a clone, the
 *   new design).
 */
export function flashText(action: DesignAction, design: DesignCard, result: DesignCard): string {
  switch (action) {
    case 'archive':
      return `“${design.title}” was archived.`;
    case 'activate':
      return `“${design.title}” is active again.`;
    case 'clone':
      return `“${design.title}” was cloned as “${result.title}”.`;
  }
}

export interface DesignActions {
  /** The action under way, if any (one at a time). */
  busy: { id: string; action: DesignAction } | null;
  flash: FlashMessage | null;
  /** The last failure (docs/editor.md "Messages": the server's message), until dismissed or the next action. */
  error: string | null;
  dismissError: () => void;
  /**
   * Runs an action; on success shows its flash and calls `onDone`.
   * @returns the server's card (the clone for `clone`), or undefined when it failed or another
   *   action was under way.
   */
  run: (action: DesignAction, design: DesignCard) => Promise<DesignCard | undefined>;
}

/**
 * Archive, Clone and Activate with their feedback: one action at a time, a 4-second
 * confirmation flash on success, the server's message on failure (a frozen team's 403 says
 * why, docs/adr/0018-design-lists.md "Design lists"). A success marks every cached design read
 * stale (the lists of both views and all sorts, the design's pages): each is read again when it is
 * shown next.
 * @param onDone told of each success, to update what the page shows (in the cache).
 * @param initialFlash a flash handed over by the page before (the show page after a clone).
 */
export function useDesignActions(
  onDone: (action: DesignAction, design: DesignCard, result: DesignCard) => void,
  initialFlash?: string,
): DesignActions {
  const [busy, setBusy] = useState<DesignActions['busy']>(null);
  const [error, setError] = useState<string | null>(null);
  const { flash, show } = useFlash(initialFlash);
  const running = useRef(false);
  const queryClient = useQueryClient();

  const run = useCallback(
    async (action: DesignAction, design: DesignCard) => {
      if (running.current) return undefined;
      running.current = true;
      setBusy({ id: design.id, action });
      setError(null);
      try {
        const result = await CALLS[action](design.id);
        show(flashText(action, design, result));
        onDone(action, design, result);
        void queryClient.invalidateQueries({
          queryKey: queryKeys.designs.all,
          refetchType: 'none',
        });
        return result;
      } catch (failure) {
        setError(actionFailure(failure));
        return undefined;
      } finally {
        running.current = false;
        setBusy(null);
      }
    },
    [onDone, show, queryClient],
  );

  const dismissError = useCallback(() => setError(null), []);
  return { busy, flash, error, dismissError, run };
}
