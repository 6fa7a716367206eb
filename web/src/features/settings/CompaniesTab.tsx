import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSingleFieldForm } from './useSingleFieldForm.ts';
import { CreateTeamBody } from '#shared/contract/teams.ts';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { isApiError } from '../../api/client.ts';
import {
  answerInvitation,
  createTeam,
  fetchInvitationByCode,
  fetchPendingInvitations,
  switchTeam,
  type PendingInvitation,
} from '../../api/settings.ts';
import { Notice } from '../../components/Notice.tsx';
import { teamsQuery } from '../../hooks/queries.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { useAppStore } from '../../state/store.ts';
import { CompanyNameForm } from './CompanyNameForm.tsx';
import { LoadedList } from '../../components/LoadedList.tsx';
import { ActionNotice, type ActionMessage } from '../../components/ActionNotice.tsx';
import { actionFailure } from '../../lib/formFailure.ts';

/** The invitations to show, and why the e-mailed link's invitation is not among them. */
interface Invitations {
  invitations: PendingInvitation[];
  /** The link's invitation could not be read: the server's message (null: fine, or no link). */
  linkProblem: string | null;
}

/**
 * The invitations to show: the one of the e-mailed link (`?invitation={code}`, which can be
 * accepted) first, then the pending ones of a verified address (which can only be declined
 * here: accepting needs the link's code; docs/adr/0012-invitations.md "Invitations").
 */
async function loadInvitations(code: string | null, signal: AbortSignal): Promise<Invitations> {
  let linkProblem: string | null = null;
  const [linked, pending] = await Promise.all([
    code
      ? fetchInvitationByCode(code, signal).then(
          (found) => ({ ...found, code }) as PendingInvitation,
          (error: unknown) => {
            if (signal.aborted) throw error;
            linkProblem = isApiError(error) ? error.message : 'This invitation could not be read.';
            return undefined;
          },
        )
      : undefined,
    fetchPendingInvitations(signal),
  ]);
  const invitations = linked ? [linked, ...pending.filter((p) => p.id !== linked.id)] : pending;
  return { invitations, linkProblem };
}

/** The invitations query of the link's `code` (one read for both selections below). */
const invitationsQuery = (code: string | null) =>
  queryOptions({
    queryKey: queryKeys.invitations(code ?? ''),
    queryFn: ({ signal }) => loadInvitations(code, signal),
  });

/**
 * Companies tab: the user's teams, switching, creating one, and invitations to answer (first
 * when there are any). Opened from an invitation e-mail's link, it carries the link's code and
 * offers to accept that invitation.
 */
