import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { KioskDiscountBody, type KioskDiscountInput } from '#shared/contract/kiosk-users.ts';
import { FormMessage, FormTextField } from '../../../components/FormFields.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { applyServerErrors, submitWith } from '../../../lib/forms.ts';
import { addDiscount, kioskKeys } from './api.ts';
import { discountText } from './format.ts';

type Values = {
  type: 'amount' | 'percent';
  value: string;
  duration: 'once' | 'repeating' | 'forever';
  months: string;
  team_id: string;
};

const FIELDS = ['type', 'value', 'duration', 'months', 'team_id'] as const;

/**
 * The discount form of a user's profile (docs/kiosk.md Discount, docs/accounts.md "Constants":
 * "Default discount: type amount, duration once"): an amount in dollars or a percentage, once, for
 * some months or forever, on the subscription of one of the teams the user pays for (a choice when
 * there are several). The rules are the route's (`KioskDiscountBody`); the server's refusals land
 * on their fields or above the form (503 while billing is offline).
 */
export function DiscountForm({
  userId,
  teams,
}: {
  userId: string;
  teams: ReadonlyArray<{ id: string; name: string }>;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<Values, unknown, KioskDiscountInput>({
    defaultValues: {
      type: 'amount',
      value: '',
      duration: 'once',
      months: '',
      team_id: teams[0]?.id ?? '',
    },
    resolver: zodResolver(KioskDiscountBody) as never,
  });
  const { control, register, setError, formState } = form;
  const type = useWatch({ control, name: 'type' });
  const duration = useWatch({ control, name: 'duration' });
  const submit = submitWith(form, async (body) => {
    setDone(null);
    try {
      const applied = await addDiscount(userId, {
        ...body,
        months: body.duration === 'repeating' ? body.months : null,
      });
      setDone(`Discount applied: ${discountText(applied.discount)}.`);
      await queryClient.invalidateQueries({ queryKey: kioskKeys.user(userId) });
    } catch (error) {
      applyServerErrors(setError, error, FIELDS);
    }
  });
  const selectError = (name: 'type' | 'duration' | 'team_id') => formState.errors[name]?.message;
  return (
    <form className="stack kiosk-form" noValidate onSubmit={submit} aria-label="Add a discount">
      {done && <Notice tone="success">{done}</Notice>}
      <FormMessage control={control} />
      {teams.length > 1 && (
        <div className="field">
          <label htmlFor={`${id}-team`} className="field__label">
            Team
          </label>
          <select id={`${id}-team`} className="input input--select" {...register('team_id')}>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          {selectError('team_id') && <p className="field__error">{selectError('team_id')}</p>}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-type`} className="field__label">
          Type
        </label>
        <select id={`${id}-type`} className="input input--select" {...register('type')}>
          <option value="amount">Amount (US dollars)</option>
          <option value="percent">Percent</option>
        </select>
      </div>
      <FormTextField
        control={control}
        field="value"
        id={`${id}-value`}
        label={type === 'percent' ? 'Percent off' : 'Dollars off'}
        autoComplete="off"
        hint={type === 'percent' ? '1 to 100' : 'e.g. 15.50'}
      />
      <div className="field">
        <label htmlFor={`${id}-duration`} className="field__label">
          Duration
        </label>
        <select id={`${id}-duration`} className="input input--select" {...register('duration')}>
          <option value="once">Once</option>
          <option value="repeating">Repeating, for some months</option>
          <option value="forever">Forever</option>
        </select>
      </div>
      {duration === 'repeating' && (
        <FormTextField
          control={control}
          field="months"
          id={`${id}-months`}
          label="Months"
          autoComplete="off"
        />
      )}
      <p>
        <button type="submit" className="button" aria-disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Applying…' : 'Apply the discount'}
        </button>
      </p>
    </form>
  );
}
