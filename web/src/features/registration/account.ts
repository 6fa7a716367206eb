/**
 * Registration step 0, account details: the fields, the team slug rule and the client-side
 * checks. The messages are the server's (functions/auth/registration.ts `MESSAGES`, spec 001
 * §5) so a field says the same thing whichever side caught the problem. The server checks
 * more (common passwords, taken e-mails); its answers go on the same fields.
 *
 * TODO: move `teamSlug`, the messages and the patterns to `shared/` so the SPA and the auth
 * handler import one definition instead of keeping two in step.
 */

/** Step-0 fields in display order (also the order focus looks for the first invalid one). */
export const ACCOUNT_FIELDS = [
  'name',
  'email',
  'team',
  'team_slug',
  'password',
  'password_confirmation',
  'terms',
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

export const isAccountField = (field: string): field is AccountField =>
  (ACCOUNT_FIELDS as readonly string[]).includes(field);

export interface AccountValues {
  name: string;
  email: string;
  team: string;
  team_slug: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
}

export const EMPTY_ACCOUNT: AccountValues = {
  name: '',
  email: '',
  team: '',
  team_slug: '',
  password: '',
  password_confirmation: '',
  terms: false,
};

/** Spec 001 §5 messages, word for word as the server sends them. */
export const MESSAGES = {
  name: 'Name required and must be a string',
  email: 'Email must be valid email',
  team: 'Company name is required',
  password: 'The password must be at least 8 characters.',
  passwordLong: 'The password may not be greater than 128 characters.',
  confirmation: 'The password confirmation does not match.',
  terms: 'The terms must be accepted.',
  /** Spec 001 §5: an empty required input when moving forward. */
  empty: 'Please enter a value.',
} as const;

/** Letters of any script, words joined by one space, apostrophe or hyphen (as the server). */
const NAME_PATTERN = /^\p{L}+(?:[ '-]\p{L}+)*$/u;
/** The server's e-mail pattern (zod's `email()`), so both sides accept the same addresses. */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Field lengths the server accepts (characters). */
export const MAX_LENGTH = { text: 255, password: 128 } as const;

/**
 * The team slug for a team name (spec 001 §4): lower case, every run of spaces or other
 * non-word characters becomes one dash, no dash at either end. Letters and digits of any script
 * are kept ("Café Zürich" → "café-zürich"), as the server's `teamSlug()` does.
 */
export function teamSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Checks the account fields.
 *
 * @param values   the form as typed.
 * @param movingOn true when the user asked to continue: an empty required field then says
 *   'Please enter a value.' (spec 001 §5) instead of its rule.
 * @returns the first problem of each field; fields without a problem are absent. The slug is
 *   optional (the server derives it from the team name).
 */
export function checkAccount(
  values: AccountValues,
  movingOn: boolean,
): Partial<Record<AccountField, string>> {
  const errors: Partial<Record<AccountField, string>> = {};
  const emptyOr = (value: string, message: string) =>
    movingOn && value.trim() === '' ? MESSAGES.empty : message;

  const name = values.name.trim();
  if (name.length < 3 || name.length > MAX_LENGTH.text || !NAME_PATTERN.test(name)) {
    errors.name = emptyOr(name, MESSAGES.name);
  }
  const email = values.email.trim();
  if (email.length > MAX_LENGTH.text || !EMAIL_PATTERN.test(email)) {
    errors.email = emptyOr(email, MESSAGES.email);
  }
  if (values.team.trim() === '') errors.team = emptyOr('', MESSAGES.team);
  if (values.password.length < 8) errors.password = emptyOr(values.password, MESSAGES.password);
  else if (values.password.length > MAX_LENGTH.password) errors.password = MESSAGES.passwordLong;
  if (movingOn && values.password_confirmation === '') {
    errors.password_confirmation = MESSAGES.empty;
  } else if (values.password_confirmation !== values.password) {
    errors.password_confirmation = MESSAGES.confirmation;
  }
  if (!values.terms) errors.terms = MESSAGES.terms;
  return errors;
}
