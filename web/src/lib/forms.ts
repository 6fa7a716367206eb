/**
 * The SPA's forms (docs/adr/0047-forms.md "Forms"): react-hook-form with zod schemas, and one way
 * to put a failed call's answer on a form (docs/accounts.md "Error answers in the SPA": a 422's
 * `errors` go on the fields, the rest in one message above the form).
 */
import type { FormEvent } from 'react';
import type {
  FieldValues,
  Path,
  SubmitHandler,
  UseFormReturn,
  UseFormSetError,
} from 'react-hook-form';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';

/** Where a form keeps the message that belongs to no field: `errors.root.server`. */
export const FORM_ERROR = 'root.server';

/** What {@link applyServerErrors} did with a failed call. */
export interface ServerErrorsOutcome<T extends FieldValues> {
  /** The form's fields that got an error, in the order of `fields`. */
  placed: Path<T>[];
  /**
   * The form-level message (set as {@link FORM_ERROR} unless `formLevel` is false): the
   * messages of fields the form does not have, else the answer's message when no field got
   * one; null when the fields say it all, or for a 401 (the session-expired modal says it).
   */
  message: string | null;
}

/**
 * Puts a failed call's answer on a react-hook-form form (docs/accounts.md "Error answers in the
 * SPA"):
 * - a 422's `errors` of the form's own `fields` go on those fields (several messages joined),
 *   and focus moves to the first of them in the order of `fields`;
 * - errors of fields the form does not have, and an answer without field errors, become one
 *   form-level message, `errors.root.server` (the answer's message, else the generic one);
 * - a 401 adds nothing: the session-expired modal opens instead;
 * - anything that is not an {@link ApiError} is logged and gets the generic message.
 *
 * @param setError the form's `setError`.
 * @param error what the call threw.
 * @param fields the form's fields, in display order (also the order focus looks in).
 * @param options `formLevel: false` leaves `errors.root.server` alone (the form shows the
 *   message its own way); `focus: false` moves no focus (the field is not on screen yet).
 * @returns what was placed, and the form-level message.
 */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
  options: { formLevel?: boolean; focus?: boolean } = {},
): ServerErrorsOutcome<T> {
  const { formLevel = true, focus = true } = options;
  const outcome = placeErrors(error, fields);
  outcome.placed.forEach((field, index) => {
    setError(
      field,
      { type: 'server', message: outcome.fieldMessages[index] },
      { shouldFocus: focus && index === 0 },
    );
  });
  if (formLevel && outcome.message !== null) {
    setError(FORM_ERROR as Path<T>, { type: 'server', message: outcome.message });
  }
  return { placed: outcome.placed, message: outcome.message };
}

/** The split {@link applyServerErrors} makes, without touching a form (unit-tested). */
export function placeErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
): { placed: F[]; fieldMessages: string[]; message: string | null } {
  if (!isApiError(error)) {
    console.error(error);
    return { placed: [], fieldMessages: [], message: GENERIC_ERROR_MESSAGE };
  }
  if (error.status === 401) return { placed: [], fieldMessages: [], message: null };
  const answer = error.errors ?? {};
  const placed = fields.filter((field) => (answer[field]?.length ?? 0) > 0);
  const others = Object.entries(answer)
    .filter(([field]) => !(fields as readonly string[]).includes(field))
    .flatMap(([, messages]) => messages);
  const message = others.length > 0 ? others.join(' ') : placed.length > 0 ? null : error.message;
  return { placed, fieldMessages: placed.map((f) => answer[f]!.join(' ')), message };
}

/**
 * The `onSubmit` of a react-hook-form form: checks the fields with the form's resolver (focus
 * goes to the first invalid one), then runs `onValid` with the checked values. A submit while
 * one is under way is ignored (the submit button says so with `aria-disabled`).
 */
export function submitWith<T extends FieldValues, C, O extends FieldValues>(
  form: Pick<UseFormReturn<T, C, O>, 'formState' | 'handleSubmit'>,
  onValid: SubmitHandler<O>,
): (event: FormEvent) => void {
  return (event) => {
    if (form.formState.isSubmitting) {
      event.preventDefault();
      return;
    }
    void form.handleSubmit(onValid)(event);
  };
}
