import { Navigate, useParams } from 'react-router-dom';

/**
 * docs/adr/0026-billing-in-the-spa.md "Billing in the SPA": "Plan settings at
 * /settings/subscription or /settings/{teamsPrefix}/{teamId}/ subscription": opened in the browser,
 * those addresses show the subscription tab of the user or team settings (`#/subscription`), where
 * the plan is managed.
 */
export function PlanSettingsRedirect() {
  const { teamId } = useParams();
  const to = teamId
    ? `/settings/companies/${encodeURIComponent(teamId)}#/subscription`
    : '/settings#/subscription';
  return <Navigate to={to} replace />;
}
