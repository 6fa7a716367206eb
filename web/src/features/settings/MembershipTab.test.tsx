/**
 * Team settings → Membership (./MembershipTab.tsx; docs/adr/0023-team-roles.md "Team roles",
 * docs/adr/0012-invitations.md "Invitations"; docs/accounts.md "Validation rules" member limit) for
 * the team's owner: the members with their roles (the owner's as text, a member's as a choice), a
 * role changed, a member removed after confirming with focus on the outcome, and the invitations:
 * the plan's member limit on the e-mail field, the busy button, an invitation sent and listed as
 * pending, and the empty list.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer } from '../../test/api.ts';
import { expectBusy, expectFieldError, expectFocusOn } from '../../test/expectations.ts';
import { aMember, aTeamWithMembers, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { MembershipTab } from './MembershipTab.tsx';

const ROLES = [
  { value: 'owner', text: 'Owner' },
  { value: 'admin', text: 'Admin' },
  { value: 'member', text: 'Member' },
];
const INVITEE = 'ivy.invitee@example.org';

/** Acme with Ana (its owner, signed in) and Ben, a member; no invitation pending unless given. */
function renderMembership(invitations: { id: string; email: string; role: string }[] = []) {
  answer('GET /settings/companies/roles', 200, ROLES);
  answer(
    'GET /settings/companies/{id}/invitations',
    200,
    invitations.map((i) => ({ ...i, created_at: '2026-01-05T10:00:00.000Z' })),
  );
  const team = aTeamWithMembers();
  team.users.push(aMember());
  const onChanged = vi.fn();
  const view = renderWithProviders(<MembershipTab team={team} canManage onChanged={onChanged} />, {
    route: '/settings/companies/team-1#/membership',
    signedInAs: aUser(),
  });
  const email = screen.getByRole('textbox', { name: 'Invite by e-mail' });
  const send = screen.getByRole('button', { name: 'Send invitation' });
  return { ...view, onChanged, email, send };
}

const members = () => screen.getByRole('list', { name: 'Members' });

describe('the membership tab, for the owner', () => {
  it('lists the members with their roles: the owner’s as text, a member’s as a choice of the roles an owner may give', async () => {
    renderMembership();
    const [ana, ben] = within(members()).getAllByRole('listitem');
    expect(ana?.textContent).toContain('Ana Example');
    expect(ana?.textContent).toContain('You');
    expect(ana?.textContent).toContain('Owner');
    expect(within(ana!).queryByRole('combobox')).toBeNull();
    expect(within(ana!).queryByRole('button')).toBeNull();
    const role = (await within(ben!).findByRole('combobox', {
      name: 'Role of Ben Member',
    })) as HTMLSelectElement;
    expect(role.value).toBe('member');
    expect([...role.options].map((o) => o.textContent)).toEqual(['Admin', 'Member']);
    expect(within(ben!).getByRole('button', { name: 'Remove Ben Member' })).toBeTruthy();
  });

  it('changes a member’s role and says so', async () => {
    const change = answer('PUT /settings/companies/{id}/members/{userId}', 200, {
      success: true,
    });
    const { user, onChanged } = renderMembership();
    const role = await screen.findByRole('combobox', { name: 'Role of Ben Member' });
    await user.selectOptions(role, 'admin');
    await screen.findByText('Ben Member’s role is now Admin.');
    expect(change.requests[0]?.params).toEqual({ id: 'team-1', userId: 'user-2' });
    expect(change.requests[0]?.body).toEqual({ role: 'admin' });
    expect(onChanged).toHaveBeenCalled();
  });

  it('removes a member after confirming, focus on the outcome', async () => {
    const remove = answer('DELETE /settings/companies/{id}/members/{userId}', 200, {
      success: true,
    });
    const { user, onChanged } = renderMembership();
    await user.click(within(members()).getByRole('button', { name: 'Remove Ben Member' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove Ben Member?' });
    expect(dialog.textContent).toContain('Ben Member loses access to this company’s designs.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    const outcome = await screen.findByText('Ben Member was removed from Acme.');
    await waitFor(() => expectFocusOn(outcome));
    expect(remove.requests[0]?.params).toEqual({ id: 'team-1', userId: 'user-2' });
    expect(onChanged).toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('puts the plan’s member limit on the e-mail field, and focuses it', async () => {
    const limit = 'Your plan allows 1 member in a team. Upgrade your plan to invite more.';
    answer('POST /settings/companies/{id}/invitations', 422, invalid({ email: [limit] }));
    const { user, email, send } = renderMembership();
    await user.type(email, INVITEE);
    await user.click(send);
    await waitFor(() => expectFieldError(email, limit));
    expect(document.activeElement).toBe(email);
  });

  it('says it is sending while the invitation is on its way', async () => {
    const invite = answer(
      'POST /settings/companies/{id}/invitations',
      201,
      { success: true, id: 'invitation-1' },
      { held: true },
    );
    const { user, email, send } = renderMembership();
    await user.type(email, INVITEE);
    await user.click(send);
    await waitFor(() => expectBusy(send, 'Sending…'));
    answer('GET /settings/companies/{id}/invitations', 200, []);
    invite.release();
    await screen.findByText(`Invitation sent to ${INVITEE}.`);
  });

  it('sends an invitation with the default role, says so, and lists it as pending', async () => {
    const invite = answer('POST /settings/companies/{id}/invitations', 201, {
      success: true,
      id: 'invitation-1',
    });
    const { user, email, send } = renderMembership();
    await user.type(email, INVITEE);
    answer('GET /settings/companies/{id}/invitations', 200, [
      {
        id: 'invitation-1',
        email: INVITEE,
        role: 'member',
        created_at: '2026-01-05T10:00:00.000Z',
      },
    ]);
    await user.click(send);
    await screen.findByText(`Invitation sent to ${INVITEE}.`);
    expect(invite.requests[0]?.body).toEqual({ email: INVITEE, role: 'member' });
    const pending = await screen.findByRole('list', { name: 'Pending invitations' });
    const [row] = within(pending).getAllByRole('listitem');
    expect(row?.textContent).toContain(INVITEE);
    expect(row?.textContent).toContain('Member');
    expect(
      within(row!).getByRole('button', { name: `Cancel invitation to ${INVITEE}` }),
    ).toBeTruthy();
    await waitFor(() => expect((email as HTMLInputElement).value).toBe(''));
  });

  it('says no invitation is waiting for an answer', async () => {
    renderMembership();
    await screen.findByText('No invitations are waiting for an answer.');
    expect(screen.queryByRole('list', { name: 'Pending invitations' })).toBeNull();
  });
});
