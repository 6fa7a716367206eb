import { GENERIC_ERROR_MESSAGE, isApiError } from '../../api/client.ts';

/** For a list or button after a 401 (the session-expired modal is open as well). */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Sign in again.';

/** A failed settings call, split for a form (spec 001 §8). */
export interface FormFailure<F extends string> {
  /** Messages for the form's own fields. */
  fields: Partial<Record<F, string[]>>;
  /** What to show above the form: the answer's message and errors for other fields. */
  message: string | null;
}

/**
 * Spec 001 §8: a 422's `errors` go on the form's fields; errors for fields the form does not
 * have, and answers without field errors, become one message (the answer's, else the generic
 * one). When every error found a field, no message is shown (the fields say it all); nor for
 * a 401, which opens the session-expired modal instead.
 */
export function formFailure<F extends string>(
  error: unknown,
  fields: readonly F[],
): FormFailure<F> {
  if (!isApiError(error)) {
    console.error(error);
    return { fields: {}, message: GENERIC_ERROR_MESSAGE };
  }
  // The session-expired modal says it (spec 001 §8); the form adds nothing.
  if (error.status === 401) return { fields: {}, message: null };
  const result: Partial<Record<F, string[]>> = {};
  const others: string[] = [];
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    if ((fields as readonly string[]).includes(field)) result[field as F] = messages;
    else others.push(...messages);
  }
  const placed = Object.keys(result).length > 0;
  if (placed && others.length === 0) return { fields: result, message: null };
  return { fields: result, message: placed ? others.join(' ') : error.message };
}

/** The message for a failed action that has no form (a button in a list). */
export function actionFailure(error: unknown): string {
  if (!isApiError(error)) {
    console.error(error);
    return GENERIC_ERROR_MESSAGE;
  }
  if (error.status === 401) return SESSION_EXPIRED_MESSAGE;
  const first = Object.values(error.errors ?? {}).flat()[0];
  return first ?? error.message;
}
