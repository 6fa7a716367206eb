import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { DEFAULT_RENDER_QUALITY, type RenderQuality } from '#shared/design.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { FieldError, errorIdOf } from '../components/FieldError.tsx';
import { useHistoryKeys } from '../components/useHistoryKeys.ts';
import {
  QUALITY_MAX,
  QUALITY_MIN,
  isDefaultQuality,
  qualityOf,
  readQuality,
  sizeHint,
} from './quality.ts';
import './output.css';

/** Quality changes closer than the history's merge window are one undo step (a slider drag). */
const QUALITY_MERGE_KEY = 'output-quality';

/**
 * The design's "Output quality" settings in the editor toolbar (docs/editor.md "Output
 * quality"): a disclosure holding the JPEG quality (slider and number, 1–100), progressive,
 * "sharper small text" (4:4:4 colour), the estimated file size next to the default's and a
 * Reset. Each change is an undoable document change saved by the full save. A typed quality
 * is taken when the field is left or Enter is pressed; outside the bounds it shows a field error
 * and changes nothing. Escape closes the panel.
 */
export function OutputQuality() {
  const { store } = useEditorContext();
  const stored = useEditor((s) => s.design?.quality);
  const png = useEditor((s) => s.design?.render_format === 'png');
  const quality = qualityOf(stored);
  const id = useId();
  /** What the user is typing in the number field; null shows the stored value. */
  const [draft, setDraft] = useState<string | null>(null);
  /** The number field's error, set when a typed value is committed (blur, Enter). */
  const [error, setError] = useState<string | null>(null);
  const forget = useCallback(() => {
    setDraft(null);
    setError(null);
  }, [setDraft, setError]);
  const { attach: historyKeys, onKeyDown: onHistoryKey } = useHistoryKeys(forget);

  const change = (label: string, next: Partial<RenderQuality>, mergeKey: string | null = null) =>
    store.getState().applyChange({ eventType: 'image.event', label, mergeKey }, (draftDoc) => {
      draftDoc.quality = { ...qualityOf(draftDoc.quality), ...next };
    });

  /** Saves the typed quality, or shows why it cannot be (the document keeps its value). */
  function commitTyped() {
    if (draft === null) return;
    const read = readQuality(draft);
    if ('error' in read) {
      setError(read.error);
      return;
    }
    forget();
    change('Change output quality', { quality: read.value }, QUALITY_MERGE_KEY);
  }

  const disclosure = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = disclosure.current;
    if (!details) return;
    // Escape closes the panel and gives the focus back to its button.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !details.open) return;
      event.stopPropagation();
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    // The panel opens under its button, towards the side with room for it.
    const onToggle = () => {
      if (!details.open) return;
      const panel = details.querySelector<HTMLElement>('.output-quality__panel');
      const room = window.innerWidth - details.getBoundingClientRect().left;
      details.dataset.align = panel && panel.offsetWidth > room ? 'right' : 'left';
    };
    details.addEventListener('keydown', onKey);
    details.addEventListener('toggle', onToggle);
    return () => {
      details.removeEventListener('keydown', onKey);
      details.removeEventListener('toggle', onToggle);
    };
  }, []);
  const numberId = `${id}-quality`;
  const hintId = `${id}-hint`;
  return (
    <details ref={disclosure} className="output-quality" data-align="left">
      <summary className="button button--small button--secondary output-quality__summary">
        Output quality
        <span className="visually-hidden">:</span>{' '}
        <span className="muted small" data-testid="output-quality-summary">
          JPEG {quality.quality}
          {quality.progressive ? ', progressive' : ''}
          {quality.chromaSubsampling === '4:4:4' ? ', 4:4:4' : ''}
        </span>
      </summary>
      <div className="output-quality__panel card stack">
        <fieldset className="fieldset stack" aria-describedby={hintId}>
          <legend className="field__label">JPEG output of the render URL</legend>
          <div className="field">
            <label htmlFor={numberId} className="field__label">
              JPEG quality ({QUALITY_MIN}–{QUALITY_MAX})
            </label>
            <div className="output-quality__row">
              <input
                type="range"
                className="output-quality__slider"
                min={QUALITY_MIN}
                max={QUALITY_MAX}
                step={1}
                value={quality.quality}
                aria-label="JPEG quality slider"
                onChange={(event) => {
                  forget();
                  change(
                    'Change output quality',
                    { quality: event.target.valueAsNumber },
                    QUALITY_MERGE_KEY,
                  );
                }}
              />
              <input
                ref={historyKeys}
                id={numberId}
                className="input output-quality__number"
                type="number"
                inputMode="numeric"
                min={QUALITY_MIN}
                max={QUALITY_MAX}
                step={1}
                value={draft ?? String(quality.quality)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorIdOf(numberId) : undefined}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') commitTyped();
                  else onHistoryKey(event);
                }}
                onBlur={commitTyped}
                onChange={(event) => {
                  setDraft(event.target.value);
                  setError(null);
                }}
              />
            </div>
            <FieldError fieldId={numberId} message={error} />
          </div>
          <div className="output-quality__option">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={quality.progressive}
                aria-describedby={`${id}-progressive-hint`}
                onChange={(event) =>
                  change(event.target.checked ? 'Progressive JPEG on' : 'Progressive JPEG off', {
                    progressive: event.target.checked,
                  })
                }
              />
              Progressive
            </label>
            <p id={`${id}-progressive-hint`} className="field__hint">
              Shows a rough image at once, then sharpens; about the same size.
            </p>
          </div>
          <div className="output-quality__option">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={quality.chromaSubsampling === '4:4:4'}
                aria-describedby={`${id}-sharper-hint`}
                onChange={(event) =>
                  change(
                    event.target.checked ? 'Sharper small text on' : 'Sharper small text off',
                    {
                      chromaSubsampling: event.target.checked ? '4:4:4' : '4:2:0',
                    },
                  )
                }
              />
              Sharper small text (4:4:4 colour)
            </label>
            <p id={`${id}-sharper-hint`} className="field__hint">
              Keeps colour at full resolution, so small coloured text stays crisp; about a third
              larger.
            </p>
          </div>
          <div id={hintId} className="field__hint stack">
            <p aria-live="polite" data-testid="output-quality-size">
              {sizeHint(quality)}
            </p>
            <p>
              Higher quality and sharper small text make larger files, which load slower in e-mail.
              Default: {DEFAULT_RENDER_QUALITY.quality}, not progressive, 4:2:0.
              {png &&
                ' This design’s URL without an extension is a PNG, which ignores these; .jpg URLs and PDFs use them.'}
            </p>
          </div>
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={isDefaultQuality(quality)}
            onClick={() => {
              forget();
              change('Reset output quality', { ...DEFAULT_RENDER_QUALITY });
            }}
          >
            Reset to default
          </button>
        </fieldset>
      </div>
    </details>
  );
}
