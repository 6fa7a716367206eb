import { useEffect, useState } from 'react';

/**
 * `value`, once it has stayed unchanged for `delayMs` milliseconds. The first render returns
 * `value` at once.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
