import { useId, useState } from 'react';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { renderPath } from '#shared/render-url.ts';
import { DEMO_DESIGN, MAX_PARAMETER_LENGTH } from '../../lib/renderUrl.ts';
import { CopyField } from '../../components/CopyField.tsx';
import { RenderPreview } from './RenderPreview.tsx';

/** Wait after the last keystroke before asking for a new render, in ms. */
const DEBOUNCE_MS = 300;

/**
 * The live render playground: type a first name, see the demo design rendered for it by the
 * real render route, and copy the render URL that produced it.
 */
export function RenderPlayground() {
  const inputId = useId();
  const hintId = useId();
  const [firstName, setFirstName] = useState('Ana');
  const debouncedName = useDebouncedValue(firstName, DEBOUNCE_MS);

  const path = renderPath(DEMO_DESIGN.publicId, { first_name: debouncedName });
  const fullUrl = new URL(path, window.location.origin).href;
  const alt =
    debouncedName.trim() === ''
      ? 'Personalised image with the fallback name'
      : `Personalised image for ${debouncedName}`;

  return (
    <section className="card playground" aria-labelledby={`${inputId}-title`}>
      <div className="playground__controls">
        <h2 id={`${inputId}-title`} className="card__title">
          Try a render URL
        </h2>
        <p className="muted">
          This demo design says <q>Hello {'{{first_name}}'}!</q> on a photo. Change the name and the
          render service draws a new image.
        </p>
        <div className="field">
          <label htmlFor={inputId} className="field__label">
            First name
          </label>
          <input
            id={inputId}
            className="input"
            type="text"
            value={firstName}
            maxLength={MAX_PARAMETER_LENGTH}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={hintId}
            data-testid="first-name"
            onChange={(event) => setFirstName(event.target.value)}
          />
          <p id={hintId} className="field__hint">
            Leave it empty to see what a recipient without a first name gets.
          </p>
        </div>
        <CopyField label="Render URL" value={fullUrl} testId="render-url" />
      </div>
      <div className="playground__preview">
        <RenderPreview src={path} alt={alt} width={DEMO_DESIGN.width} height={DEMO_DESIGN.height} />
      </div>
    </section>
  );
}
