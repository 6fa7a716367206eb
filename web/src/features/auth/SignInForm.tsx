import { useEffect, useState, type ReactNode } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { call } from '../../api/client.ts';
import { FormTextField } from '../../components/FormFields.tsx';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import {
  SIGN_IN_FIELDS,
  SignInSchema,
  asksForCode,
  failureNotice,
  type SignInNotice,
  type SignInValues,
} from './signIn.ts';

/** What `POST /login` answers on success (only `redirect` is read). */
export interface SignInAnswer {
  redirect?: unknown;
}

/** The sign-in form's state, from {@link useSignInForm}, for {@link SignInForm}. */
export interface SignIn {
  form: UseFormReturn<SignInValues, unknown, z.output<typeof SignInSchema>>;
  /** Set once the server asks for the second factor (two-factor authentication is on). */
  needsCode: boolean;
  notice: SignInNotice | null;
  /** The request is under way (the submit button is `aria-disabled`). */
  pending: boolean;
  onSubmit: ReturnType<typeof submitWith>;
}

/**
 * The sign-in form's state and submit: `POST /login` with `{ email, password }`, and `code`
 * once the server has asked for it. A 422's errors go on the fields (focus on the first), the
 * answer's message in the notice (docs/accounts.md "Error answers in the SPA").
 * @param options.email the address to start with (the session-expired modal's user).
 * @param options.notice a notice to show until the first submit (a password just reset).
 * @param options.onSignedIn runs after a successful answer, still counted as submitting.
 */
export function useSignInForm(options: {
  email?: string;
  notice?: SignInNotice | null;
  onSignedIn: (answer: SignInAnswer | undefined) => Promise<void>;
}): SignIn {
  const form = useForm<SignInValues, unknown, z.output<typeof SignInSchema>>({
    resolver: zodResolver(SignInSchema),
    defaultValues: { email: options.email ?? '', password: '', code: '' },
  });
  const [needsCode, setNeedsCode] = useState(false);
  const [notice, setNotice] = useState<SignInNotice | null>(options.notice ?? null);
  const { setError, setFocus } = form;

  // The code field appears after the answer that asks for it: it takes focus once it is there.
  useEffect(() => {
    if (needsCode) setFocus('code');
  }, [needsCode, setFocus]);

  const submit = submitWith(form, async (values) => {
    try {
      const answer = await call('POST /login', {
        body: {
          email: values.email,
          password: values.password,
          ...(needsCode && values.code ? { code: values.code } : {}),
        },
      });
      await options.onSignedIn(answer);
    } catch (error) {
      // The password was right and a second factor is due: the code field appears.
      const codeNow = asksForCode(error) && !needsCode;
      if (codeNow) setNeedsCode(true);
      applyServerErrors(setError, error, SIGN_IN_FIELDS, { formLevel: false, focus: !codeNow });
      setNotice(failureNotice(error));
    }
  });

  return {
    form,
    needsCode,
    notice,
    pending: form.formState.isSubmitting,
    onSubmit: (event) => {
      setNotice(null);
      submit(event);
    },
  };
}

/**
 * The sign-in form of the sign-in page and the session-expired modal: the e-mail address, the
 * password and, once asked for, the authentication code. `children` go at the form's end (the
 * page's links and submit button; the modal's button sits in its footer, `form={id}`).
 */
export function SignInForm({
  id,
  signIn,
  showPasswordToggle = false,
  children,
}: {
  /** The form's id; the fields' ids derive from it. */
  id: string;
  signIn: SignIn;
  /** Offer "Show password" (the sign-in page). */
  showPasswordToggle?: boolean;
  children?: ReactNode;
}) {
  const { control } = signIn.form;
  const [showPassword, setShowPassword] = useState(false);
  return (
    <form
      id={id}
      className="stack"
      noValidate
      onSubmit={signIn.onSubmit}
      aria-busy={signIn.pending}
    >
      <FormTextField
        control={control}
        field="email"
        id={`${id}-email`}
        label="E-mail address"
        type="email"
        autoComplete="username"
      />
      <FormTextField
        control={control}
        field="password"
        id={`${id}-password`}
        label="Password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
      />
      {signIn.needsCode && (
        <FormTextField
          control={control}
          field="code"
          id={`${id}-code`}
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or your reset code."
          autoComplete="one-time-code"
        />
      )}
      {showPasswordToggle && (
        <div className="checkbox">
          <input
            id={`${id}-show`}
            type="checkbox"
            checked={showPassword}
            onChange={(event) => setShowPassword(event.target.checked)}
          />
          <label htmlFor={`${id}-show`}>Show password</label>
        </div>
      )}
      {children}
    </form>
  );
}
