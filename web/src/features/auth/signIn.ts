/**
 * The sign-in form's rules, shared by the sign-in page (`pages/LoginPage.tsx`) and the
 * session-expired modal (`components/SessionExpiredModal.tsx`): what is checked before
 * `POST /login` is sent, and how a failed answer is shown (spec 001 §8: a 422's `errors` on the
 * fields, another answer's `message` in a notice).
 */
import { GENERIC_ERROR_MESSAGE, isApiError, type FieldErrors } from '../../api/client.ts';
import type { NoticeTone } from '../../components/Notice.tsx';

/** The sign-in form's fields; `code` is asked for once the server wants a second factor. */
export type SignInField = 'email' | 'password' | 'code';
const FIELDS: readonly SignInField[] = ['email', 'password', 'code'];

/** A notice above the sign-in form. */
export interface SignInNotice {
  tone: NoticeTone;
  title: string;
  text: string;
}

/**
 * Checks before sending: both fields filled, the e-mail looks like one.
 * @returns the field errors, or undefined when the form may be sent.
 */
export function validate(values: {
  email: string;
  password: string;
}): Partial<Record<SignInField, string[]>> | undefined {
  // (The authentication code is checked by the server: a 6-digit code or a reset code.)
  const errors: Partial<Record<SignInField, string[]>> = {};
  const email = values.email.trim();
  if (email === '') errors.email = ['Enter your e-mail address.'];
  else if (!/^[^\s@]+@[^\s@]+$/.test(email))
    errors.email = ['Enter an e-mail address like name@example.com.'];
  if (values.password === '') errors.password = ['Enter your password.'];
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * Turns a failed sign-in into field errors and a notice (spec 001 §8); a 501 is information,
 * not a failure. A `code` error alone means the password was right and a second factor is due.
 */
export function describeFailure(error: unknown): {
  fieldErrors: Partial<Record<SignInField, string[]>>;
  notice: SignInNotice | null;
} {
  if (!isApiError(error)) {
    console.error(error);
    return {
      fieldErrors: {},
      notice: { tone: 'error', title: 'Sign-in failed', text: GENERIC_ERROR_MESSAGE },
    };
  }
  if (error.status === 501) {
    return {
      fieldErrors: {},
      notice: { tone: 'info', title: 'Not available yet', text: error.message },
    };
  }
  const fieldErrors = pickFields(error.errors);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  const other = Object.entries(error.errors ?? {})
    .filter(([field]) => !FIELDS.includes(field as SignInField))
    .flatMap(([, messages]) => messages);
  if (hasFieldErrors && other.length === 0) {
    return {
      fieldErrors,
      notice: { tone: 'error', title: 'Please check the form', text: error.message },
    };
  }
  return {
    fieldErrors,
    notice: {
      tone: 'error',
      title: error.status === 0 ? 'No connection' : 'Sign-in failed',
      text: [error.message, ...other].join(' '),
    },
  };
}

function pickFields(errors: FieldErrors | undefined): Partial<Record<SignInField, string[]>> {
  const result: Partial<Record<SignInField, string[]>> = {};
  for (const field of FIELDS) {
    const messages = errors?.[field];
    if (messages) result[field] = messages;
  }
  return result;
}
