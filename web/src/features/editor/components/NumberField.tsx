import { useCallback, useId, useState } from 'react';
import { useHistoryKeys } from './useHistoryKeys.ts';

/**
 * A labelled number field bound to a stored value: what the user types is kept as typed (an
 * empty field stays empty while they type), each valid number is handed on at once, and the
 * field shows the stored value again when it loses focus or the value changes elsewhere (undo).
 * Values outside `min`–`max` are clamped by the command that takes them, and shown clamped.
 * Undo and redo keys in the field are the editor's (`useHistoryKeys`): every number field edits
 * the document, so there is one history.
 */
export function NumberField({
  label,
  value,
  min,
  max,
  step = 1,
  unit,
  hint,
  onValue,
}: {
  label: string;
  value: number;
  min?: number;
  max?: number;
  step?: number;
  /** Shown after the field ("px"). */
  unit?: string;
  /** A line under the field that describes it (what the value will do). */
  hint?: string | null;
  onValue: (value: number) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const shown = String(Math.round(value * 100) / 100);
  /** What the user is typing; null shows the stored value. */
  const [draft, setDraft] = useState<string | null>(null);
  const { attach: historyKeys, onKeyDown: onHistoryKey } = useHistoryKeys(
    useCallback(() => setDraft(null), []),
  );
  return (
    <div className="field editor-number">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <span className="editor-number__box">
        <input
          ref={historyKeys}
          id={id}
          className="input editor-number__input"
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={draft ?? shown}
          aria-describedby={hint ? hintId : undefined}
          onBlur={() => setDraft(null)}
          onKeyDown={onHistoryKey}
          onChange={(event) => {
            setDraft(event.target.value);
            const number = event.target.valueAsNumber;
            if (Number.isFinite(number)) onValue(number);
          }}
        />
        {unit && <span className="editor-number__unit muted small">{unit}</span>}
      </span>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}
