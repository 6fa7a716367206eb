import { HealthPanel } from '../features/status/HealthPanel.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';

export function StatusPage() {
  useDocumentTitle('System status');
  return (
    <div className="container container--narrow stack-lg">
      <HealthPanel headingLevel={1} />
      <p className="muted">
        The status comes from <code>GET /api/health</code>, which checks that the API can reach each
        service and reports how long the check took.
      </p>
    </div>
  );
}
