/**
 * The company-name form (./CompanyNameForm.tsx with ./useSingleFieldForm.ts) where the settings
 * use it: renaming the company (./TeamGeneralTab.tsx, `PUT /settings/companies/{id}/name`) and
 * creating one (./CompaniesTab.tsx, `POST /settings/companies`). The route's rule checks the
 * name first (docs/accounts.md "Validation rules": 'Company name is required'), a 422 lands on
 * the field, anything else in the notice above it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { hasUnsavedChanges } from '../../hooks/useUnsavedChangesGuard.ts';
import { answer, failNetwork } from '../../test/api.ts';
import { expectBusy, expectFieldError, expectNoFieldError } from '../../test/expectations.ts';
import { aTeam, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { CompaniesTab } from './CompaniesTab.tsx';
import { TeamGeneralTab } from './TeamGeneralTab.tsx';

function renderRename(isOwner = true) {
  const onChanged = vi.fn();
  const view = renderWithProviders(
    <TeamGeneralTab team={{ ...aTeam(), users: [] }} isOwner={isOwner} onChanged={onChanged} />,
    { route: '/settings/companies/team-1', signedInAs: aUser() },
  );
  return { ...view, onChanged };
}

/** The "Company profile" section's field and button. */
function renameForm() {
  const section = screen.getByRole('region', { name: 'Company profile' });
  return {
    section,
    name: within(section).getByRole('textbox', { name: 'Company name' }) as HTMLInputElement,
    save: within(section).getByRole('button', { name: 'Save name' }),
  };
}

