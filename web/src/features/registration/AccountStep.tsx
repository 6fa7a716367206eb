import { useId, useState, type FormEvent } from 'react';
import { FormCheckbox, FormTextField } from '../../components/FormFields.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { MAX_LENGTH, type AccountField } from './account.ts';
import type { AccountFormState } from './useAccountForm.ts';

/** The terms of service page (docs/accounts.md "Terms of service"), a route of the SPA. */
const TERMS_PATH = '/terms';
/** The marketing consent's label (docs/accounts.md "Marketing hook"). */
const MARKETING_CONSENT_LABEL = 'Send me product news and offers by e-mail';

/** The element id of each step-0 control, so the page can move focus to a field. */
export type AccountFieldIds = Record<AccountField, string>;

/**
 * Registration step 0: name, e-mail, company, short team name (the team slug), password twice and the terms
 * (docs/accounts.md "Validation rules"), bound to the page's account form (`useAccountForm`): each
 * field shows its error once it has been left, every field once the user asks to continue, and the
 * server's answers on the same fields.
 */
export function AccountStep({
  ids,
  headingId,
  account,
  pending,
  onSubmit,
}: {
  ids: AccountFieldIds;
  headingId: string;
  account: AccountFormState;
  pending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const showId = useId();
  const [showPasswords, setShowPasswords] = useState(false);
  const passwordType = showPasswords ? 'text' : 'password';
  const { control } = account.form;
  const { rules } = account;

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-busy={pending}>
      <h2 id={headingId} tabIndex={-1} className="card__title">
        Your account
      </h2>
      <FormTextField
        control={control}
        field="name"
        id={ids.name}
        label="Name"
        autoComplete="name"
        autoCapitalize="words"
        maxLength={MAX_LENGTH.text}
      />
      <FormTextField
        control={control}
        field="email"
        id={ids.email}
        label="E-mail address"
        type="email"
        autoComplete="email"
        maxLength={MAX_LENGTH.text}
        rules={rules.email}
      />
      <FormTextField
        control={control}
        field="team"
        id={ids.team}
        label="Company name"
        autoComplete="organization"
        autoCapitalize="words"
        spellCheck
        maxLength={MAX_LENGTH.text}
        hint="Your team in PicSnippets. You can invite colleagues to it later."
        rules={rules.team}
      />
      <FormTextField
        control={control}
        field="team_slug"
        id={ids.team_slug}
        label="Short team name"
        autoComplete="off"
        required={false}
        maxLength={MAX_LENGTH.text}
        hint="Lowercase words joined by dashes, such as harbour-studio. It follows the company name until you change it."
        rules={rules.team_slug}
      />
      <FormTextField
        control={control}
        field="password"
        id={ids.password}
        label="Password"
        type={passwordType}
        autoComplete="new-password"
        hint="At least 8 characters."
        rules={rules.password}
      />
      <FormTextField
        control={control}
        field="password_confirmation"
        id={ids.password_confirmation}
        label="Confirm password"
        type={passwordType}
        autoComplete="new-password"
      />
      <div className="checkbox">
        <input
          id={showId}
          type="checkbox"
          checked={showPasswords}
          onChange={(event) => setShowPasswords(event.target.checked)}
        />
        <label htmlFor={showId}>Show passwords</label>
      </div>
      <FormCheckbox
        control={control}
        field="terms"
        id={ids.terms}
        label="I accept the terms of service"
        after={
          // docs/accounts.md "Terms of service": a new tab keeps what was typed here.
          <a href={TERMS_PATH} target="_blank" rel="noopener">
            Read the terms (opens in a new tab)
          </a>
        }
        required
      />
      <FormCheckbox
        control={control}
        field="marketing_consent"
        id={ids.marketing_consent}
        label={MARKETING_CONSENT_LABEL}
      />
      <button type="submit" className="button button--block" aria-disabled={pending}>
        {pending ? (
          <>
            <Spinner /> Checking…
          </>
        ) : (
          'Continue'
        )}
      </button>
    </form>
  );
}
