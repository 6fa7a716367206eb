import type { PollResults } from '#shared/contract/polls.ts';
import './polls.css';
import { formatCount } from '../../lib/format.ts';

/**
 * A poll's results: each answer with its share as a bar (a meter) and a number, the recipient's
 * own answer marked, and the votes in all (the vote page and the team's poll section).
 */
export function ResultList({
  options,
  results,
  mine = null,
}: {
  options: ReadonlyArray<{ label: string }>;
  results: PollResults;
  mine?: number | null;
}) {
  return (
    <div>
      <ul className="poll-results" aria-label="Results">
        {options.map((option, i) => {
          const share = results.percentages[i] ?? 0;
          return (
            <li key={i} className="poll-results__row">
              <div className="poll-results__label">
                <span>
                  {option.label}
                  {mine === i && <span className="poll-results__mine"> (your vote)</span>}
                </span>
                <span className="poll-results__share">{share}%</span>
              </div>
              <div
                className="poll-results__track"
                role="meter"
                aria-label={option.label}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={share}
                aria-valuetext={`${share}% (${results.counts[i] ?? 0} votes)`}
              >
                <div className="poll-results__fill" style={{ width: `${share}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
      <p className="muted">
        {results.total === 1 ? '1 vote' : `${formatCount(results.total)} votes`} in all.
      </p>
    </div>
  );
}
