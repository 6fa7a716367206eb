/**
 * A field's error under it, announced at once: the "!" carries it as well as the colour. The
 * field points at it with `aria-describedby={errorIdOf(id)}` while `message` is set.
 */
export function FieldError({ fieldId, message }: { fieldId: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={errorIdOf(fieldId)} className="field__error" role="alert">
      <span aria-hidden="true">! </span>
      {message}
    </p>
  );
}

/** The id of a field's error paragraph. */
export const errorIdOf = (fieldId: string): string => `${fieldId}-error`;
