/**
 * Failures of settings actions that have no form (a button in a list). Forms put a failure on
 * their fields with `applyServerErrors` (web/src/lib/forms.ts).
 */
import { GENERIC_ERROR_MESSAGE, isApiError } from '../api/client.ts';

/** For a list or button after a 401 (the session-expired modal is open as well). */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Sign in again.';

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
