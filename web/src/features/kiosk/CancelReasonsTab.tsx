import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CANCEL_REASON_LABELS } from '#shared/billing.ts';
import { fetchCancelReasons, kioskKeys } from '../../api/kiosk.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { loadFailure } from '../../state/queryClient.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { formatDate } from '../settings/ApiTokensSection.tsx';
import type { KioskTabProps } from './tab.ts';
import './metrics/metrics.css';
import { formatCount } from '../../lib/format.ts';

/**
 * The kiosk's Cancel reasons tab (docs/kiosk.md "Cancel reasons", docs/kiosk.md `GET
 * /spark/cancelReasons`): how many cancelling teams gave each
 * reason, and the latest comments they wrote, newest first.
 */
export function CancelReasonsTab(_props: KioskTabProps) {
  const base = useId();
  const reasons = useQuery({
    queryKey: kioskKeys.cancelReasons,
    queryFn: ({ signal }) => fetchCancelReasons(signal),
  });
  return (
    <section className="stack" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Cancel reasons
      </h2>
      {reasons.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Loading the cancel reasons…
        </p>
      )}
      {reasons.status === 'error' && (
        <LoadFailed
          title="The cancel reasons could not be loaded."
          message={loadFailure(reasons.error)}
          onRetry={() => void reasons.refetch()}
        />
      )}
      {reasons.status === 'success' && (
        <>
          <table className="kiosk-table">
            <caption className="visually-hidden">
              Cancel reasons and how often each was given
            </caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col" className="kiosk-table__number">
                  Teams
                </th>
              </tr>
            </thead>
            <tbody>
              {reasons.data.reasons.map((r) => (
                <tr key={r.reason}>
                  <th scope="row">{CANCEL_REASON_LABELS[r.reason]}</th>
                  <td className="kiosk-table__number">{formatCount(r.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3 id={`${base}-comments`} className="settings-subtitle">
            Latest comments
          </h3>
          {reasons.data.comments.length === 0 ? (
            <p className="muted">No comments yet.</p>
          ) : (
            <ul className="kiosk-comments" aria-labelledby={`${base}-comments`}>
              {reasons.data.comments.map((c, i) => (
                <li key={`${c.team?.id ?? 'gone'}-${i}`}>
                  <figure className="kiosk-comment">
                    <blockquote>{c.description}</blockquote>
                    <figcaption className="muted">
                      {c.team?.name ?? 'A deleted team'} · {CANCEL_REASON_LABELS[c.reason]} ·{' '}
                      {formatDate(c.at)}
                    </figcaption>
                  </figure>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
