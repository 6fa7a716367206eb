import { FormTextField } from '../../components/FormFields.tsx';
import { Notice } from '../../components/Notice.tsx';
import { SubmitButton } from './ProfileTab.tsx';
import type { SingleFieldForm } from './useSingleFieldForm.ts';

/**
 * The company-name form of the settings (create a company, rename one): a section titled
 * `title` with the form's notice, the "Company name" field (`team_name`, checked with the
 * route's rule, docs/accounts.md "Validation rules") and the submit button.
 */
export function CompanyNameForm({
  formId,
  title,
  form,
  submitLabel,
  busyLabel,
}: {
  formId: string;
  title: string;
  form: SingleFieldForm;
  submitLabel: string;
  busyLabel: string;
}) {
  return (
    <section className="settings-section" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="card__title">
        {title}
      </h2>
      <form id={formId} className="stack" noValidate onSubmit={form.submit}>
        {form.message && <Notice tone={form.message.tone}>{form.message.text}</Notice>}
        <FormTextField
          control={form.form.control}
          field={form.field}
          id={`${formId}-name`}
          label="Company name"
          name="team_name"
          autoComplete="organization"
          autoCapitalize="words"
        />
        <SubmitButton pending={form.pending} label={submitLabel} busyLabel={busyLabel} />
      </form>
    </section>
  );
}
