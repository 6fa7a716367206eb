import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { SignedInOnly } from '../components/SignedInOnly.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { campaignsQuery } from '../features/analytics/api.ts';
import { campaignPath } from '../features/analytics/CampaignField.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { loadFailure } from '../state/queryClient.ts';
import '../features/analytics/analytics.css';

/** What the page says while the team has no campaign (docs/analytics.md "Campaigns"). */
export const NO_CAMPAIGNS_TEXT =
  'No campaigns yet. Give a PicSnippet a campaign name on its page, and designs with the same name are counted together here.';

/**
 * The team's campaigns, `/campaigns` (docs/analytics.md "Campaigns"): each name with how many
 * designs carry it, linking to its report; loading, failed and empty states. Tests:
 * ./CampaignPages.test.tsx.
 */
export function CampaignsPage() {
  useDocumentTitle('Campaigns');
  return (
    <SignedInOnly>
      <Campaigns />
    </SignedInOnly>
  );
}

function Campaigns() {
  const campaigns = useQuery(campaignsQuery());
  return (
    <div className="container stack-lg analytics">
      <p>
        <Link to="/dashboard">
          <span aria-hidden="true">← </span>Dashboard
        </Link>
      </p>
      <h1 className="page-title">Campaigns</h1>
      <p className="muted">
        PicSnippets with the same campaign name, counted together. Name a PicSnippet&apos;s campaign
        on its page.
      </p>
      {campaigns.isError ? (
        <LoadFailed
          title="The campaigns could not be loaded"
          message={loadFailure(campaigns.error)}
          onRetry={() => void campaigns.refetch()}
        />
      ) : campaigns.data === undefined ? (
        <p className="muted" role="status">
          <Spinner /> Loading campaigns…
        </p>
      ) : campaigns.data.campaigns.length === 0 ? (
        <p className="muted">{NO_CAMPAIGNS_TEXT}</p>
      ) : (
        <table className="analytics-table">
          <caption className="visually-hidden">Campaigns</caption>
          <thead>
            <tr>
              <th scope="col">Campaign</th>
              <th scope="col" className="analytics-table__number">
                PicSnippets
              </th>
            </tr>
          </thead>
          <tbody>
            {campaigns.data.campaigns.map((c) => (
              <tr key={c.name}>
                <th scope="row">
                  <Link to={campaignPath(c.name)}>{c.name}</Link>
                </th>
                <td className="analytics-table__number">{c.designs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
