/**
 * The vote page's calls (docs/polls.md "Voting"; shared/contract/polls.ts): the ballot of a vote
 * link, and the vote. Both are public: a recipient has no account.
 */
import type { Ballot, VoteAnswer } from '#shared/contract/polls.ts';
import { call } from '../../api/client.ts';

/**
 * `GET /api/polls/ballot?link=…`: what the link votes for, and the results once voted or closed.
 * @throws {ApiError} 400 (an odd answer, no voter), 403 (a changed or expired link), 404 (no poll).
 */
export function fetchBallot(link: string, signal?: AbortSignal): Promise<Ballot> {
  return call('GET /api/polls/ballot', { query: { link }, signal });
}

/**
 * `POST /api/polls/vote`: counts the vote once; an earlier vote or a closed poll changes nothing
 * and says so in `message`.
 * @throws {ApiError} as {@link fetchBallot}, and 429 past the address's vote budget.
 */
export function castVote(link: string): Promise<VoteAnswer> {
  return call('POST /api/polls/vote', { body: { link } });
}
