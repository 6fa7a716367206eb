import type { ComponentProps } from 'react';
import {
  useController,
  useFormState,
  type Control,
  type FieldValues,
  type Path,
  type UseControllerProps,
} from 'react-hook-form';
import { afterPress } from '../lib/afterPress.ts';
import { Notice, type NoticeTone } from './Notice.tsx';
import { FieldError, TextField } from './TextField.tsx';

type TextFieldProps = ComponentProps<typeof TextField>;

/**
 * A {@link TextField} bound to a react-hook-form field: its value, its error (from the schema
 * or the server, `aria-invalid` and described by it), and its input as the field's ref, so the
 * form can move focus to it. `field` is the form's field name; `name` (the input's name) is the
 * field name unless given.
 *
 * The blur that marks the field touched waits for a press under way (`afterPress`): in forms
 * that check a field when it is left, an error appearing on blur would otherwise move the
 * button being clicked away before it is released.
 */
export function FormTextField<T extends FieldValues, C, O extends FieldValues>({
  control,
  field: fieldName,
  name,
  rules,
  ...props
}: {
  control: Control<T, C, O>;
  field: Path<T>;
  name?: string;
  /** Side effects of a change or blur (react-hook-form's `onChange`/`onBlur` rules). */
  rules?: Pick<NonNullable<UseControllerProps<T, Path<T>, O>['rules']>, 'onChange' | 'onBlur'>;
} & Omit<TextFieldProps, 'value' | 'errors' | 'onChange' | 'onBlur' | 'inputRef' | 'name'>) {
  const { field, fieldState } = useController<T, Path<T>, O>({
    control,
    name: fieldName,
    rules,
  });
  const message = fieldState.error?.message;
  return (
    <TextField
      {...props}
      name={name ?? fieldName}
      inputRef={field.ref}
      value={(field.value as string | undefined) ?? ''}
      errors={message ? [message] : undefined}
      onChange={field.onChange}
      onBlur={() => afterPress(field.onBlur)}
    />
  );
}

/**
 * A checkbox bound to a react-hook-form boolean field, with its error below it. A change marks
 * the field touched at once (ticking it is the whole interaction).
 */
export function FormCheckbox<T extends FieldValues, C, O extends FieldValues>({
  control,
  field: fieldName,
  id,
  label,
  required = false,
}: {
  control: Control<T, C, O>;
  field: Path<T>;
  id: string;
  label: string;
  required?: boolean;
}) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController<T, Path<T>, O>({ control, name: fieldName });
  const message = fieldState.error?.message;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <div className="checkbox">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          name={fieldName}
          required={required}
          checked={value === true}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          onChange={(event) => {
            onChange(event.target.checked);
            onBlur();
          }}
          onBlur={onBlur}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {message && <FieldError id={errorId} errors={[message]} />}
    </div>
  );
}

/**
 * The form-level message of a react-hook-form form (`errors.root.server`, set by
 * `applyServerErrors` in web/src/lib/forms.ts): what belongs to no field of the form. Nothing when there is none.
 */
export function FormMessage<T extends FieldValues, C, O extends FieldValues>({
  control,
  title,
  tone = 'error',
}: {
  control: Control<T, C, O>;
  title?: string;
  tone?: NoticeTone;
}) {
  const { errors } = useFormState<T, O>({ control });
  const message = errors.root?.server?.message;
  if (!message) return null;
  return (
    <Notice tone={tone} title={title}>
      {message}
    </Notice>
  );
}
