/**
 * Registration step 0, account details: the fields and their rules. The rules are the server's
 * (shared/contract/auth.ts `registrationBody`, docs/accounts.md "Validation rules" messages), so a
 * field says the same thing whichever side caught the problem; the server checks more (common
 * passwords, taken e-mails) and its answers go on the same fields. Client-only: the confirmation
 * must match as it is typed, and an empty required field says 'Please enter a value.' once the user
 * asks to continue (docs/accounts.md "Validation rules").
 */
import { z } from 'zod';
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { REGISTRATION_MESSAGES, registrationBody } from '#shared/contract/auth.ts';

/** Step-0 fields in display order (also the order focus looks for the first invalid one). */
export const ACCOUNT_FIELDS = [
  'name',
  'email',
  'team',
  'team_slug',
  'password',
  'password_confirmation',
  'terms',
  'marketing_consent',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

export const isAccountField = (field: string): field is AccountField =>
  (ACCOUNT_FIELDS as readonly string[]).includes(field);

/** What step 0 holds. */
export interface AccountValues {
  name: string;
  email: string;
  team: string;
  team_slug: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
  /** Consent to the marketing hook (docs/accounts.md "Marketing hook"); off until ticked. */
  marketing_consent: boolean;
}

export const EMPTY_ACCOUNT: AccountValues = {
  name: '',
  email: '',
  team: '',
  team_slug: '',
  password: '',
  password_confirmation: '',
  terms: false,
  marketing_consent: false,
};

/** docs/accounts.md "Validation rules": an empty required input when moving forward. */
export const EMPTY_MESSAGE = 'Please enter a value.';

/** Field lengths the server accepts (characters). */
export const MAX_LENGTH = { text: 255, password: 128 } as const;

const server = registrationBody().shape;

/**
 * Step 0's rules: the server's for each field (without its common-password list), the
 * confirmation matching the password (checked whatever the other fields hold, as it is typed),
 * and the terms ticked (the checkbox's boolean; the server also takes a form's 'on' or 1, and
 * the resolver would report its union's first branch instead of the spec's message).
 */
export const AccountSchema = z
  .object({
    name: server.name,
    email: server.email,
    team: server.team,
    team_slug: server.team_slug.unwrap(),
    password: server.password,
    password_confirmation: z.string(),
    terms: z.boolean().refine((ticked) => ticked, REGISTRATION_MESSAGES.terms),
    marketing_consent: z.boolean(),
  })
  .refine((values) => values.password_confirmation === values.password, {
    path: ['password_confirmation'],
    message: REGISTRATION_MESSAGES.confirmation,
    when: () => true,
  });

/** The fields that say {@link EMPTY_MESSAGE} when empty as the user moves on. */
const REQUIRED_TEXT = ['name', 'email', 'team', 'password', 'password_confirmation'] as const;

/** The resolver's context: whether the user has asked to continue (set as they do). */
export interface AccountContext {
  current: boolean;
}

const checkSchema = zodResolver(AccountSchema);

/**
 * Checks step 0 with {@link AccountSchema}. Once the user has asked to continue
 * (`context.current`), an empty required field says {@link EMPTY_MESSAGE} instead of its rule.
 */
export const accountResolver: Resolver<
  AccountValues,
  AccountContext,
  z.output<typeof AccountSchema>
> = async (values, context, options) => {
  const result = await checkSchema(values, context, options);
  if (!context?.current) return result;
  const errors = { ...result.errors };
  for (const field of REQUIRED_TEXT) {
    if (values[field].trim() === '') {
      errors[field] = { type: 'required', message: EMPTY_MESSAGE };
    }
  }
  return Object.keys(errors).length > 0 ? { values: {}, errors } : result;
};
