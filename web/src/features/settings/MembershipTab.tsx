import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSingleFieldForm } from './useSingleFieldForm.ts';
import { InviteBody } from '#shared/contract/teams.ts';
import { useNavigate } from 'react-router-dom';
import {
  cancelInvitation,
  fetchRoles,
  fetchTeamInvitations,
  removeMember,
  sendInvitation,
  updateMemberRole,
  type Option,
  type TeamDetails,
  type TeamMember,
} from '../../api/settings.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { FormTextField } from '../../components/FormFields.tsx';
import { STALE_TIME } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { LoadedList } from '../../components/LoadedList.tsx';
import { ActionNotice, type ActionMessage } from '../../components/ActionNotice.tsx';
import { formatDate } from './ApiTokensSection.tsx';
import { roleLabel } from './CompaniesTab.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { SubmitButton } from './ProfileTab.tsx';

/** The role of the team's owner: held by `owner_id` alone, never given to a member. */
const OWNER_ROLE = 'owner';
/** The role an invitation starts with (docs/adr/0023-team-roles.md "Team roles": "defaulting to a default role"). */
const DEFAULT_ROLE = 'member';

/**
 * The roles an owner can give a member or an invitation: those of `GET
 * /settings/companies/roles` (docs/adr/0023-team-roles.md "Team roles") except owner, which the
 * server refuses (one owner per team, no transfer; docs/adr/0015-team-roles-in-the-spa.md "Team
 * roles in the SPA").
 */
function assignableRoles(roles: readonly Option[]): Option[] {
  return roles.filter((role) => role.value !== OWNER_ROLE);
}

/**
 * Team settings, "membership" tab: members (roles, remove, leave) and invitations. A role is
 * a choice only when there is more than one role to give; otherwise it is shown as text.
 */
