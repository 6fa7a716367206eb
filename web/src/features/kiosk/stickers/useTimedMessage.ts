import { useCallback, useEffect, useRef, useState } from 'react';

/** A message of an action and its tone. */
export interface TimedMessage {
  tone: 'success' | 'error';
  text: string;
}

/**
 * A message that clears itself `ms` after it is shown (docs/accounts.md "Error answers in the SPA":
 * the pack messages are "cleared after 2 seconds"); showing another restarts the time.
 * @returns the message shown now (null when none) and `show`.
 */
export function useTimedMessage(ms: number) {
  const [message, setMessage] = useState<TimedMessage | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = useCallback(
    (next: TimedMessage) => {
      window.clearTimeout(timer.current);
      setMessage(next);
      timer.current = window.setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  return { message, show };
}