export function CompaniesTab() {
  const base = useId();
  const currentTeamId = useAppStore((s) => s.user?.current_team_id ?? null);
  const userEmail = useAppStore((s) => s.user?.email ?? null);
  const refreshSession = useAppStore((s) => s.refreshSession);
  const location = useLocation();
  const navigate = useNavigate();
  const code = new URLSearchParams(location.search).get('invitation')?.trim() || null;
  const queryClient = useQueryClient();
  const teams = useQuery(teamsQuery());
  const invitations = useQuery({ ...invitationsQuery(code), select: (d) => d.invitations });
  const linkProblem =
    useQuery({ ...invitationsQuery(code), select: (d) => d.linkProblem }).data ?? null;
  const reloadTeams = () => void queryClient.invalidateQueries({ queryKey: queryKeys.teams.list });
  const [message, setMessage] = useState<ActionMessage>();

  /** After the link's invitation is answered the code has done its job: out of the address. */
  function forgetCode() {
    if (!code) return;
    const next = new URLSearchParams(location.search);
    next.delete('invitation');
    const search = next.toString();
    // The tab lives in the hash: keep it.
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  }
  const [busy, setBusy] = useState<string | null>(null);

  async function act(key: string, action: () => Promise<string>) {
    if (busy) return;
    setBusy(key);
    setMessage(undefined);
    try {
      // The button used goes away (an answered invitation, the Switch of the now current
      // company): focus moves to the outcome.
      setMessage({ tone: 'success', text: await action(), focus: true });
    } catch (error) {
      setMessage({ tone: 'error', text: actionFailure(error), focus: true });
    } finally {
      setBusy(null);
    }
  }

  // Invitations waiting for an answer come first: the invitation e-mail sends people here.
  const waiting =
    (invitations.status === 'success' && invitations.data.length > 0) || linkProblem !== null;
  const invitationSection = (
    <section className="settings-section" aria-labelledby={`${base}-invitations`}>
      <h2 id={`${base}-invitations`} className="card__title">
        Invitations
      </h2>
      <div className="stack">
        {linkProblem && <Notice tone="error">{linkProblem}</Notice>}
        <LoadedList
          query={invitations}
          loadingText="Loading invitations…"
          emptyText="You have no pending invitations."
          labelledBy={`${base}-invitations`}
        >
          {(invitation) => {
            const otherAddress =
              invitation.email !== undefined &&
              userEmail !== null &&
              invitation.email !== userEmail;
            return (
              <li key={invitation.id} className="item-list__item">
                <div className="item-list__main">
                  <p className="item-list__name">{invitation.team?.name}</p>
                  <p className="muted item-list__meta">
                    Invited as {roleLabel(invitation.role).toLowerCase()}
                  </p>
                  {otherAddress && (
                    <p className="muted item-list__meta">
                      This invitation was sent to {invitation.email}. Sign in with that address to
                      accept it.
                    </p>
                  )}
                  {!invitation.code && (
                    <p className="muted item-list__meta">
                      To accept, open the invitation link from your e-mail.
                    </p>
                  )}
                </div>
                <div className="item-list__actions">
                  {(otherAddress
                    ? []
                    : invitation.code
                      ? (['accept', 'reject'] as const)
                      : (['reject'] as const)
                  ).map((answer) => (
                    <button
                      key={answer}
                      type="button"
                      className={`button button--small${answer === 'reject' ? ' button--secondary' : ''}`}
                      aria-disabled={busy !== null}
                      onClick={() =>
                        void act(`${answer}-${invitation.id}`, async () => {
                          await answerInvitation(invitation.id, answer, invitation.code);
                          if (invitation.code) forgetCode();
                          else void invitations.refetch();
                          if (answer === 'accept') {
                            reloadTeams();
                            await refreshSession();
                          }
                          return answer === 'accept'
                            ? `You joined ${invitation.team?.name}.`
                            : `You declined the invitation to ${invitation.team?.name}.`;
                        })
                      }
                    >
                      {answer === 'accept' ? 'Accept' : 'Decline'}
                      <span className="visually-hidden">
                        {' '}
                        the invitation to {invitation.team?.name}
                      </span>
                    </button>
                  ))}
                </div>
              </li>
            );
          }}
        </LoadedList>
      </div>
    </section>
  );

  return (
    <div className="stack-lg">
      {waiting && invitationSection}
      <section className="settings-section" aria-labelledby={`${base}-teams`}>
        <h2 id={`${base}-teams`} className="card__title">
          Your companies
        </h2>
        <div className="stack">
          <ActionNotice message={message} />
          <LoadedList
            query={teams}
            loadingText="Loading companies…"
            emptyText="You do not belong to any company yet."
            labelledBy={`${base}-teams`}
            testId="team-list"
          >
            {(team) => {
              const current = team.id === currentTeamId;
              return (
                <li key={team.id} className="item-list__item">
                  <div className="item-list__main">
                    <p className="item-list__name">
                      <Link to={`/settings/companies/${encodeURIComponent(team.id)}`}>
                        {team.name}
                      </Link>
                      {current && <span className="pill">Current</span>}
                    </p>
                    <p className="muted item-list__meta">{roleLabel(team.pivot?.role)}</p>
                  </div>
                  <div className="item-list__actions">
                    {!current && (
                      <button
                        type="button"
                        className="button button--small button--secondary"
                        aria-disabled={busy !== null}
                        onClick={() =>
                          void act(`switch-${team.id}`, async () => {
                            await switchTeam(team.id);
                            await refreshSession();
                            return `You are now working in ${team.name}.`;
                          })
                        }
                      >
                        Switch<span className="visually-hidden"> to {team.name}</span>
                      </button>
                    )}
                  </div>
                </li>
              );
            }}
          </LoadedList>
        </div>
      </section>

      <CreateTeamForm
        onCreated={async (name) => {
          reloadTeams();
          await refreshSession();
          setMessage({ tone: 'success', text: `The company ${name} was created.` });
        }}
      />

      {!waiting && invitationSection}
    </div>
  );
}

function CreateTeamForm({ onCreated }: { onCreated: (name: string) => Promise<void> }) {
  const base = useId();
  const form = useSingleFieldForm({
    field: 'name',
    schema: CreateTeamBody.shape.name,
    emptyMessage: 'Enter a name for the company.',
    resetOnSuccess: true,
    action: async (name) => {
      const answer = await createTeam(name);
      await onCreated(answer.team?.name ?? name);
    },
  });

  return (
    <CompanyNameForm
      formId={base}
      title="Create a company"
      form={form}
      submitLabel="Create company"
      busyLabel="Creating…"
    />
  );
}

export function roleLabel(role: string | undefined): string {
  if (!role) return 'Member';
  return role.charAt(0).toUpperCase() + role.slice(1);
}