describe('the company-name form, renaming the company', () => {
  it('shows the saved name in the “Company name” field of “Company profile”', () => {
    renderRename();
    const { name } = renameForm();
    expect(name.value).toBe('Acme');
    expect(name.getAttribute('name')).toBe('team_name');
    expect(name.getAttribute('autocomplete')).toBe('organization');
  });

  it('says the name is required before asking the server', async () => {
    const rename = answer('PUT /settings/companies/{id}/name', 200, { success: true });
    const { user } = renderRename();
    const { name, save } = renameForm();
    await user.clear(name);
    await user.click(save);
    await waitFor(() => expectFieldError(name, 'Company name is required'));
    expect(document.activeElement).toBe(name);
    expect(rename.requests).toHaveLength(0);
  });

  it('saves the new name, trimmed, and says so', async () => {
    const rename = answer('PUT /settings/companies/{id}/name', 200, { success: true });
    const { user, onChanged } = renderRename();
    const { name, save, section } = renameForm();
    await user.clear(name);
    await user.type(name, '  Acme GmbH ');
    await user.click(save);
    const saved = await within(section).findByRole('status');
    expect(saved.textContent).toContain('The company name was saved.');
    expect(rename.requests[0]?.params).toEqual({ id: 'team-1' });
    expect(rename.requests[0]?.body).toEqual({ name: 'Acme GmbH' });
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('submits with Enter in the field', async () => {
    const rename = answer('PUT /settings/companies/{id}/name', 200, { success: true });
    const { user } = renderRename();
    const { name } = renameForm();
    await user.type(name, ' Ltd{Enter}');
    await waitFor(() => expect(rename.requests).toHaveLength(1));
    expect(rename.requests[0]?.body).toEqual({ name: 'Acme Ltd' });
  });

  it('puts the server’s 422 on the field and focuses it', async () => {
    answer(
      'PUT /settings/companies/{id}/name',
      422,
      invalid({ name: ['The name has already been taken.'] }),
    );
    const { user } = renderRename();
    const { name, save } = renameForm();
    await user.type(name, ' 2');
    await user.click(save);
    await waitFor(() => expectFieldError(name, 'The name has already been taken.'));
    expect(document.activeElement).toBe(name);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows another refusal above the form, the field untouched', async () => {
    answer('PUT /settings/companies/{id}/name', 403, { message: 'This action is unauthorized.' });
    const { user } = renderRename();
    const { name, save, section } = renameForm();
    await user.type(name, ' 2');
    await user.click(save);
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('This action is unauthorized.');
    expectNoFieldError(name);
  });

  it('says there is no connection when the save gets no answer', async () => {
    failNetwork('PUT /settings/companies/{id}/name');
    const { user } = renderRename();
    const { name, save, section } = renameForm();
    await user.type(name, ' 2');
    await user.click(save);
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain(
      'We could not reach PicSnippets. Check your connection and try again.',
    );
  });

  it('says it is saving while the answer is on its way', async () => {
    const rename = answer(
      'PUT /settings/companies/{id}/name',
      200,
      { success: true },
      { held: true },
    );
    const { user } = renderRename();
    const { name, save } = renameForm();
    await user.type(name, ' 2');
    await user.click(save);
    await waitFor(() => expectBusy(save, 'Saving…'));
    rename.release();
    await waitFor(() => expect(save.textContent).toBe('Save name'));
  });

  it('marks a typed name unsaved until it is saved', async () => {
    answer('PUT /settings/companies/{id}/name', 200, { success: true });
    const { user } = renderRename();
    const { name, save, section } = renameForm();
    expect(hasUnsavedChanges()).toBe(false);
    await user.type(name, ' 2');
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(save);
    await within(section).findByRole('status');
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('shows a member the name without a form', () => {
    renderRename(false);
    expect(screen.queryByRole('textbox', { name: 'Company name' })).toBeNull();
    expect(screen.getByText('Only the owner can change the company’s settings.')).toBeTruthy();
  });
});

describe('the company-name form, creating a company', () => {
  function renderCompanies() {
    answer('GET /settings/companies', 200, [aTeam()]);
    answer('GET /settings/invitations/pending', 200, []);
    const view = renderWithProviders(<CompaniesTab />, {
      route: '/settings#/companies',
      signedInAs: aUser(),
    });
    const section = screen.getByRole('region', { name: 'Create a company' });
    return {
      ...view,
      section,
      name: within(section).getByRole('textbox', { name: 'Company name' }) as HTMLInputElement,
      create: within(section).getByRole('button', { name: 'Create company' }),
    };
  }

  it('asks for a name when the field is empty', async () => {
    const created = answer('POST /settings/companies', 201, {
      pendingPayment: false,
      team: aTeam({ id: 'team-2', name: 'Acme 2' }),
    });
    const { user, name, create } = renderCompanies();
    await user.click(create);
    await waitFor(() => expectFieldError(name, 'Enter a name for the company.'));
    expect(created.requests).toHaveLength(0);
  });

  it('creates the company, says so, and empties the field for the next one', async () => {
    const created = answer('POST /settings/companies', 201, {
      pendingPayment: false,
      team: aTeam({ id: 'team-2', name: 'Acme 2' }),
    });
    answer('GET /user/current', 200, aUser());
    const { user, name, create } = renderCompanies();
    await user.type(name, 'Acme 2');
    answer('GET /settings/companies', 200, [aTeam(), aTeam({ id: 'team-2', name: 'Acme 2' })]);
    await user.click(create);
    await screen.findByText('The company Acme 2 was created.');
    const companies = screen.getByRole('list', { name: 'Your companies' });
    await waitFor(() => expect(within(companies).getAllByRole('listitem')).toHaveLength(2));
    expect(within(companies).getByRole('link', { name: 'Acme 2' })).toBeTruthy();
    expect(created.requests[0]?.body).toEqual({ name: 'Acme 2' });
    await waitFor(() => expect(name.value).toBe(''));
  });

  it('puts the plan’s company limit on the field', async () => {
    const limit = 'Your plan allows 1 company. Upgrade to create more.';
    answer('POST /settings/companies', 422, invalid({ name: [limit] }));
    const { user, name, create } = renderCompanies();
    await user.type(name, 'Acme 2');
    await user.click(create);
    await waitFor(() => expectFieldError(name, limit));
  });
});
