/**
 * The form fields bound to react-hook-form (./FormFields.tsx) with the SPA's one way to submit
 * and to show a refusal (web/src/lib/forms.ts; docs/adr/0047-forms.md "Forms"): the schema's
 * message on a field once it is checked, a 422 on the fields it names with focus on the first, the
 * other messages in the form's message above it.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../api/client.ts';
import { applyServerErrors, submitWith } from '../lib/forms.ts';
import { expectFieldError, expectNoFieldError } from '../test/expectations.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { FormCheckbox, FormCheckboxGroup, FormMessage, FormTextField } from './FormFields.tsx';

const Schema = z.object({
  name: z.string().trim().min(1, 'Enter a name.'),
  events: z.array(z.enum(['saved', 'archived'])).min(1, 'Choose at least one event.'),
  terms: z.boolean().refine((ticked) => ticked, 'The terms must be accepted.'),
});
type Values = z.input<typeof Schema>;
const FIELDS = ['name', 'events', 'terms'] as const;

/** A form whose submit throws `failure` (a call's refusal), or passes when there is none. */
function TestForm({ failure, onSaved }: { failure?: unknown; onSaved?: (v: Values) => void }) {
  const form = useForm<Values, unknown, z.output<typeof Schema>>({
    resolver: zodResolver(Schema),
    defaultValues: { name: '', events: [], terms: false },
  });
  const { control, setError } = form;
  const submit = submitWith(form, async (values) => {
    if (failure === undefined) {
      onSaved?.(values);
      return;
    }
    applyServerErrors(setError, failure, FIELDS);
  });
  return (
    <form noValidate onSubmit={submit}>
      <FormMessage control={control} title="Not saved" />
      <FormTextField
        control={control}
        field="name"
        id="test-name"
        label="Name"
        autoComplete="off"
        hint="As your team knows it."
      />
      <FormCheckboxGroup
        control={control}
        field="events"
        idBase="test"
        legend="Events"
        options={[
          { value: 'saved', text: 'A design was saved' },
          { value: 'archived', text: 'A design was archived' },
        ]}
      />
      <FormCheckbox control={control} field="terms" id="test-terms" label="I accept the terms" />
      <button type="submit">Save</button>
    </form>
  );
}

describe('the bound form fields', () => {
  it('name each control: the text field by its label, the checkboxes by theirs, the group by its legend', () => {
    renderWithProviders(<TestForm />);
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Events' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'A design was saved' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'I accept the terms' })).toBeTruthy();
  });

  it('show the schema’s messages on their fields once submitted, focus on the first', async () => {
    const { user } = renderWithProviders(<TestForm />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expectFieldError(name, 'Enter a name.'));
    expectFieldError(screen.getByRole('group', { name: 'Events' }), 'Choose at least one event.');
    expectFieldError(
      screen.getByRole('checkbox', { name: 'I accept the terms' }),
      'The terms must be accepted.',
    );
    expect(document.activeElement).toBe(name);
  });

  it('clear a field’s error as it is put right', async () => {
    const { user } = renderWithProviders(<TestForm />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const terms = screen.getByRole('checkbox', { name: 'I accept the terms' });
    await waitFor(() => expectFieldError(terms, 'The terms must be accepted.'));
    await user.click(terms);
    await waitFor(() => expectNoFieldError(terms));
    const saved = screen.getByRole('checkbox', { name: 'A design was saved' });
    await user.click(saved);
    await waitFor(() => expectNoFieldError(screen.getByRole('group', { name: 'Events' })));
  });

  it('put a 422 on the fields it names and focus the first of them in the form’s order', async () => {
    const refusal = new ApiError(422, 'The given data was invalid.', {
      terms: ['The terms must be accepted.'],
      name: ['This name is taken.'],
    });
    const { user } = renderWithProviders(<TestForm failure={refusal} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme');
    await user.click(screen.getByRole('checkbox', { name: 'A design was saved' }));
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expectFieldError(name, 'This name is taken.'));
    expectFieldError(
      screen.getByRole('checkbox', { name: 'I accept the terms' }),
      'The terms must be accepted.',
    );
    expect(document.activeElement).toBe(name);
    // Every message is on a field: nothing above the form.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('focus the group’s first checkbox when the server refuses the choice', async () => {
    const refusal = new ApiError(422, 'The given data was invalid.', {
      events: ['Choose at least one event.'],
    });
    const { user } = renderWithProviders(<TestForm failure={refusal} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme');
    await user.click(screen.getByRole('checkbox', { name: 'A design was archived' }));
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('checkbox', { name: 'A design was saved' }),
      ),
    );
  });

  it('show the messages of fields the form does not have above it, with the answer’s title', async () => {
    const refusal = new ApiError(422, 'The given data was invalid.', {
      plan: ['The selected plan is invalid.'],
    });
    const { user } = renderWithProviders(<TestForm failure={refusal} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme');
    await user.click(screen.getByRole('checkbox', { name: 'A design was saved' }));
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toContain('Not saved');
    expect(message.textContent).toContain('The selected plan is invalid.');
    expectNoFieldError(screen.getByRole('textbox', { name: 'Name' }));
  });

  it('show the generic message above the form for a failure that is no answer of the API', async () => {
    const { user } = renderWithProviders(<TestForm failure={new TypeError('boom')} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Acme');
    await user.click(screen.getByRole('checkbox', { name: 'A design was saved' }));
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    // applyServerErrors logs what is not an ApiError.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByRole('alert');
    expect(message.textContent).toContain(
      'Something went wrong. Please try again or contact customer support.',
    );
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
});
