import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { VoteAnswer } from '#shared/contract/polls.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { castVote, fetchBallot } from './api.ts';
import { ResultList } from './ResultList.tsx';
import './polls.css';
import { formatDateTime } from '../../lib/format.ts';

/** How long the vote page shows "Thanks" before it opens the answer's link, ms. */
export const REDIRECT_DELAY_MS = 1200;

/** How the page leaves for an answer's link (a seam for the component test). */
export const leave = { to: (url: string) => window.location.assign(url) };

/**
 * `/poll?link=…`: the page an e-mail's poll answer opens (docs/polls.md "Voting"). It reads the
 * ballot and votes only when the recipient presses **Vote** (docs/polls.md "Scanners": link
 * scanners open the link, they do not press buttons). After the vote it shows the results and
 * goes on to the answer's link when it has one. An earlier vote or a closed poll shows the
 * results with the server's message. Tests: ./PollVotePage.test.tsx.
 */
export function PollVotePage() {
  useDocumentTitle('Vote');
  const [params] = useSearchParams();
  const link = params.get('link') ?? '';
  const ballotQuery = useQuery({
    queryKey: ['poll-ballot', link],
    queryFn: ({ signal }) => fetchBallot(link, signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const ballot = ballotQuery.data ?? null;
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<VoteAnswer | null>(null);

  useEffect(() => {
    if (!answer?.redirect || !answer.recorded) return;
    const timer = setTimeout(() => leave.to(answer.redirect!), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [answer]);

  const vote = async () => {
    setBusy(true);
    setFailure(null);
    try {
      setAnswer(await castVote(link));
    } catch (error) {
      setFailure(actionFailure(error));
    } finally {
      setBusy(false);
    }
  };

  if (!ballot)
    return (
      <PollFrame>
        {ballotQuery.error ? (
          <Notice tone="error">{actionFailure(ballotQuery.error)}</Notice>
        ) : (
          <p className="poll-vote__loading" role="status">
            <Spinner /> Loading the poll…
          </p>
        )}
      </PollFrame>
    );

  const chosen = ballot.options[ballot.option]?.label ?? '';
  const results = answer?.results ?? ballot.results;
  const mine = answer?.option ?? ballot.voted;
  const message =
    answer?.message ??
    (ballot.closed
      ? 'This poll has closed. Here are the final results.'
      : ballot.voted !== null
        ? 'You have already voted in this poll. Your first vote counts.'
        : null);

  return (
    <PollFrame question={ballot.question}>
      {failure && <Notice tone="error">{failure}</Notice>}
      {answer?.recorded && (
        <Notice tone="success" title="Thanks for voting!">
          {answer.redirect ? 'Taking you on in a moment…' : 'Here is how everyone voted so far.'}
        </Notice>
      )}
      {message && <Notice tone="info">{message}</Notice>}
      {results ? (
        <ResultList options={ballot.options} results={results} mine={mine} />
      ) : (
        <div className="poll-vote__choice">
          <p>
            Your answer: <strong>{chosen}</strong>
          </p>
          <button
            type="button"
            className="button button--block"
            onClick={() => void vote()}
            disabled={busy}
          >
            {busy ? (
              <>
                <Spinner /> Counting your vote…
              </>
            ) : (
              `Vote for “${chosen}”`
            )}
          </button>
          {ballot.closes_at && (
            <p className="muted poll-vote__closes">
              Voting closes {formatDateTime(ballot.closes_at)}.
            </p>
          )}
        </div>
      )}
      {answer?.redirect && (
        <p className="poll-vote__next">
          <a href={answer.redirect} rel="noopener noreferrer">
            Continue
          </a>
        </p>
      )}
    </PollFrame>
  );
}

/** The page's card with the question as its heading. */
function PollFrame({ question, children }: { question?: string; children: React.ReactNode }) {
  return (
    <div className="container container--narrow">
      <section className="card poll-vote" aria-labelledby="poll-vote-title">
        <h1 id="poll-vote-title" className="page-title">
          {question && question.trim() !== '' ? question : 'Poll'}
        </h1>
        {children}
      </section>
    </div>
  );
}
