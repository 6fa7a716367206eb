import type { ComponentProps, ReactNode } from 'react';
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
 * the field touched at once (ticking it is the whole interaction). `after` goes beside the label,
 * outside it (a link there would otherwise be part of the checkbox's name and its click target).
 */
export function FormCheckbox<T extends FieldValues, C, O extends FieldValues>({
  control,
  field: fieldName,
  id,
  label,
  after,
  required = false,
}: {
  control: Control<T, C, O>;
  field: Path<T>;
  id: string;
  label: string;
  after?: ReactNode;
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
        {after}
      </div>
      {message && <FieldError id={errorId} errors={[message]} />}
    </div>
  );
}

/**
 * The form-level message of a react-hook-form form (`errors.root.server`, set by
 * `applyServerErrors` in web/src/lib/forms.ts): what belongs to no field of the form. Nothing when
 * there is none.
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

/**
 * Checkboxes bound to a react-hook-form field that holds the chosen values as an array (an API
 * token's abilities, a webhook's events): a fieldset with its legend, described by its error,
 * whose first checkbox takes focus when the choice is refused.
 * @param idBase prefix of the inputs' ids (`{idBase}-{name}-{value}`) and the error's
 * @param layout `row` side by side (short labels), `stack` one under the other
 */
export function FormCheckboxGroup<
  T extends FieldValues,
  C,
  O extends FieldValues,
  V extends string,
>({
  control,
  field: fieldName,
  idBase,
  legend,
  options,
  label = (option) => option.text,
  layout = 'row',
}: {
  control: Control<T, C, O>;
  field: Path<T>;
  idBase: string;
  legend: string;
  options: ReadonlyArray<{ value: V; text: string }>;
  label?: (option: { value: V; text: string }) => ReactNode;
  layout?: 'row' | 'stack';
}) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState: { error },
  } = useController<T, Path<T>, O>({ control, name: fieldName });
  const chosen = (value ?? []) as V[];
  const errorId = `${idBase}-${fieldName}-error`;
  return (
    <fieldset className="fieldset" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">{legend}</legend>
      <div className={layout === 'row' ? 'checkbox-row' : 'stack'}>
        {options.map((option, index) => (
          <div className="checkbox" key={option.value}>
            <input
              ref={index === 0 ? ref : undefined}
              id={`${idBase}-${fieldName}-${option.value}`}
              type="checkbox"
              name={fieldName}
              value={option.value}
              checked={chosen.includes(option.value)}
              aria-invalid={error ? true : undefined}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, option.value]
                    : chosen.filter((v) => v !== option.value),
                )
              }
              onBlur={onBlur}
            />
            <label htmlFor={`${idBase}-${fieldName}-${option.value}`}>{label(option)}</label>
          </div>
        ))}
      </div>
      {error?.message && <FieldError id={errorId} errors={[error.message]} />}
    </fieldset>
  );
}
