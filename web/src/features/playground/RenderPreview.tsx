import { useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';

type Outcome =
  { src: string; phase: 'loaded'; ms: number | undefined } | { src: string; phase: 'error' };

/**
 * The rendered image for `src`, a render URL on this origin. While a new URL loads, a skeleton
 * (first load) or the previous image under a spinner shows, and the frame is `aria-busy`; if
 * the image fails, a message and a retry button replace it. `width`/`height` reserve the space
 * so the page does not jump.
 */
export function RenderPreview({
  src,
  alt,
  width,
  height,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [attempt, setAttempt] = useState(0);
  const phase = outcome?.src === src ? outcome.phase : 'loading';

  function handleLoad() {
    setOutcome({ src, phase: 'loaded', ms: loadTimeMs(src) });
  }

  function retry() {
    setOutcome(null);
    setAttempt((n) => n + 1);
  }

  return (
    <figure className="preview">
      <div
        className={`preview__frame preview__frame--${phase}`}
        style={{ aspectRatio: `${width} / ${height}` }}
        aria-busy={phase === 'loading'}
      >
        <img
          key={attempt}
          className="preview__image"
          src={src}
          alt={alt}
          width={width}
          height={height}
          decoding="async"
          data-testid="render-preview"
          onLoad={handleLoad}
          onError={() => setOutcome({ src, phase: 'error' })}
        />
        {phase === 'loading' && (
          <div className="preview__overlay">
            <span className="preview__pill">
              <Spinner />
              Rendering…
            </span>
          </div>
        )}
        {phase === 'error' && (
          <div className="preview__overlay preview__overlay--error" role="alert">
            <svg
              className="preview__error-icon"
              viewBox="0 0 24 24"
              aria-hidden="true"
              focusable="false"
            >
              <path
                d="M4 5h16v14H4z"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinejoin="round"
              />
              <path
                d="m4 16 5-5 4 4 2-2 5 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinejoin="round"
              />
              <path d="M3 3l18 18" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
            </svg>
            <p className="preview__error-title">The image could not be loaded.</p>
            <p className="preview__error-text">
              The render service did not send an image for this value. Try again in a moment.
            </p>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={retry}
            >
              Try again
            </button>
          </div>
        )}
      </div>
      <figcaption className="preview__caption">
        {phase === 'loading' && 'Rendering the image for this value…'}
        {phase === 'error' && 'No image for this value.'}
        {outcome?.src === src &&
          outcome.phase === 'loaded' &&
          (outcome.ms === undefined
            ? 'Rendered for this value.'
            : `Rendered and delivered in ${outcome.ms} ms.`)}
      </figcaption>
    </figure>
  );
}

/** How long the browser took to fetch `src` (Resource Timing), in whole ms, if it knows. */
function loadTimeMs(src: string): number | undefined {
  const entries = performance.getEntriesByName(new URL(src, window.location.href).href, 'resource');
  const last = entries.at(-1);
  return last ? Math.round(last.duration) : undefined;
}
