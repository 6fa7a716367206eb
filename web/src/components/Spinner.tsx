import type { ReactNode } from 'react';

/** A small spinning ring; decorative, so say what is loading in text next to it. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

/**
 * A whole page's loading state: the spinner and what is loading ("Loading the bundle…"), as a
 * polite status that screen readers announce.
 */
export function PageLoading({ children }: { children: ReactNode }) {
  return (
    <div className="container">
      <p className="muted" role="status">
        <Spinner /> {children}
      </p>
    </div>
  );
}
