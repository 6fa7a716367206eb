import { useId, useState, type FormEvent } from 'react';
import { FieldError, TextField } from '../../components/TextField.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { MAX_LENGTH, type AccountField, type AccountValues } from './account.ts';

/** The element id of each step-0 control, so the page can move focus to a field. */
export type AccountFieldIds = Record<AccountField, string>;

/**
 * Registration step 0: name, e-mail, company, team slug, password twice and the terms
 * (spec 001 §3). Shows the errors it is given; the page decides which ones (touched fields,
 * server answers).
 */
export function AccountStep({
  ids,
  headingId,
  values,
  errors,
  pending,
  onChange,
  onBlur,
  onSubmit,
}: {
  ids: AccountFieldIds;
  headingId: string;
  values: AccountValues;
  errors: Partial<Record<AccountField, readonly string[]>>;
  pending: boolean;
  onChange: <F extends AccountField>(field: F, value: AccountValues[F]) => void;
  onBlur: (field: AccountField) => void;
  onSubmit: () => void;
}) {
  const showId = useId();
  const [showPasswords, setShowPasswords] = useState(false);
  const passwordType = showPasswords ? 'text' : 'password';
  const termsError = errors.terms;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
  }

  return (
    <form className="stack" noValidate onSubmit={submit} aria-busy={pending}>
      <h2 id={headingId} tabIndex={-1} className="card__title">
        Your account
      </h2>
      <TextField
        id={ids.name}
        label="Name"
        name="name"
        autoComplete="name"
        autoCapitalize="words"
        maxLength={MAX_LENGTH.text}
        value={values.name}
        errors={errors.name}
        onChange={(v) => onChange('name', v)}
        onBlur={() => onBlur('name')}
      />
      <TextField
        id={ids.email}
        label="E-mail address"
        name="email"
        type="email"
        autoComplete="email"
        maxLength={MAX_LENGTH.text}
        value={values.email}
        errors={errors.email}
        onChange={(v) => onChange('email', v)}
        onBlur={() => onBlur('email')}
      />
      <TextField
        id={ids.team}
        label="Company name"
        name="team"
        autoComplete="organization"
        autoCapitalize="words"
        spellCheck
        maxLength={MAX_LENGTH.text}
        hint="Your team in PicSnippets. You can invite colleagues to it later."
        value={values.team}
        errors={errors.team}
        onChange={(v) => onChange('team', v)}
        onBlur={() => onBlur('team')}
      />
      <TextField
        id={ids.team_slug}
        label="Team slug"
        name="team_slug"
        autoComplete="off"
        required={false}
        maxLength={MAX_LENGTH.text}
        hint="A short name for your team in addresses: lowercase words joined by dashes. It follows the company name until you change it."
        value={values.team_slug}
        errors={errors.team_slug}
        onChange={(v) => onChange('team_slug', v)}
        onBlur={() => onBlur('team_slug')}
      />
      <TextField
        id={ids.password}
        label="Password"
        name="password"
        type={passwordType}
        autoComplete="new-password"
        hint="At least 8 characters."
        value={values.password}
        errors={errors.password}
        onChange={(v) => onChange('password', v)}
        onBlur={() => onBlur('password')}
      />
      <TextField
        id={ids.password_confirmation}
        label="Confirm password"
        name="password_confirmation"
        type={passwordType}
        autoComplete="new-password"
        value={values.password_confirmation}
        errors={errors.password_confirmation}
        onChange={(v) => onChange('password_confirmation', v)}
        onBlur={() => onBlur('password_confirmation')}
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
      <div className="field">
        <div className="checkbox">
          <input
            id={ids.terms}
            type="checkbox"
            name="terms"
            required
            checked={values.terms}
            aria-invalid={termsError ? true : undefined}
            aria-describedby={termsError ? `${ids.terms}-error` : undefined}
            onChange={(event) => onChange('terms', event.target.checked)}
            onBlur={() => onBlur('terms')}
          />
          {/* TODO: link the terms of service once the page exists. */}
          <label htmlFor={ids.terms}>I accept the terms of service</label>
        </div>
        {termsError && <FieldError id={`${ids.terms}-error`} errors={termsError} />}
      </div>
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
