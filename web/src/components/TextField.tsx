import type { HTMLAttributes, Ref } from 'react';

/**
 * A labelled text input with an optional hint and its errors. When there are errors the input
 * is `aria-invalid` and described by them (after the hint), so a screen reader reads the
 * problem with the field. The error text carries a "!" as well as the colour.
 *
 * `id` must be unique on the page (use `useId()`); the hint and error ids derive from it.
 */
export function TextField({
  id,
  inputRef,
  label,
  name,
  type = 'text',
  autoComplete,
  autoCapitalize = 'none',
  spellCheck = false,
  required = true,
  maxLength,
  hint,
  value,
  errors,
  onChange,
  onBlur,
}: {
  id: string;
  inputRef?: Ref<HTMLInputElement>;
  label: string;
  name: string;
  type?: 'email' | 'password' | 'text';
  autoComplete: string;
  autoCapitalize?: HTMLAttributes<HTMLInputElement>['autoCapitalize'];
  spellCheck?: boolean;
  required?: boolean;
  maxLength?: number;
  hint?: string;
  value: string;
  errors: readonly string[] | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = errors !== undefined && errors.length > 0;
  const describedBy = [hint ? hintId : '', invalid ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
        {!required && <span className="field__optional"> (optional)</span>}
      </label>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <input
        ref={inputRef}
        id={id}
        className="input"
        name={name}
        type={type}
        autoComplete={autoComplete}
        spellCheck={spellCheck}
        autoCapitalize={autoCapitalize}
        required={required}
        maxLength={maxLength}
        value={value}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      {invalid && <FieldError id={errorId} errors={errors} />}
    </div>
  );
}

/** A field's error text; `id` is what the field's `aria-describedby` points at. */
export function FieldError({ id, errors }: { id: string; errors: readonly string[] }) {
  return (
    <p id={id} className="field__error">
      <span aria-hidden="true">! </span>
      {errors.join(' ')}
    </p>
  );
}
