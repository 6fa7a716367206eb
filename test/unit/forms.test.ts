/**
 * The SPA's one way to put a failed call on a form (web/src/lib/forms.ts `applyServerErrors`,
 * docs/adr/0047-forms.md "Forms"; docs/accounts.md "Error answers in the SPA"): a 422's errors on
 * the form's fields, focus on the first, the rest in one form-level message; a 401 adds nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../web/src/api/client.ts';
import { FORM_ERROR, applyServerErrors, placeErrors } from '../../web/src/lib/forms.ts';

type Values = { name: string; email: string; current_password: string };
const FIELDS = ['name', 'email', 'current_password'] as const;

/** A `setError` that records its calls. */
function recorder() {
  const calls: Array<{ name: string; message: string | undefined; focus: boolean }> = [];
  const setError = (
    name: string,
    error: { message?: string },
    options?: { shouldFocus?: boolean },
  ) => {
    calls.push({ name, message: error.message, focus: options?.shouldFocus === true });
  };
  return { calls, setError };
}

describe('applyServerErrors', () => {
  it('puts a 422 on the fields, focusing the first in form order, with no form message', () => {
    const { calls, setError } = recorder();
    const error = new ApiError(422, 'The given data was invalid.', {
      current_password: ['The current password is incorrect.'],
      email: ['Email must be valid email', 'The email has already been taken.'],
    });
    const outcome = applyServerErrors<Values>(setError as never, error, FIELDS);
    expect(outcome).toEqual({ placed: ['email', 'current_password'], message: null });
    expect(calls).toEqual([
      {
        name: 'email',
        message: 'Email must be valid email The email has already been taken.',
        focus: true,
      },
      { name: 'current_password', message: 'The current password is incorrect.', focus: false },
    ]);
  });

  it('sends errors of fields the form does not have to the form-level message', () => {
    const { calls, setError } = recorder();
    const error = new ApiError(422, 'The given data was invalid.', {
      name: ['Name required and must be a string'],
      team: ['Company name is required'],
      plan: ['The selected plan is invalid.'],
    });
    const outcome = applyServerErrors<Values>(setError as never, error, FIELDS);
    expect(outcome.message).toBe('Company name is required The selected plan is invalid.');
    expect(calls.at(-1)).toEqual({
      name: FORM_ERROR,
      message: 'Company name is required The selected plan is invalid.',
      focus: false,
    });
  });

  it('shows the answer’s message when no field got an error, and nothing for a 401', () => {
    const conflict = recorder();
    applyServerErrors<Values>(conflict.setError as never, new ApiError(409, 'Taken.'), FIELDS);
    expect(conflict.calls).toEqual([{ name: FORM_ERROR, message: 'Taken.', focus: false }]);

    const expired = recorder();
    const outcome = applyServerErrors<Values>(
      expired.setError as never,
      new ApiError(401, 'Unauthenticated.'),
      FIELDS,
    );
    expect(outcome).toEqual({ placed: [], message: null });
    expect(expired.calls).toEqual([]);
  });

  it('gives anything else the generic message, and can leave focus and the message alone', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(placeErrors(new TypeError('boom'), FIELDS).message).toBe(GENERIC_ERROR_MESSAGE);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();

    const { calls, setError } = recorder();
    const error = new ApiError(422, 'Invalid.', { name: ['Too short.'], other: ['Elsewhere.'] });
    const outcome = applyServerErrors<Values>(setError as never, error, FIELDS, {
      formLevel: false,
      focus: false,
    });
    expect(outcome.message).toBe('Elsewhere.');
    expect(calls).toEqual([{ name: 'name', message: 'Too short.', focus: false }]);
  });
});
