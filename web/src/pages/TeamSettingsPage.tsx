import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, isApiError } from '../api/client.ts';
import { fetchTeam } from '../api/settings.ts';
import { Notice } from '../components/Notice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { SettingsIcon } from '../components/SettingsIcon.tsx';
import { Tabs, type TabItem } from '../components/Tabs.tsx';
import { SubscriptionPanel } from '../features/billing/SubscriptionPanel.tsx';
import { DataTab } from '../features/settings/DataTab.tsx';
import { DeveloperTab } from '../features/settings/DeveloperTab.tsx';
import { MembershipTab } from '../features/settings/MembershipTab.tsx';
import { TeamGeneralTab } from '../features/settings/TeamGeneralTab.tsx';
import { WebhooksTab } from '../features/settings/WebhooksTab.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useHashTab } from '../hooks/useHashTab.ts';
import { loadFailure } from '../state/queryClient.ts';
import { queryKeys } from '../state/queryKeys.ts';
import { useAppStore } from '../state/store.ts';
import { SignedInOnly } from '../components/SignedInOnly.tsx';

type TeamTab =
  | 'companies'
  | 'invoices'
  | 'membership'
  | 'payment-method'
  | 'subscription'
  | 'developer'
  | 'webhooks'
  | 'data';
/**
 * docs/accounts.md "Screens": "tabs: companies, invoice, membership, payment method, subscription";
 * the billing ones are the team's, which its owner manages. Developer: the render signing secret
 * (docs/developer-api.md "Signed render URLs"). Webhooks: the team's webhook endpoints
 * (docs/developer-api.md "Webhooks"). Data: the team's data stores and web APIs
 * (docs/data-sources.md "In the settings").
 */
const TABS: readonly TabItem<TeamTab>[] = [
  { id: 'companies', label: 'Company', icon: <SettingsIcon name="company" /> },
  { id: 'invoices', label: 'Invoices', icon: <SettingsIcon name="invoices" /> },
  { id: 'membership', label: 'Membership', icon: <SettingsIcon name="membership" /> },
  { id: 'payment-method', label: 'Payment method', icon: <SettingsIcon name="payment-method" /> },
  { id: 'subscription', label: 'Subscription', icon: <SettingsIcon name="subscription" /> },
  { id: 'developer', label: 'Developer', icon: <SettingsIcon name="developer" /> },
  { id: 'webhooks', label: 'Webhooks', icon: <SettingsIcon name="webhooks" /> },
  { id: 'data', label: 'Data', icon: <SettingsIcon name="data" /> },
];
const TAB_IDS = TABS.map((t) => t.id);

/** For a 404: the server does not say whether the team is gone or the user left it. */
const TEAM_NOT_FOUND_MESSAGE = 'This company does not exist, or you are not one of its members.';

/**
 * One team with its members (`GET /settings/companies/json/{id}`); a 404 gets
 * {@link TEAM_NOT_FOUND_MESSAGE} instead of the server's bare "Not found.".
 * @throws ApiError as `fetchTeam` does.
 */
async function loadTeam(teamId: string, signal: AbortSignal) {
  try {
    return await fetchTeam(teamId, signal);
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw new ApiError(404, TEAM_NOT_FOUND_MESSAGE);
    throw error;
  }
}

/** Team settings at `/settings/companies/{teamId}` (docs/accounts.md "Screens"), tabs in the hash. */
export function TeamSettingsPage() {
  return (
    <SignedInOnly>
      <TeamSettings />
    </SignedInOnly>
  );
}

function TeamSettings() {
  const { teamId = '' } = useParams();
  const { tab, select } = useHashTab(TAB_IDS);
  const idBase = useId();
  const me = useAppStore((s) => s.user);
  const queryClient = useQueryClient();
  const team = useQuery({
    queryKey: queryKeys.teams.one(teamId),
    queryFn: ({ signal }) => loadTeam(teamId, signal),
  });
  // A change of the team (its name, members, roles) reads it again, with its invitations and
  // the lists that show its name or seats (the companies, the current team, its billing).
  const onChanged = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing.team(teamId) });
  };
  useDocumentTitle(team.data ? `${team.data.name} settings` : 'Company settings');
  const isOwner = team.data !== undefined && team.data.owner_id === me?.id;
  // Admins manage members and invitations too (docs/adr/0023-team-roles.md "Team roles").
  const canManage =
    isOwner || team.data?.users.find((u) => u.id === me?.id)?.pivot.role === 'admin';

  return (
    <div className="container stack">
      <p>
        <Link to="/settings#/companies">← All companies</Link>
      </p>
      <h1 className="page-title">{team.data ? team.data.name : 'Company settings'}</h1>
      {team.isPending && (
        <p className="muted" role="status">
          <Spinner /> Loading the company…
        </p>
      )}
      {team.isError && (
        <Notice tone="error" title="We could not load this company">
          {loadFailure(team.error)}
        </Notice>
      )}
      {team.data && (
        <Tabs
          idBase={idBase}
          label="Company settings"
          tabs={TABS}
          active={tab}
          onSelect={(next, keyboard) => select(next, { replace: keyboard })}
        >
          {tab === 'companies' && (
            <TeamGeneralTab
              key={team.data.id}
              team={team.data}
              isOwner={isOwner}
              onChanged={onChanged}
            />
          )}
          {tab === 'membership' && (
            <MembershipTab team={team.data} canManage={canManage} onChanged={onChanged} />
          )}
          {tab === 'developer' && <DeveloperTab teamId={team.data.id} canManage={canManage} />}
          {tab === 'webhooks' && <WebhooksTab teamId={team.data.id} canManage={canManage} />}
          {tab === 'data' && <DataTab teamId={team.data.id} canManage={canManage} />}
          {(tab === 'invoices' || tab === 'payment-method' || tab === 'subscription') && (
            <SubscriptionPanel
              key={`${team.data.id}-${tab}`}
              team={team.data}
              teamId={team.data.id}
              part={tab}
            />
          )}
        </Tabs>
      )}
    </div>
  );
}
