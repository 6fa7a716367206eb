import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { KioskTeamProfile } from '#shared/contract/kiosk-users.ts';
import { FormCheckbox, FormMessage, FormTextField } from '../../../components/FormFields.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { applyServerErrors, submitWith } from '../../../lib/forms.ts';
import { kioskKeys, savePermissions } from '../users/api.ts';

type Values = { additional_picsnippets: string; limited_permission: boolean; frozen: boolean };

const FIELDS = ['additional_picsnippets', 'limited_permission', 'frozen'] as const;

/**
 * A team's additional permissions (docs/kiosk.md; docs/adr/0049-additional-permissions.md
 * "Additional permissions"): extra active designs beyond the plan's limit, limited permission (only
 * the owner and team admins archive or activate designs) and the frozen flag. The server checks the
 * number; its refusals land on the field.
 */
export function PermissionsForm({ team }: { team: KioskTeamProfile }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>({
    defaultValues: {
      additional_picsnippets: String(team.additional_picsnippets),
      limited_permission: team.limited_permission,
      frozen: team.frozen,
    },
  });
  const { control, setError } = form;
  const submit = submitWith(form, async (values) => {
    setSaved(false);
    try {
      const after = await savePermissions(team.id, {
        additional_picsnippets: values.additional_picsnippets.trim() || 0,
        limited_permission: values.limited_permission,
        frozen: values.frozen,
      });
      queryClient.setQueryData(kioskKeys.team(team.id), after);
      void queryClient.invalidateQueries({ queryKey: ['kiosk', 'teams', 'search'] });
      setSaved(true);
    } catch (error) {
      applyServerErrors(setError, error, FIELDS);
    }
  });
  return (
    <form
      className="stack kiosk-form"
      noValidate
      onSubmit={submit}
      aria-label="Additional permissions"
    >
      {saved && <Notice tone="success">The permissions are saved.</Notice>}
      <FormMessage control={control} />
      <FormTextField
        control={control}
        field="additional_picsnippets"
        id={`${id}-extra`}
        label="Additional PicSnippets"
        autoComplete="off"
        hint="Active designs allowed beyond the plan’s limit (plans without a limit ignore it)."
      />
      <FormCheckbox
        control={control}
        field="limited_permission"
        id={`${id}-limited`}
        label="Limited permission: only the owner and team admins archive or activate designs"
      />
      <FormCheckbox
        control={control}
        field="frozen"
        id={`${id}-frozen`}
        label="Frozen: no design can be created, cloned, archived or activated"
      />
      <p>
        <button type="submit" className="button" aria-disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save the permissions'}
        </button>
      </p>
    </form>
  );
}
