/**
 * The sign-in form's rules, shared by the sign-in page (`pages/LoginPage.tsx`) and the
 * session-expired modal (`components/SessionExpiredModal.tsx`) through `SignInForm.tsx`: what is
 * checked before `POST /login` is sent (the contract's `LoginBody`), and how a failed answer is
 * shown (docs/accounts.md "Error answers in the SPA": a 422's `errors` on the fields, another
 * answer's `message` in a notice).
 */
import { z } from 'zod';
import { LoginBody } from '#shared/contract/auth.ts';
import { GENERIC_ERROR_MESSAGE, isApiError } from '../../api/client.ts';
import type { NoticeTone } from '../../components/Notice.tsx';

/** The sign-in form's fields; `code` is asked for once the server wants a second factor. */
export const SIGN_IN_FIELDS = ['email', 'password', 'code'] as const;
export type SignInField = (typeof SIGN_IN_FIELDS)[number];

/** What the sign-in form holds. */
export type SignInValues = Record<SignInField, string>;

/**
 * The server's `POST /login` rules (shared/contract/auth.ts `LoginBody`), with a client-only
 * first step: an empty field says what to enter. The authentication code is checked by the
 * server (a 6-digit code or a reset code).
 */
export const SignInSchema = z.object({
  email: z.string().trim().min(1, 'Enter your e-mail address.').pipe(LoginBody.shape.email),
  password: z.string().min(1, 'Enter your password.').pipe(LoginBody.shape.password),
  code: z.string().trim().pipe(LoginBody.shape.code.unwrap()),
});

/** A notice above the sign-in form. */
export interface SignInNotice {
  tone: NoticeTone;
  title: string;
  text: string;
}

/**
 * The notice for a failed sign-in (docs/accounts.md "Error answers in the SPA"); a 501 is
 * information, not a failure. The field errors themselves go on the fields (`applyServerErrors`).
 */
export function failureNotice(error: unknown): SignInNotice {
  if (!isApiError(error)) {
    return { tone: 'error', title: 'Sign-in failed', text: GENERIC_ERROR_MESSAGE };
  }
  if (error.status === 501) {
    return { tone: 'info', title: 'Not available yet', text: error.message };
  }
  const fields = Object.keys(error.errors ?? {});
  const other = Object.entries(error.errors ?? {})
    .filter(([field]) => !(SIGN_IN_FIELDS as readonly string[]).includes(field))
    .flatMap(([, messages]) => messages);
  if (fields.length > 0 && other.length === 0) {
    return { tone: 'error', title: 'Please check the form', text: error.message };
  }
  return {
    tone: 'error',
    title: error.status === 0 ? 'No connection' : 'Sign-in failed',
    text: [error.message, ...other].join(' '),
  };
}

/**
 * True when the answer asks for the second factor: the password was right and only the code
 * has an error.
 */
export function asksForCode(error: unknown): boolean {
  const errors = isApiError(error) ? error.errors : undefined;
  return errors?.code !== undefined && !errors.email && !errors.password;
}
