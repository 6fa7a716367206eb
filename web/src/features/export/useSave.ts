import { useCallback, useRef, useState } from 'react';
import { actionFailure } from '../../lib/formFailure.ts';

/** Where one of the export screen's saves stands. */
export type SaveState =
  { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; message: string };

/** Runs a save and reports its state; the last call wins. */
export function useSave(): [SaveState, (run: () => Promise<unknown>) => Promise<boolean>] {
  const [save, setSave] = useState<SaveState>({ state: 'idle' });
  const round = useRef(0);
  const run = useCallback(async (call: () => Promise<unknown>) => {
    const mine = ++round.current;
    setSave({ state: 'saving' });
    try {
      await call();
      if (mine === round.current) setSave({ state: 'saved' });
      return true;
    } catch (error) {
      if (mine === round.current) setSave({ state: 'failed', message: actionFailure(error) });
      return false;
    }
  }, []);
  return [save, run];
}
