import { useState } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useEditor } from '../EditorContext.tsx';
import {
  STRESS_SAMPLES,
  stressSamplePath,
  textParameterNames,
  type StressSample,
} from '../document/stress.ts';
import './stress.css';

/** One sample drawn by the render URL, with its loading and failed states. */
function SampleFigure({ sample, src }: { sample: StressSample; src: string }) {
  const [state, setState] = useState<{ src: string; status: 'loading' | 'loaded' | 'failed' }>({
    src,
    status: 'loading',
  });
  // A new saved version gives a new URL: show its loading state again.
  const status = state.src === src ? state.status : 'loading';
  return (
    <figure className="stress-sample" aria-busy={status === 'loading'}>
      <div className="stress-sample__frame">
        {status === 'loading' && (
          <span className="muted small">
            <Spinner /> Drawing…
          </span>
        )}
        {status === 'failed' && (
          <p className="stress-sample__failed small">This sample could not be drawn. Try again.</p>
        )}
        <img
          src={src}
          alt={`The design drawn with the ${sample.label} sample`}
          className="stress-sample__image"
          data-state={status}
          onLoad={() => setState({ src, status: 'loaded' })}
          onError={() => setState({ src, status: 'failed' })}
        />
      </div>
      <figcaption>
        <strong>{sample.label}</strong>
        <span className="muted small"> — {sample.description}</span>
      </figcaption>
    </figure>
  );
}

/**
 * The stress preview, "Preview sample values" on the editor bar (docs/decisions.md): the design
 * drawn by the real render URL with each sample of `document/stress.ts` in every text parameter,
 * side by side, so a user sees overflow and font fallback before an e-mail goes out. It draws the
 * saved version: while a change is still being saved it says so and waits (the render URL knows
 * only what the server has).
 */
export function StressPreview({ open, onClose }: { open: boolean; onClose: () => void }) {
  const meta = useEditor((s) => s.meta);
  const design = useEditor((s) => s.design);
  const saveStatus = useEditor((s) => s.saveStatus);
  if (!open || !meta || !design) return null;
  const names = textParameterNames(design);
  const saved = saveStatus === 'saved';
  return (
    <Modal
      open={open}
      wide
      title="Preview with sample values"
      onCancel={onClose}
      actions={
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Close
        </button>
      }
    >
      <p className="muted">
        {names.length === 0
          ? 'This design has no parameters yet: add {{name}} to a text snippet to see how values change it.'
          : `Each picture is the render URL with every parameter (${names.map((n) => `{{${n}}}`).join(', ')}) set to the sample.`}
      </p>
      {saved ? (
        <div className="stress-grid" data-testid="stress-grid">
          {STRESS_SAMPLES.map((sample) => (
            <SampleFigure
              key={sample.key}
              sample={sample}
              src={stressSamplePath(meta.publicId, meta.version, names, sample)}
            />
          ))}
        </div>
      ) : (
        <p role="status">
          {saveStatus === 'failed'
            ? 'Your latest change is not saved yet, so it cannot be drawn. Retry the save first.'
            : 'Saving your latest change first…'}
        </p>
      )}
    </Modal>
  );
}

/** The editor bar's toggle for the stress preview (docs/editor.md). */
export function StressPreviewButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--small button--secondary"
        aria-haspopup="dialog"
        aria-pressed={open}
        title="See the design with empty, very long, emoji, Arabic, Hebrew and Chinese values"
        onClick={() => setOpen(true)}
      >
        Preview sample values
      </button>
      <StressPreview open={open} onClose={() => setOpen(false)} />
    </>
  );
}
