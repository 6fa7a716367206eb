import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  PasswordEmailBody,
  REGISTRATION_MESSAGES,
  passwordResetBody,
} from '#shared/contract/auth.ts';
import { call } from '../api/client.ts';
import { FormMessage, FormTextField } from '../components/FormFields.tsx';
import { Notice } from '../components/Notice.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { applyServerErrors, submitWith } from '../lib/forms.ts';
import { useSingleFieldForm } from '../features/settings/useSingleFieldForm.ts';
import { RevokeTokensCheckbox, SubmitButton } from '../features/settings/ProfileTab.tsx';

/**
 * `/password/reset`: asks for the e-mail address and sends the reset link (`POST /password/email`;
 * docs/security.md "Account existence"). The answer is the same whether or not an account uses the
 * address, so the page never tells.
 */
export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const formId = useId();
  const form = useSingleFieldForm({
    field: 'email',
    schema: PasswordEmailBody.shape.email,
    emptyMessage: 'Enter your e-mail address.',
    action: async (email) => {
      const answer = await call('POST /password/email', { body: { email } });
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
        <form id={formId} className="stack" noValidate onSubmit={form.submit}>
          {form.message && <Notice tone={form.message.tone}>{form.message.text}</Notice>}
          <FormTextField
            control={form.form.control}
            field={form.field}
            id={`${formId}-email`}
            label="E-mail address"
            type="email"
            autoComplete="email"
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

const RESET_FIELDS = ['email', 'password', 'password_confirmation'] as const;
const server = passwordResetBody().shape;

/**
 * The reset form's rules: the route's (without the token, which comes from the link, and the
 * server's common-password list), and the confirmation matching the password.
 */
const ResetSchema = z
  .object({
    email: server.email,
    password: server.password,
    password_confirmation: z.string(),
    revoke_tokens: z.boolean(),
  })
  .refine((values) => values.password_confirmation === values.password, {
    path: ['password_confirmation'],
    message: REGISTRATION_MESSAGES.confirmation,
    when: () => true,
  });
type ResetValues = z.input<typeof ResetSchema>;

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
  const form = useForm<ResetValues, unknown, z.output<typeof ResetSchema>>({
    resolver: zodResolver(ResetSchema),
    defaultValues: {
      email: search.get('email') ?? '',
      password: '',
      password_confirmation: '',
      revoke_tokens: false,
    },
  });
  const { control, setError, setValue, formState } = form;
  const revokeTokens = useWatch({ control, name: 'revoke_tokens' });

  const submit = submitWith(form, async (values) => {
    try {
      await call('POST /password/reset', { body: { token, ...values } });
      navigate('/login', { state: { passwordReset: true } });
    } catch (error) {
      applyServerErrors(setError, error, RESET_FIELDS);
    }
  });

  const expired = /invalid or has expired/.test(formState.errors.email?.message ?? '');

  return (
    <div className="container container--narrow">
      <section className="card auth-card stack" aria-labelledby={`${formId}-title`}>
        <h1 id={`${formId}-title`} className="page-title">
          Choose a new password
        </h1>
        <form id={formId} className="stack" noValidate onSubmit={submit}>
          <FormMessage control={control} />
          <FormTextField
            control={control}
            field="email"
            id={`${formId}-email`}
            label="E-mail address"
            type="email"
            autoComplete="username"
          />
          {expired && (
            <p>
              <Link to="/password/reset">Ask for a new reset link</Link>
            </p>
          )}
          <FormTextField
            control={control}
            field="password"
            id={`${formId}-password`}
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
          />
          <FormTextField
            control={control}
            field="password_confirmation"
            id={`${formId}-password_confirmation`}
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
          />
          <p className="muted">Saving signs you out everywhere.</p>
          <RevokeTokensCheckbox
            checked={revokeTokens}
            onChange={(checked) => setValue('revoke_tokens', checked)}
          />
          <SubmitButton
            pending={formState.isSubmitting}
            label="Save the new password"
            busyLabel="Saving…"
            className="button button--block"
          />
        </form>
      </section>
    </div>
  );
}