export function MembershipTab({
  team,
  canManage,
  onChanged,
}: {
  team: TeamDetails;
  /** The owner or a team admin: changes roles, removes members, sends invitations. */
  canManage: boolean;
  onChanged: () => void;
}) {
  const base = useId();
  const navigate = useNavigate();
  const me = useAppStore((s) => s.user);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const queryClient = useQueryClient();
  const roles = useQuery({
    queryKey: queryKeys.reference.roles,
    queryFn: ({ signal }) => fetchRoles(signal),
    staleTime: STALE_TIME.reference,
  });
  const assignable = roles.data ? assignableRoles(roles.data) : [];
  const [message, setMessage] = useState<ActionMessage>();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [busy, setBusy] = useState(false);

  async function changeRole(member: TeamMember, role: string) {
    setMessage(undefined);
    try {
      await updateMemberRole(team.id, member.id, role);
      setMessage({
        tone: 'success',
        text: `${member.name}’s role is now ${assignable.find((r) => r.value === role)?.text ?? roleLabel(role)}.`,
      });
      onChanged();
    } catch (error) {
      setMessage({ tone: 'error', text: actionFailure(error) });
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    const leaving = removing.id === me?.id;
    setBusy(true);
    try {
      await removeMember(team.id, removing.id);
      if (leaving) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.teams.list });
        await refreshSession();
        navigate('/settings#/companies');
        return;
      }
      // The row and its Remove button go: focus moves to the outcome.
      setMessage({
        tone: 'success',
        text: `${removing.name} was removed from ${team.name}.`,
        focus: true,
      });
      onChanged();
    } catch (error) {
      setMessage({ tone: 'error', text: actionFailure(error) });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  }

  const leaving = removing?.id === me?.id;
  return (
    <div className="stack-lg">
      <section className="settings-section" aria-labelledby={`${base}-members`}>
        <h2 id={`${base}-members`} className="card__title">
          Members
        </h2>
        <div className="stack">
          <ActionNotice message={message} />
          <ul className="item-list" aria-labelledby={`${base}-members`}>
            {team.users.map((member) => {
              const self = member.id === me?.id;
              const memberIsOwner = member.id === team.owner_id;
              return (
                <li key={member.id} className="item-list__item">
                  <div className="item-list__main">
                    <p className="item-list__name">
                      {member.name}
                      {self && <span className="pill">You</span>}
                    </p>
                    <p className="muted item-list__meta break">{member.email}</p>
                  </div>
                  <div className="item-list__actions">
                    {canManage && !memberIsOwner && !self && assignable.length > 1 ? (
                      <>
                        <label className="visually-hidden" htmlFor={`${base}-role-${member.id}`}>
                          Role of {member.name}
                        </label>
                        <select
                          id={`${base}-role-${member.id}`}
                          className="input input--select"
                          value={member.pivot?.role ?? ''}
                          onChange={(event) => void changeRole(member, event.target.value)}
                        >
                          {assignable.map((role) => (
                            <option key={role.value} value={role.value}>
                              {role.text}
                            </option>
                          ))}
                        </select>
                      </>
                    ) : (
                      <span className="muted">{roleLabel(member.pivot?.role)}</span>
                    )}
                    {((canManage && !self && !memberIsOwner) || (self && !memberIsOwner)) && (
                      <button
                        type="button"
                        className="button button--small button--danger"
                        onClick={() => setRemoving(member)}
                      >
                        {self ? (
                          'Leave company'
                        ) : (
                          <>
                            Remove<span className="visually-hidden"> {member.name}</span>
                          </>
                        )}
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </section>
      {canManage && <Invitations teamId={team.id} roles={assignable} />}
      <ConfirmDialog
        open={removing !== null}
        title={leaving ? `Leave ${team.name}?` : `Remove ${removing?.name ?? ''}?`}
        confirmLabel={leaving ? 'Leave company' : 'Remove member'}
        pending={busy}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <p>
          {leaving
            ? 'You lose access to this company’s designs until someone invites you again.'
            : `${removing?.name ?? ''} loses access to this company’s designs.`}
        </p>
      </ConfirmDialog>
    </div>
  );
}

/**
 * Invitations of a team (owner and admins): send one by e-mail with a role (a choice when `roles`
 * holds more than one; else the default role), and the pending ones, which can be cancelled.
 */
function Invitations({ teamId, roles }: { teamId: string; roles: readonly Option[] }) {
  const base = useId();
  const queryClient = useQueryClient();
  const invitationsKey = queryKeys.teams.invitations(teamId);
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => fetchTeamInvitations(teamId, signal),
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: invitationsKey });
  const [picked, setPicked] = useState<string>();
  const role =
    picked ?? roles.find((r) => r.value === DEFAULT_ROLE)?.value ?? roles[0]?.value ?? DEFAULT_ROLE;
  const [cancelled, setCancelled] = useState<ActionMessage>();
  const form = useSingleFieldForm({
    field: 'email',
    schema: InviteBody.shape.email,
    emptyMessage: 'Enter the e-mail address to invite.',
    resetOnSuccess: true,
    action: async (email) => {
      setCancelled(undefined);
      await sendInvitation(teamId, { email, role });
      reload();
      return `Invitation sent to ${email}.`;
    },
  });
  const { setMessage } = form;

  async function cancel(id: string, to: string) {
    setMessage(null);
    try {
      await cancelInvitation(id);
      // The row and its Cancel button go: focus moves to the outcome.
      setCancelled({
        tone: 'success',
        text: `The invitation to ${to} was cancelled.`,
        focus: true,
      });
      reload();
    } catch (error) {
      setCancelled({ tone: 'error', text: actionFailure(error) });
    }
  }

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Invitations
      </h2>
      <div className="stack">
        <form id={base} className="stack" noValidate onSubmit={form.submit}>
          {form.message && <Notice tone={form.message.tone}>{form.message.text}</Notice>}
          <FormTextField
            control={form.form.control}
            field={form.field}
            id={`${base}-email`}
            label="Invite by e-mail"
            type="email"
            autoComplete="off"
            hint={`They join with the role ${roleLabel(role)} once they accept.`}
          />
          {roles.length > 1 && (
            <div className="field">
              <label htmlFor={`${base}-role`} className="field__label">
                Role
              </label>
              <select
                id={`${base}-role`}
                name="role"
                className="input input--select"
                value={role}
                onChange={(event) => setPicked(event.target.value)}
              >
                {roles.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.text}
                  </option>
                ))}
              </select>
            </div>
          )}
          <SubmitButton pending={form.pending} label="Send invitation" busyLabel="Sending…" />
        </form>
        <h3 id={`${base}-pending`} className="settings-subtitle">
          Pending invitations
        </h3>
        <ActionNotice message={cancelled} />
        <LoadedList
          query={invitations}
          loadingText="Loading invitations…"
          emptyText="No invitations are waiting for an answer."
          labelledBy={`${base}-pending`}
        >
          {(invitation) => (
            <li key={invitation.id} className="item-list__item">
              <div className="item-list__main">
                <p className="item-list__name break">{invitation.email}</p>
                <p className="muted item-list__meta">
                  {roleLabel(invitation.role)}
                  {invitation.created_at && ` · sent ${formatDate(invitation.created_at)}`}
                </p>
              </div>
              <div className="item-list__actions">
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => void cancel(invitation.id, invitation.email)}
                >
                  Cancel
                  <span className="visually-hidden"> invitation to {invitation.email}</span>
                </button>
              </div>
            </li>
          )}
        </LoadedList>
      </div>
    </section>
  );
}
