import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { api } from '../api/client.ts';
import { Notice } from '../components/Notice.tsx';
import { TextField } from '../components/TextField.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { formFailure } from '../features/settings/formFailure.ts';
import { useSingleFieldForm } from '../features/settings/useSingleFieldForm.ts';
import {
  RevokeTokensCheckbox,
  SubmitButton,
  focusFirstInvalid,
} from '../features/settings/ProfileTab.tsx';

/**
 * `/password/reset`: asks for the e-mail address and sends the reset link
 * (`POST /password/email`; issue: accounts §2 "Password reset works by e-mail link"). The answer
 * is the same whether or not an account uses the address, so the page never tells.
 */
export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const formId = useId();
  const form = useSingleFieldForm({
    formId,
    field: 'email',
    emptyMessage: 'Enter your e-mail address.',
    action: async (email) => {
      const answer = await api<{ message: string }>('POST', '/password/email', { email });
      return answer.message;
    },
  });

  return (
    <div className="container container--narrow">
      <section className="card auth-card stack" aria-labelledby={`${formId}-title`}>
        <h1 id={`${formId}-title`} className="page-title">
          Reset your password
        </h1>
        <p className="muted">
          Enter the e-mail address of your account. We will send you a link to choose a new
          password; it works for one hour.
        </p>
        <form id={formId} className="stack" noValidate onSubmit={(e) => void form.submit(e)}>
          {form.message && <Notice tone={form.message.tone}>{form.message.text}</Notice>}
          <TextField
            id={`${formId}-email`}
            label="E-mail address"
            name="email"
            type="email"
            autoComplete="email"
            value={form.value}
            errors={form.errors}
            onChange={form.setValue}
          />
          <SubmitButton
            pending={form.pending}
            label="Send the reset link"
            busyLabel="Sending…"
            className="button button--block"
          />
        </form>
        <p className="muted text-center">
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      </section>
    </div>
  );
}

type Field = 'email' | 'password' | 'password_confirmation';
const FIELDS: readonly Field[] = ['email', 'password', 'password_confirmation'];

/**
 * `/password/reset/{token}?email=…`, the link of the reset e-mail: a new password twice
 * (`POST /password/reset`), and whether to revoke the API tokens too (every session ends
 * anyway; docs/security.md "Sessions and tokens"). On success the user signs in with it; an
 * expired or used link shows the server's message with a way to ask for a new one.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const formId = useId();
  const [values, setValues] = useState({
    email: search.get('email') ?? '',
    password: '',
    password_confirmation: '',
  });
  const [revokeTokens, setRevokeTokens] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string[]>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setErrors({});
    setMessage(null);
    if (values.password.length < 8) {
      setErrors({ password: ['The password must be at least 8 characters.'] });
      focusFirstInvalid(formId);
      return;
    }
    setPending(true);
    try {
      await api('POST', '/password/reset', { token, ...values, revoke_tokens: revokeTokens });
      navigate('/login', { state: { passwordReset: true } });
    } catch (error) {
      const failure = formFailure(error, FIELDS);
      setErrors(failure.fields);
      setMessage(failure.message);
      focusFirstInvalid(formId);
    } finally {
      setPending(false);
    }
  }

  const expired = errors.email?.some((m) => /invalid or has expired/.test(m)) ?? false;

  return (
    <div className="container container--narrow">
      <section className="card auth-card stack" aria-labelledby={`${formId}-title`}>
        <h1 id={`${formId}-title`} className="page-title">
          Choose a new password
        </h1>
        <form id={formId} className="stack" noValidate onSubmit={(e) => void submit(e)}>
          {message && <Notice tone="error">{message}</Notice>}
          <TextField
            id={`${formId}-email`}
            label="E-mail address"
            name="email"
            type="email"
            autoComplete="username"
            value={values.email}
            errors={errors.email}
            onChange={(email) => setValues((v) => ({ ...v, email }))}
          />
          {expired && (
            <p>
              <Link to="/password/reset">Ask for a new reset link</Link>
            </p>
          )}
          <TextField
            id={`${formId}-password`}
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            value={values.password}
            errors={errors.password}
            onChange={(password) => setValues((v) => ({ ...v, password }))}
          />
          <TextField
            id={`${formId}-password_confirmation`}
            label="Confirm new password"
            name="password_confirmation"
            type="password"
            autoComplete="new-password"
            value={values.password_confirmation}
            errors={errors.password_confirmation}
            onChange={(password_confirmation) =>
              setValues((v) => ({ ...v, password_confirmation }))
            }
          />
          <p className="muted">Saving signs you out everywhere.</p>
          <RevokeTokensCheckbox checked={revokeTokens} onChange={setRevokeTokens} />
          <SubmitButton
            pending={pending}
            label="Save the new password"
            busyLabel="Saving…"
            className="button button--block"
          />
        </form>
      </section>
    </div>
  );
}
