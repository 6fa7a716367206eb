/**
 * Polls (docs/polls.md): a recipient's vote. The e-mail's option link `/l/{publicId}?…&__vote=k`
 * opens the SPA's vote page (`/poll?link=…`), which reads the ballot and records the vote on a
 * click, so link scanners that fetch every link of a message never vote (docs/polls.md
 * "Scanners").
 * - `GET /api/polls/ballot?link=…`: the poll, the chosen option, whether it is closed, and the
 *   recipient's earlier vote with the results when there is one;
 * - `POST /api/polls/vote` `{ link }`: records the vote once and answers the results and where
 *   to go next.
 */
import { z } from 'zod';
import { defineContract, IdParams } from './core.ts';

/** The longest option link the vote page passes on, characters (a render URL's budget). */
export const MAX_POLL_LINK_LENGTH = 4096;

/** The messages of a vote that cannot be taken (docs/polls.md "Voting"). */
export const POLL_VOTE_MESSAGES = {
  badLink: 'This voting link is not valid: it was changed, or it has expired.',
  noPoll: 'This poll is no longer running.',
  badOption: 'This voting link names no option of the poll.',
  noVoter: 'This voting link does not say who you are, so your vote cannot be counted.',
  closed: 'This poll has closed. Here are the final results.',
  already: 'You have already voted in this poll. Your first vote counts.',
  tooMany: 'Too many votes from your network. Please try again later.',
} as const;

/** A vote link: `/l/{publicId}[/{cacheId}]?{the image's query}&__vote={k}`, path and query. */
export const PollLinkSchema = z
  .string({ error: POLL_VOTE_MESSAGES.badLink })
  .max(MAX_POLL_LINK_LENGTH, POLL_VOTE_MESSAGES.badLink)
  .refine((link) => link.startsWith('/l/'), POLL_VOTE_MESSAGES.badLink);

/** `GET /api/polls/ballot`. */
export const BallotQuerySchema = z.object({ link: PollLinkSchema });

/** `POST /api/polls/vote`. */
export const VoteBodySchema = z.object({ link: PollLinkSchema });

/** A poll's results: votes per option (in the poll's order), whole percentages adding to 100. */
export const PollResultsSchema = z.object({
  counts: z.array(z.number().int().nonnegative()),
  percentages: z.array(z.number().int().min(0).max(100)),
  total: z.number().int().nonnegative(),
});
export type PollResults = z.output<typeof PollResultsSchema>;

/** What the vote page shows before the click. */
export const BallotSchema = z.object({
  question: z.string(),
  options: z.array(z.object({ label: z.string() })),
  /** The option the link votes for, 0-based. */
  option: z.number().int().nonnegative(),
  /** ISO-8601 instant the poll closes, or null. */
  closes_at: z.string().nullable(),
  closed: z.boolean(),
  /**
   * The recipient's earlier vote (0-based option); null when they have not voted, or when the
   * link's values are not signed (such a link is never told another's vote: docs/polls.md
   * "Security").
   */
  voted: z.number().int().nonnegative().nullable(),
  /** Shown once the recipient voted or the poll closed; null before. */
  results: PollResultsSchema.nullable(),
});
export type Ballot = z.output<typeof BallotSchema>;

/** The answer of a vote. */
export const VoteAnswerSchema = z.object({
  /** True when this click was counted; false when an earlier vote stands. */
  recorded: z.boolean(),
  /**
   * The option that counts for the recipient, 0-based; null when an earlier vote stands (or the
   * poll closed) and the link's values are not signed, so the earlier choice is not told.
   */
  option: z.number().int().nonnegative().nullable(),
  results: PollResultsSchema,
  /** The option's link to go on to, or null for the results page. */
  redirect: z.string().nullable(),
  message: z.string().nullable(),
});
export type VoteAnswer = z.output<typeof VoteAnswerSchema>;

/** Votes one page of `GET /api/pic-snippet/{id}/poll/votes` holds at most. */
export const POLL_VOTES_PAGE = 5000;

/** `GET /api/pic-snippet/{id}/poll/votes`: `cursor` from the page before (absent: the first). */
export const PollVotesQuerySchema = z.object({ cursor: z.string().max(2048).optional() });

/**
 * A design's poll for its team (docs/polls.md "For the team"): the poll, its results, votes per
 * answer per UTC day (oldest first), and one page of the votes: each voter's key (a pseudonym),
 * the answer, when, and the identifying value when the poll keeps it; `next` pages on.
 */
export const PollVotesSchema = z.object({
  poll: z.object({
    id: z.string(),
    question: z.string(),
    options: z.array(z.object({ label: z.string() })),
    closes_at: z.string().nullable(),
    closed: z.boolean(),
    voter_parameter: z.string().nullable(),
  }),
  results: PollResultsSchema,
  days: z.array(
    z.object({
      day: z.string(),
      counts: z.array(z.number().int().nonnegative()),
      total: z.number().int().nonnegative(),
    }),
  ),
  votes: z.array(
    z.object({
      voter: z.string(),
      option: z.number().int().nonnegative(),
      voted_at: z.string(),
      value: z.string().nullable(),
    }),
  ),
  next: z.string().nullable(),
});
export type PollVotes = z.output<typeof PollVotesSchema>;

/** The routes' contracts, by route key. */
export const POLLS_CONTRACT = {
  'GET /api/polls/ballot': defineContract({
    query: BallotQuerySchema,
    answer: BallotSchema,
    errors: [400, 403, 404],
  }),
  'POST /api/polls/vote': defineContract({
    body: VoteBodySchema,
    answer: VoteAnswerSchema,
    errors: [400, 403, 404, 409, 429],
  }),
  'GET /api/pic-snippet/{id}/poll/votes': defineContract({
    params: IdParams,
    query: PollVotesQuerySchema,
    answer: PollVotesSchema,
  }),
} as const;
