import { useLayoutEffect, useState, type FormEvent } from 'react';
import { formFailure } from './formFailure.ts';

/** A notice above a settings form. */
export interface FormMessage {
  tone: 'success' | 'error';
  text: string;
}

/**
 * State and submit of a one-field settings form (create a team, invite, rename): the field's
 * value and errors, the notice above the form, the pending flag, and a submit that checks the
 * field is filled, runs the call, puts a 422 on the field (spec 001 §8, via `formFailure`) and
 * moves focus to the first invalid field of the form `formId`. `dirty` tells whether the field
 * differs from what was loaded or last saved.
 * @param action the call; may return a success message to show.
 */
export function useSingleFieldForm(options: {
  formId: string;
  field: string;
  initial?: string;
  /** Shown on the field when it is empty; omit to allow an empty value. */
  emptyMessage?: string;
  /** Clear the field after success. */
  resetOnSuccess?: boolean;
  action: (value: string) => Promise<string | void>;
}) {
  const [value, setValue] = useState(options.initial ?? '');
  /** The value loaded or last saved (empty after a save that clears the field). */
  const [saved, setSaved] = useState((options.initial ?? '').trim());
  const [errors, setErrors] = useState<string[] | undefined>();
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [pending, setPending] = useState(false);
  // Bumped when a submit fails: focus moves once React has committed `aria-invalid`, which a
  // requestAnimationFrame callback could run before (or, in a background tab, much later).
  const [invalidAt, setInvalidAt] = useState(0);
  useLayoutEffect(() => {
    if (invalidAt === 0) return;
    document
      .getElementById(options.formId)
      ?.querySelector<HTMLElement>('[aria-invalid="true"]')
      ?.focus();
  }, [invalidAt, options.formId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setMessage(null);
    const trimmed = value.trim();
    if (options.emptyMessage && trimmed === '') {
      setErrors([options.emptyMessage]);
      setInvalidAt((n) => n + 1);
      return;
    }
    setErrors(undefined);
    setPending(true);
    try {
      const success = await options.action(trimmed);
      setSaved(options.resetOnSuccess ? '' : trimmed);
      if (options.resetOnSuccess) setValue('');
      if (success) setMessage({ tone: 'success', text: success });
    } catch (error) {
      const failure = formFailure(error, [options.field]);
      setErrors(failure.fields[options.field]);
      if (failure.message) setMessage({ tone: 'error', text: failure.message });
      setInvalidAt((n) => n + 1);
    } finally {
      setPending(false);
    }
  }

  /** The field differs from what was loaded or last saved (for `useUnsavedChangesGuard`). */
  const dirty = value.trim() !== saved;
  return { value, setValue, errors, message, setMessage, pending, submit, dirty };
}
