import { Notice } from '../../components/Notice.tsx';
import { TextField } from '../../components/TextField.tsx';
import { SubmitButton } from './ProfileTab.tsx';
import type { useSingleFieldForm } from './useSingleFieldForm.ts';

/**
 * The company-name form of the settings (create a company, rename one): a section titled
 * `title` with the form's notice, the "Company name" field (`team_name`, spec 001 §5 rules
 * checked by the server) and the submit button. `formId` is the id `useSingleFieldForm` was
 * given, so its errors take focus.
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
  form: ReturnType<typeof useSingleFieldForm>;
  submitLabel: string;
  busyLabel: string;
}) {
  return (
    <section className="settings-section" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="card__title">
        {title}
      </h2>
      <form id={formId} className="stack" noValidate onSubmit={(e) => void form.submit(e)}>
        {form.message && <Notice tone={form.message.tone}>{form.message.text}</Notice>}
        <TextField
          id={`${formId}-name`}
          label="Company name"
          name="team_name"
          autoComplete="organization"
          autoCapitalize="words"
          value={form.value}
          errors={form.errors}
          onChange={form.setValue}
        />
        <SubmitButton pending={form.pending} label={submitLabel} busyLabel={busyLabel} />
      </form>
    </section>
  );
}
