import { useEffect, useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';

type Phase = 'loading' | 'loaded' | 'error';

/**
 * The preview (docs/export.md "The screen": "Left: preview"): the real render URL with the current
 * values. A new URL loads behind the last good image (never a broken image), with a "Rendering…"
 * pill; a failure keeps the last image, says so and offers Try again. `onLoaded` tells the screen
 * which values' image has loaded (docs/export.md "The screen": Generate waits for it).
 */
export function ExportPreview({
  src,
  alt,
  width,
  height,
  onLoaded,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Called with `src` once its image has arrived. */
  onLoaded: (src: string) => void;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; phase: Phase } | null>(null);
  const key = `${attempt}|${src}`;
  const phase: Phase = result?.key === key ? result.phase : 'loading';

  // Loads the new URL off-screen; the visible image changes only once it has arrived.
  useEffect(() => {
    let live = true;
    const probe = new Image();
    probe.onload = () => {
      if (!live) return;
      setShown(src);
      setResult({ key, phase: 'loaded' });
      onLoaded(src);
    };
    probe.onerror = () => {
      if (live) setResult({ key, phase: 'error' });
    };
    probe.src = src;
    return () => {
      live = false;
      probe.onload = null;
      probe.onerror = null;
    };
  }, [src, key, onLoaded]);
  return (
    <figure className="preview export-preview">
      <div
        className={`preview__frame preview__frame--${shown ? phase : 'loading'}`}
        style={{ aspectRatio: `${width} / ${height}` }}
        aria-busy={phase === 'loading'}
      >
        {shown && (
          <img
            className="preview__image"
            src={shown}
            alt={alt}
            width={width}
            height={height}
            data-testid="export-preview"
            data-src={shown}
          />
        )}
        {phase === 'loading' && (
          <div className="preview__overlay">
            <span className="preview__pill">
              <Spinner />
              Rendering…
            </span>
          </div>
        )}
      </div>
      <figcaption className="preview__caption" role="status">
        {phase === 'loading' && 'Rendering the preview with these values…'}
        {phase === 'loaded' && 'The preview shows these values; merge tags show the fallback.'}
        {phase === 'error' && (
          <>
            The preview could not be loaded.{' '}
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => setAttempt((n) => n + 1)}
            >
              Try again
            </button>
          </>
        )}
      </figcaption>
    </figure>
  );
}
