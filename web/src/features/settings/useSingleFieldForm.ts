import { useState, type FormEvent } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import type { FormMessage } from '../../components/ActionNotice.tsx';

/** A one-field form's values: the field's name → its text. */
type Values = Record<string, string>;

/**
 * A one-field settings form (create a team, invite, rename), from {@link useSingleFieldForm}.
 */
export interface SingleFieldForm {
  form: UseFormReturn<Values>;
  /** The field's name (the server's, so its 422 lands on it). */
  field: string;
  message: FormMessage | null;
  setMessage: (message: FormMessage | null) => void;
  pending: boolean;
  submit: (event: FormEvent) => void;
  /** The field differs from what was loaded or last saved (for `useUnsavedChangesGuard`). */
  dirty: boolean;
}

/**
 * State and submit of a one-field settings form (react-hook-form): the value is checked with
 * the route's rule for it (`schema`, from shared/contract), the call runs, a 422 goes on the
 * field (`applyServerErrors`; other messages in the notice above the form) and focus moves to
 * the field when it is refused.
 * @param options.field the field's name in the route's body.
 * @param options.schema the route's rule for the value (e.g. `RenameTeamBody.shape.name`).
 * @param options.emptyMessage said when the field is empty, before the route's rule (omit to let
 *   the rule speak).
 * @param options.resetOnSuccess clear the field after success.
 * @param options.action the call with the checked value; may return a success message.
 */
export function useSingleFieldForm(options: {
  field: string;
  schema: z.ZodType<string, string>;
  initial?: string;
  emptyMessage?: string;
  resetOnSuccess?: boolean;
  action: (value: string) => Promise<string | void>;
}): SingleFieldForm {
  const { field, emptyMessage } = options;
  const [resolver] = useState(() => {
    const rule = emptyMessage
      ? z.string().trim().min(1, emptyMessage).pipe(options.schema)
      : options.schema;
    return zodResolver(z.object({ [field]: rule }));
  });
  const form = useForm<Values>({ resolver, defaultValues: { [field]: options.initial ?? '' } });
  const { control, reset, setError } = form;
  const value = useWatch({ control, name: field }) ?? '';
  /** The value loaded or last saved (empty after a save that clears the field). */
  const [saved, setSaved] = useState((options.initial ?? '').trim());
  const [message, setMessage] = useState<FormMessage | null>(null);

  const submit = submitWith(form, async (checked) => {
    const next = checked[field] ?? '';
    try {
      const success = await options.action(next);
      setSaved(options.resetOnSuccess ? '' : next.trim());
      if (options.resetOnSuccess) reset({ [field]: '' });
      if (success) setMessage({ tone: 'success', text: success });
    } catch (error) {
      const { message: text } = applyServerErrors(setError, error, [field], { formLevel: false });
      if (text) setMessage({ tone: 'error', text });
    }
  });

  return {
    form,
    field,
    message,
    setMessage,
    pending: form.formState.isSubmitting,
    submit: (event) => {
      setMessage(null);
      submit(event);
    },
    dirty: value.trim() !== saved,
  };
}
