/**
 * The vote page's calls (docs/polls.md "Voting"; shared/contract/polls.ts): the ballot of a vote
 * link, and the vote. Both are public: a recipient has no account.
 */
import type { Ballot, PollVotes, VoteAnswer } from '#shared/contract/polls.ts';
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

/** Pages of votes the download reads at most (`POLL_VOTES_PAGE` each: 200,000 votes). */
export const MAX_VOTE_PAGES = 40;

/**
 * `GET /api/pic-snippet/{id}/poll/votes`: the design's poll for its team, one page of votes.
 * @throws {ApiError} 404 when the design has no poll or is another team's.
 */
export function fetchPollVotes(
  designId: string,
  cursor?: string,
  signal?: AbortSignal,
): Promise<PollVotes> {
  return call('GET /api/pic-snippet/{id}/poll/votes', {
    params: { id: designId },
    query: cursor ? { cursor } : {},
    signal,
  });
}

/**
 * Every vote of the design's poll: the `first` page's votes, then the pages after it, at most
 * {@link MAX_VOTE_PAGES} pages in all.
 */
export async function allPollVotes(
  designId: string,
  first: Pick<PollVotes, 'votes' | 'next'>,
): Promise<PollVotes['votes']> {
  const votes: PollVotes['votes'] = [...first.votes];
  let cursor = first.next;
  for (let page = 1; page < MAX_VOTE_PAGES && cursor; page++) {
    const answer = await fetchPollVotes(designId, cursor);
    votes.push(...answer.votes);
    cursor = answer.next;
  }
  return votes;
}
