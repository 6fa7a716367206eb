import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '#shared/billing.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { loadFailure } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { fetchInvoices } from './api.ts';
import { formatBillingDate } from './format.ts';
import { formatMoney } from '../../lib/format.ts';
import { shownInvoices } from './invoices.ts';
import './billing.css';

/**
 * The team's paid invoices, newest first, each downloadable as the Stripe-hosted PDF through
 * `/settings/invoice/{id}` (docs/billing.md "Flows"; a link, the server answers 302). Read when the
 * section opens.
 * @param teamId the team of the team paths; undefined for the user paths (the current team).
 * @param billedTeamId the team's own id in either case (the cache key).
 */
export function InvoicesSection({
  teamId,
  billedTeamId,
  headingId,
}: {
  teamId: string | undefined;
  billedTeamId: string;
  headingId: string;
}) {
  const invoices = useQuery({
    queryKey: queryKeys.billing.invoices(billedTeamId),
    queryFn: ({ signal }) => fetchInvoices(teamId, signal),
  });
  return (
    <section className="settings-section stack" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Invoices
      </h2>
      {invoices.isPending && (
        <p className="muted" role="status">
          <Spinner /> Loading the invoices…
        </p>
      )}
      {invoices.isError && (
        <LoadFailed
          title="We could not load the invoices"
          message={loadFailure(invoices.error)}
          onRetry={() => void invoices.refetch()}
        />
      )}
      {invoices.data && <InvoiceTable invoices={shownInvoices(invoices.data)} />}
    </section>
  );
}

function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  if (invoices.length === 0) return <p className="muted">No invoices yet.</p>;
  return (
    <div className="invoice-table-wrap">
      <table className="invoice-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Invoice</th>
            <th scope="col" className="invoice-table__amount">
              Total
            </th>
            <th scope="col">
              <span className="visually-hidden">Download</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => {
            const name = invoice.number ?? invoice.id;
            return (
              <tr key={invoice.id}>
                <td>{formatBillingDate(invoice.date)}</td>
                <td>{name}</td>
                <td className="invoice-table__amount">
                  {formatMoney(invoice.total, invoice.currency)}
                </td>
                <td>
                  <a href={invoice.download_url} target="_blank" rel="noopener noreferrer">
                    Download PDF<span className="visually-hidden"> of invoice {name}</span>
                  </a>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
