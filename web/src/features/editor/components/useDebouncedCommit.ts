/**
 * A control value that is shown at once and committed after a pause (docs/editor.md "Constants"
 * debounces: QR colour 300 ms, margin and transparency 200 ms, searches 700–1000 ms). Leaving the
 * control (unmount) commits what waits, so nothing typed is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * @param commit called with the value once `ms` pass without another change.
 * @param ms the pause, ms.
 * @returns the value waiting to be committed (null when none) and its setter.
 */
export function useDebouncedCommit<T>(
  commit: (value: T) => void,
  ms: number,
): [pending: T | null, set: (value: T) => void] {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<{ value: T } | null>(null);
  const latest = useRef(commit);
  useEffect(() => {
    latest.current = commit;
  });
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (waiting.current) latest.current(waiting.current.value);
    },
    [],
  );
  const set = useCallback(
    (value: T) => {
      waiting.current = { value };
      setPending({ value });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        waiting.current = null;
        setPending(null);
        latest.current(value);
      }, ms);
    },
    [ms],
  );
  return [pending ? pending.value : null, set];
}
