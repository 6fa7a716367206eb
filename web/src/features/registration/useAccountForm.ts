import { useRef } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { teamSlug } from '#shared/team-slug.ts';
import {
  EMPTY_ACCOUNT,
  accountResolver,
  type AccountContext,
  type AccountSchema,
  type AccountValues,
} from './account.ts';

/** Registration step 0's form (react-hook-form), from {@link useAccountForm}. */
export type AccountForm = UseFormReturn<
  AccountValues,
  AccountContext,
  z.output<typeof AccountSchema>
>;

/** What {@link useAccountForm} gives the page and `AccountStep`. */
export interface AccountFormState {
  form: AccountForm;
  /** Side effects of typing in a field, beyond storing it (`FormTextField`'s `rules`). */
  rules: {
    email: { onChange: () => void };
    team: { onChange: () => void };
    team_slug: { onChange: () => void; onBlur: () => void };
    password: { onChange: () => void };
  };
  /**
   * Marks that the user asked to continue: from then on an empty required field says 'Please
   * enter a value.' (docs/accounts.md "Validation rules"). Call before submitting.
   */
  moveOn: () => void;
  /** Puts the invitation's address in the e-mail field unless the user has typed in it. */
  offerEmail: (email: string) => void;
}

/**
 * Registration step 0's form state (docs/accounts.md "Validation rules",
 * docs/adr/0011-registration.md "Registration"): the fields and their rules (`accountResolver`),
 * checked when a field is left and again as it changes (react-hook-form's `onTouched`), every field
 * once the user asks to continue. The team slug follows the company name until it is edited
 * (clearing it resumes following) and is tidied when left; a change of the password checks the
 * confirmation again once that has been checked.
 */
export function useAccountForm(): AccountFormState {
  // Read by the resolver when it runs; set in the Continue handler, before the check.
  const movingOn = useRef(false);
  const form = useForm<AccountValues, AccountContext, z.output<typeof AccountSchema>>({
    resolver: accountResolver,
    context: movingOn,
    mode: 'onTouched',
    defaultValues: EMPTY_ACCOUNT,
  });
  const { getValues, setValue, getFieldState, trigger } = form;
  const slugEdited = useRef(false);
  const emailTyped = useRef(false);

  return {
    form,
    rules: {
      email: {
        onChange: () => {
          emailTyped.current = true;
        },
      },
      team: {
        onChange: () => {
          if (slugEdited.current) return;
          const slug = getFieldState('team_slug');
          setValue('team_slug', teamSlug(getValues('team')), {
            shouldValidate: slug.isTouched || slug.invalid,
          });
        },
      },
      team_slug: {
        onChange: () => {
          // A hand-edited slug stops following the team name; clearing it resumes following.
          slugEdited.current = getValues('team_slug') !== '';
        },
        onBlur: () => {
          const slug = getValues('team_slug');
          if (slug !== '') setValue('team_slug', teamSlug(slug));
        },
      },
      password: {
        onChange: () => {
          const confirmation = getFieldState('password_confirmation');
          if (confirmation.isTouched || confirmation.invalid) void trigger('password_confirmation');
        },
      },
    },
    moveOn: () => {
      movingOn.current = true;
    },
    offerEmail: (email) => {
      if (!emailTyped.current) setValue('email', email);
    },
  };
}
