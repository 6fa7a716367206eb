import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PollVotes } from '#shared/contract/polls.ts';
import { isApiError } from '../../api/client.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { downloadCsv, toCsv } from '../analytics/csv.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { allPollVotes, fetchPollVotes } from './api.ts';
import { ResultList } from './ResultList.tsx';
import { formatDateTime } from '../../lib/format.ts';

/**
 * The votes download's columns (docs/polls.md "For the team"): the voter's key (a pseudonym),
 * the answer (its label), when (ISO-8601, UTC), and the identifying value when the poll keeps it.
 */
export const VOTE_COLUMNS = ['voter', 'answer', 'voted_at', 'value'] as const;

/** The votes as CSV text (cells escaped against spreadsheet formulas by `toCsv`). */
export const votesCsv = (poll: PollVotes['poll'], votes: PollVotes['votes']): string =>
  toCsv([
    VOTE_COLUMNS,
    ...votes.map((v) => [
      v.voter,
      poll.options[v.option]?.label ?? String(v.option),
      v.voted_at,
      v.value,
    ]),
  ]);

/**
 * The design's poll on its analytics page (docs/polls.md "For the team"): the results, the votes
 * per answer by day, and the votes as a CSV download. Nothing shows for a design without a poll
 * (the route's 404). Tests: ./PollSection.test.tsx.
 */
export function PollSection({ designId }: { designId: string }) {
  const votes = useQuery({
    queryKey: ['poll-votes', designId],
    queryFn: ({ signal }) => fetchPollVotes(designId, undefined, signal),
    retry: false,
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (votes.error && isApiError(votes.error) && votes.error.status === 404) return null;
  if (votes.error)
    return (
      <section className="card stack" aria-labelledby="poll-section-title">
        <h2 id="poll-section-title">Poll</h2>
        <Notice tone="error">{actionFailure(votes.error)}</Notice>
      </section>
    );
  if (!votes.data)
    return (
      <p className="muted" role="status">
        <Spinner /> Loading the poll…
      </p>
    );
  const { poll, results, days } = votes.data;

  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      downloadCsv(
        votesCsv(poll, await allPollVotes(designId, votes.data!)),
        `poll-votes-${designId}.csv`.replace(/[^\w.-]/g, '-'),
      );
    } catch (error) {
      setFailure(actionFailure(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card stack" aria-labelledby="poll-section-title">
      <h2 id="poll-section-title">Poll: {poll.question || 'results'}</h2>
      {poll.closes_at && (
        <p className="muted">
          {poll.closed ? 'Voting closed' : 'Voting closes'} {formatDateTime(poll.closes_at)}.
        </p>
      )}
      <ResultList options={poll.options} results={results} />
      {days.length > 0 && (
        <table className="analytics-table">
          <caption className="visually-hidden">Votes per answer by day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {poll.options.map((o, i) => (
                <th scope="col" key={i}>
                  {o.label}
                </th>
              ))}
              <th scope="col">All</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                {d.counts.map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
                <td>{d.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {failure && <Notice tone="error">{failure}</Notice>}
      <div>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void download()}
          disabled={busy || results.total === 0}
        >
          {busy ? (
            <>
              <Spinner /> Preparing the votes…
            </>
          ) : (
            'Download votes (CSV)'
          )}
        </button>
      </div>
    </section>
  );
}
