/**
 * The labelled text input (./TextField.tsx): its label (and "(optional)"), its hint and its
 * errors as the input's description, `aria-invalid` while it has errors.
 */
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { descriptionOf, expectFieldError, expectNoFieldError } from '../test/expectations.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { TextField } from './TextField.tsx';

function Field(props: {
  errors?: string[];
  hint?: string;
  required?: boolean;
  onChange?: (value: string) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <TextField
      id="company"
      label="Company name"
      name="team"
      autoComplete="organization"
      value={value}
      errors={props.errors}
      hint={props.hint}
      required={props.required}
      onChange={(next) => {
        setValue(next);
        props.onChange?.(next);
      }}
    />
  );
}

describe('TextField', () => {
  it('is a required textbox named by its label', () => {
    renderWithProviders(<Field />);
    const input = screen.getByRole('textbox', { name: 'Company name' });
    expect(input.hasAttribute('required')).toBe(true);
    expect(input.getAttribute('name')).toBe('team');
    expect(input.getAttribute('autocomplete')).toBe('organization');
    expectNoFieldError(input);
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('says "(optional)" in the label of a field that may stay empty', () => {
    renderWithProviders(<Field required={false} />);
    const input = screen.getByRole('textbox', { name: 'Company name (optional)' });
    expect(input.hasAttribute('required')).toBe(false);
  });

  it('is described by its hint', () => {
    renderWithProviders(<Field hint="Your team in PicSnippets." />);
    const input = screen.getByRole('textbox', { name: 'Company name' });
    expect(descriptionOf(input)).toBe('Your team in PicSnippets.');
  });

  it('shows its errors after the hint, all of them, and is marked invalid', () => {
    renderWithProviders(
      <Field
        hint="Your team in PicSnippets."
        errors={['Company name is required', 'At most 255 characters.']}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Company name' });
    expectFieldError(input, 'Company name is required At most 255 characters.');
    expect(descriptionOf(input)).toMatch(/^Your team in PicSnippets\. ! Company name is required/);
  });

  it('reports what is typed', async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<Field onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Company name' });
    await user.type(input, 'Acme');
    expect((input as HTMLInputElement).value).toBe('Acme');
    expect(onChange).toHaveBeenLastCalledWith('Acme');
  });
});
