/**
 * Settings → Companies answering invitations (./CompaniesTab.tsx; docs/adr/0012-invitations.md
 * "Invitations": accepting needs the code of the e-mailed link): the link's invitation listed
 * first with its role and Accept; accepting says so with focus on the outcome (the Accept button
 * goes with the invitation) and drops the code from the address, keeping the tab; a pending
 * invitation without the code can only be declined here. Creating a company is in
 * ./CompanyNameForm.test.tsx.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../../test/api.ts';
import { expectFocusOn } from '../../test/expectations.ts';
import { aTeam, aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { CompaniesTab } from './CompaniesTab.tsx';

const TEAM = 'Harbour Studio';

function renderCompanies(route: string) {
  answer('GET /settings/companies', 200, [aTeam()]);
  return renderWithProviders(<CompaniesTab />, { route, path: '/settings', signedInAs: aUser() });
}

const invitations = () => screen.findByRole('list', { name: 'Invitations' });

describe('the companies tab, answering invitations', () => {
  it('accepts the e-mailed link’s invitation: focus on the outcome, the code gone from the address, the tab kept', async () => {
    answer('GET /invitations/{code}', 200, {
      id: 'invitation-1',
      email: 'ana@example.com',
      role: 'member',
      team: { name: TEAM },
    });
    answer('GET /settings/invitations/pending', 200, []);
    const accept = answer('POST /settings/invitations/{id}/accept', 200, { success: true });
    const { user, router } = renderCompanies('/settings?invitation=code-1#/companies');
    const [row] = within(await invitations()).getAllByRole('listitem');
    expect(row?.textContent).toContain(TEAM);
    expect(row?.textContent).toContain('Invited as member');

    answer('GET /settings/companies', 200, [aTeam(), aTeam({ id: 'team-2', name: TEAM })]);
    answer('GET /user/current', 200, aUser());
    await user.click(
      within(row!).getByRole('button', { name: `Accept the invitation to ${TEAM}` }),
    );
    const outcome = await screen.findByText(`You joined ${TEAM}.`);
    await waitFor(() => expectFocusOn(outcome));
    expect(accept.requests[0]?.params).toEqual({ id: 'invitation-1' });
    expect(accept.requests[0]?.body).toEqual({ code: 'code-1' });
    expect(router.state.location.search).toBe('');
    expect(router.state.location.hash).toBe('#/companies');
    const companies = screen.getByRole('list', { name: 'Your companies' });
    await within(companies).findByRole('link', { name: TEAM });
  });

  it('offers only Decline for a pending invitation without the link’s code, saying how to accept', async () => {
    answer('GET /settings/invitations/pending', 200, [
      { id: 'invitation-2', role: 'admin', team: { id: 'team-9', name: TEAM } },
    ]);
    renderCompanies('/settings#/companies');
    const [row] = within(await invitations()).getAllByRole('listitem');
    expect(row?.textContent).toContain('Invited as admin');
    expect(row?.textContent).toContain('To accept, open the invitation link from your e-mail.');
    expect(within(row!).queryByRole('button', { name: /^Accept/ })).toBeNull();
    expect(
      within(row!).getByRole('button', { name: `Decline the invitation to ${TEAM}` }),
    ).toBeTruthy();
  });
});
