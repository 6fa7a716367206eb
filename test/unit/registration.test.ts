import { describe, expect, it } from 'vitest';
import { isCommonPassword, teamSlug as serverTeamSlug } from '#functions/auth/registration.ts';
import { REGISTRATION_MESSAGES as MESSAGES } from '#shared/contract/auth.ts';
import { teamSlug } from '#shared/team-slug.ts';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../web/src/api/client.ts';
import {
  AccountSchema,
  EMPTY_ACCOUNT,
  EMPTY_MESSAGE,
  accountResolver,
  type AccountValues,
} from '../../web/src/features/registration/account.ts';
import { registrationFailure } from '../../web/src/features/registration/failure.ts';

describe('teamSlug (spec 001 §4)', () => {
  it.each([
    ['Acme Flowers & Co', 'acme-flowers-co'],
    ['  Hello   World  ', 'hello-world'],
    ['Café Zoë', 'café-zoë'],
    ['A__B--C', 'a-b-c'],
    ['--', ''],
  ])('%s → %s, on both sides', (name, slug) => {
    expect(teamSlug(name)).toBe(slug);
    expect(serverTeamSlug(name)).toBe(slug);
  });
});

describe('isCommonPassword', () => {
  it('knows the usual suspects, in any case', () => {
    expect(isCommonPassword('password123')).toBe(true);
    expect(isCommonPassword('QWERTY123')).toBe(true);
    expect(isCommonPassword('violet-tractor-91')).toBe(false);
  });
});

const VALID: AccountValues = {
  name: 'Ana Müller',
  email: ' Ana@Example.com ',
  team: 'Café Zürich & Co',
  team_slug: '',
  password: 'violet-harbour-42',
  password_confirmation: 'violet-harbour-42',
  terms: true,
  marketing_consent: false,
};

/** The first message of each field the schema refuses. */
function problems(values: AccountValues): Record<string, string> {
  const result = AccountSchema.safeParse(values);
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe('the account step’s rules (the server’s, spec 001 §5)', () => {
  it('accepts a valid account, trimmed and with the address in lower case', () => {
    const result = AccountSchema.safeParse(VALID);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ name: 'Ana Müller', email: 'ana@example.com' });
  });

  it('says the spec’s message for each broken field', () => {
    expect(
      problems({
        name: 'R2D2',
        email: 'not-an-email',
        team: '  ',
        team_slug: '',
        password: 'short',
        password_confirmation: 'other',
        terms: false,
        marketing_consent: false,
      }),
    ).toEqual({
      name: MESSAGES.name,
      email: MESSAGES.email,
      team: MESSAGES.team,
      password: MESSAGES.password,
      password_confirmation: MESSAGES.confirmation,
      terms: MESSAGES.terms,
    });
    expect(problems({ ...VALID, password: 'x'.repeat(129) }).password).toBe(MESSAGES.passwordLong);
  });

  it('says "Please enter a value." for empty fields once the user moves on, the rule before', async () => {
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    const before = await accountResolver(EMPTY_ACCOUNT, { current: false }, options);
    const after = await accountResolver(EMPTY_ACCOUNT, { current: true }, options);
    const messages = (errors: Record<string, { message?: string } | undefined>) =>
      Object.fromEntries(Object.entries(errors).map(([f, e]) => [f, e?.message]));
    expect(messages(before.errors)).toMatchObject({ name: MESSAGES.name, team: MESSAGES.team });
    expect(messages(after.errors)).toEqual({
      name: EMPTY_MESSAGE,
      email: EMPTY_MESSAGE,
      team: EMPTY_MESSAGE,
      password: EMPTY_MESSAGE,
      password_confirmation: EMPTY_MESSAGE,
      terms: MESSAGES.terms,
    });
  });
});

describe('where a refused registration goes (spec 001 §4, §8)', () => {
  const refusal = (errors: Record<string, string[]>) =>
    new ApiError(422, 'The given data was invalid.', errors);

  it('keeps a taken address on step 0, focused, with no notice', () => {
    expect(registrationFailure(refusal({ email: [MESSAGES.emailTaken] }), 0, 'T')).toEqual({
      notice: null,
      step: 0,
      focus: 'email',
    });
  });

  it('brings an account or plan refusal on step 1 back to step 0 with a notice', () => {
    expect(registrationFailure(refusal({ password: [MESSAGES.passwordCommon] }), 1, 'T')).toEqual({
      notice: {
        tone: 'error',
        title: 'Some details need attention',
        text: 'Fix the fields marked below, then continue.',
      },
      step: 0,
      focus: 'password',
    });
    const plan = registrationFailure(refusal({ plan: [MESSAGES.plan] }), 1, 'T');
    expect(plan.step).toBe(0);
    expect(plan.focus).toBe('heading');
    expect(plan.notice?.text).toBe(`${MESSAGES.plan} Continue to choose another plan.`);
  });

  it('keeps billing and card refusals on step 1, and names fields it cannot place', () => {
    expect(registrationFailure(refusal({ city: ['Enter a city.'] }), 1, 'T')).toEqual({
      notice: null,
      step: 1,
      focus: 'city',
    });
    expect(
      registrationFailure(
        refusal({ stripe_payment_method: ['Declined.'], other: ['Odd.'] }),
        1,
        'Title',
      ),
    ).toEqual({ notice: { tone: 'error', title: 'Title', text: 'Odd.' }, step: 1, focus: 'card' });
  });

  it('shows the answer’s message when nothing can be placed', () => {
    expect(registrationFailure(new ApiError(0, 'Offline.'), 1, 'T').notice).toEqual({
      tone: 'error',
      title: 'No connection',
      text: 'Offline.',
    });
    expect(registrationFailure(new ApiError(501, 'Not yet.'), 0, 'T').notice?.tone).toBe('info');
    expect(registrationFailure(new Error('bug'), 0, 'T').notice?.text).toBe(GENERIC_ERROR_MESSAGE);
  });
});
