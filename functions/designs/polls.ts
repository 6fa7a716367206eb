/**
 * Votes in a design's poll (docs/polls.md "Voting"). The e-mail's option link
 * `/l/{publicId}[/{cacheId}]?{the image's query}&__vote={k}` opens the SPA's vote page, which
 * reads the ballot and, on the recipient's click, records the vote:
 * - `GET /api/polls/ballot?link=…`: the poll, the option the link names, whether the poll is
 *   closed, the recipient's earlier vote and, once they voted or the poll closed, the results;
 * - `POST /api/polls/vote` `{ link }`: one vote per recipient per poll (a transaction: the vote
 *   conditional on its absence, and the tallies), the `poll.voted` webhook, then the results
 *   and where to go next.
 * The link is checked as the image's URL is: a design that requires signed URLs requires the
 * vote link to be signed (docs/security.md "Open-time content"); nothing in it names a URL to go
 * to (the option's URL is stored in the design).
 */
import { SIGNATURE_PARAMS } from '#shared/render-signature.ts';
import { createHash } from 'node:crypto';
import {
  BallotQuerySchema,
  POLL_VOTES_PAGE,
  POLL_VOTE_MESSAGES,
  PollVotesQuerySchema,
  VoteBodySchema,
  type PollResults,
} from '#shared/contract/polls.ts';
import { parseDesignDocument, type DesignDocument, type Sticker } from '#shared/design.ts';
import { parseRenderPath, parseRenderQuery } from '#shared/render-url.ts';
import { cutValue, declaredParameters, isUnfilledMergeTag } from '#shared/scene/resolve.ts';
import {
  pollClosed,
  pollClosesAt,
  pollPercentages,
  tallyCounts,
  type Poll,
} from '#shared/scene/poll.ts';
import { addressBucket, clientAddress } from '#lib/client-address.ts';
import { db } from '#lib/db/index.ts';
import { AppError, badRequest, forbidden, notFound, tooManyRequests } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { loadSigningKeys } from '#domain/signing-secrets.ts';
import { emitWebhookEvent } from '#domain/webhooks.ts';
import { createSignatureVerifier } from '#functions/render/signature.ts';
import { takeAttempt } from '#lib/limits/attempts.ts';
import { currentTeam, loadDesign } from './store.ts';

/**
 * Votes one client address (an IPv6 address's whole /64: `addressBucket`) may cast per
 * {@link VOTE_WINDOW_MS} across all polls (docs/polls.md "Abuse"): a shared office or carrier
 * address stays well inside it; one address voting for many recipients' keys stops here.
 */
export const MAX_VOTES_PER_ADDRESS = 120;
/** The window of {@link MAX_VOTES_PER_ADDRESS}, ms (an hour). */
export const VOTE_WINDOW_MS = 60 * 60 * 1000;

/** Teams' signing secrets, opened and kept a minute (as the render keeps them). */
const signatures = createSignatureVerifier((teamId) => loadSigningKeys(teamId));

/** A poll sticker with its settings. */
type PollSticker = Sticker & { poll: Poll };

/** What a vote link names, checked. */
interface VoteTarget {
  designId: string;
  teamId: string;
  title: string;
  doc: DesignDocument;
  sticker: PollSticker;
  /** The option the link votes for, 0-based. */
  option: number;
  /** The recipient's values of the design's parameters (the URL's, usable ones only). */
  values: Record<string, string>;
  /** SHA-256 (hex) of the voter's identifying value: the vote's key. */
  voter: string;
  /** The identifying value itself, for polls that keep it (docs/polls.md "For the team"). */
  voterValue: string;
  /**
   * Whether a values-form signature covered the link's values, so the voter's value is the
   * sender's (docs/polls.md "For the team"): a kept value needs it.
   */
  valuesSigned: boolean;
}

/** A parameter value as the render reads it: cut to 255, unfilled merge tags count as missing. */
const usable = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const cut = cutValue(value).trim();
  return cut === '' || isUnfilledMergeTag(cut) ? undefined : cut;
};

/**
 * The voter's identifying value (docs/polls.md "One vote per recipient"): the poll's
 * `voter_parameter` value, trimmed and lower-cased (an e-mail in two cases is one person); without
 * one named, the recipient's whole set of values, sorted by name. Undefined when there is none.
 */
export function voterValueOf(poll: Poll, values: Record<string, string>): string | undefined {
  if (poll.voter_parameter !== null) return values[poll.voter_parameter]?.toLowerCase();
  const names = Object.keys(values).sort();
  return names.length === 0 ? undefined : JSON.stringify(names.map((n) => [n, values[n]]));
}

/** The vote's key: SHA-256 (hex) of the design, the poll and the voter's value, a pseudonym. */
export const voterKey = (designId: string, pollId: string, value: string): string =>
  createHash('sha256').update(`${designId}\n${pollId}\n${value}`).digest('hex');

/**
 * Reads and checks a vote link.
 * @throws AppError 400 `badLink`/`badOption`/`noVoter`, 403 `badLink` (a signature the design
 *   requires is missing, wrong or expired), 404 `noPoll` (unknown design, or no poll in it).
 */
async function voteTarget(link: string): Promise<VoteTarget> {
  const q = link.indexOf('?');
  const rawPath = q < 0 ? link : link.slice(0, q);
  const rawQuery = q < 0 ? '' : link.slice(q + 1);
  const path = parseRenderPath(`/r/${rawPath.slice('/l/'.length)}`);
  if (!path) throw badRequest(POLL_VOTE_MESSAGES.badLink);
  const found = await db().Design.query.byPublicId({ publicId: path.publicId }).go({ limit: 1 });
  const design = found.data[0];
  if (!design) throw notFound(POLL_VOTE_MESSAGES.noPoll);
  const doc = parseDesignDocument(design.document);
  const known = new Set(declaredParameters(doc));
  if (doc.require_signed_urls) {
    const signed = await signatures.verify(
      design.teamId,
      `/r/${rawPath.slice('/l/'.length)}`,
      rawQuery,
      known,
    );
    if (!signed.ok) throw forbidden(POLL_VOTE_MESSAGES.badLink);
  }
  // The query read as the signature check reads it (a later duplicate wins, names trimmed), so
  // the form that counts is the one the signature was checked in: a names-form link that also
  // says `__sf=values` is still a names-form link (test/integration/polls.test.ts).
  const query = parseRenderQuery(rawQuery, known);
  const valuesSigned = doc.require_signed_urls && query[SIGNATURE_PARAMS.form] === 'values';
  const sticker = doc.graphics_data.find(
    (s): s is PollSticker => s.dynamicStickerType === 'poll' && s.poll !== null,
  );
  if (!sticker) throw notFound(POLL_VOTE_MESSAGES.noPoll);
  const asked = query.__vote ?? '';
  const option = /^\d$/.test(asked) ? Number(asked) : -1;
  if (option < 0 || option >= sticker.poll.options.length)
    throw badRequest(POLL_VOTE_MESSAGES.badOption);
  const values: Record<string, string> = {};
  for (const name of known) {
    const value = usable(query[name]);
    if (value !== undefined) values[name] = value;
  }
  const voterValue = voterValueOf(sticker.poll, values);
  if (voterValue === undefined) throw badRequest(POLL_VOTE_MESSAGES.noVoter);
  return {
    designId: design.designId,
    teamId: design.teamId,
    title: design.title,
    doc,
    sticker,
    option,
    values,
    voter: voterKey(design.designId, sticker.uuid, voterValue),
    voterValue,
    valuesSigned,
  };
}

/** The poll's results now (a strong read of its tally). */
export async function pollResults(designId: string, poll: PollSticker): Promise<PollResults> {
  const { data } = await db()
    .PollTally.get({ pollDesign: designId, poll: poll.uuid })
    .go({ consistent: true });
  const counts = tallyCounts(data, poll.poll.options.length);
  return {
    counts,
    percentages: pollPercentages(counts),
    total: counts.reduce((a, b) => a + b, 0),
  };
}

/** The recipient's earlier vote (0-based option), or null. */
async function earlierVote(target: VoteTarget): Promise<number | null> {
  const { data } = await db()
    .PollVote.get({ pollDesign: target.designId, poll: target.sticker.uuid, voter: target.voter })
    .go({ consistent: true, attributes: ['option'] });
  return data ? data.option : null;
}

/**
 * The earlier vote as the vote page may tell it: only to a link whose values the team signed
 * (values form). Anyone can write an unsigned or names-form link for any address, so such a link
 * is never told how that recipient voted, only, after its click, that an earlier vote stands
 * (docs/polls.md "Security"; test/integration/polls.test.ts).
 */
const toldVote = (target: VoteTarget, voted: number | null): number | null =>
  target.valuesSigned ? voted : null;

/**
 * Writes the vote and counts it, in one transaction; false when the recipient's vote was kept
 * already (the vote's condition failed), so nothing changed.
 * @throws the table's error; AppError 409 after two transaction conflicts.
 */
async function recordVote(target: VoteTarget, nowMs: number): Promise<boolean> {
  const votedAt = new Date(nowMs).toISOString();
  // Only a value the signature covered is known to be the sender's (docs/polls.md "For the team").
  const keepValue = target.sticker.poll.keep_voter_value && target.valuesSigned;
  const key = { pollDesign: target.designId, poll: target.sticker.uuid };
  const counted = { [`o${target.option}`]: 1, total: 1 };
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await db()
      .service.transaction.write(({ PollVote, PollTally, PollDay }) => [
        PollVote.create({
          ...key,
          voter: target.voter,
          option: target.option,
          votedAt,
          ...(keepValue ? { voterValue: target.voterValue } : {}),
        }).commit(),
        PollTally.update(key).add(counted).commit(),
        PollDay.update({ ...key, day: votedAt.slice(0, 10) })
          .add(counted)
          .commit(),
      ])
      .go();
    if (!result.canceled) return true;
    const reasons = result.data.map((d) => d.code);
    if (reasons[0] === 'ConditionalCheckFailed') return false;
    logger.warn('poll vote: transaction cancelled, trying again', { reasons });
  }
  throw new AppError(409, 'conflict', 'Your vote could not be counted just now. Please try again.');
}

/** The instant the poll closes as ISO-8601, or null. */
const closesAtIso = (poll: Poll): string | null => {
  const at = pollClosesAt(poll);
  return at === undefined ? null : new Date(at).toISOString();
};

/** Days of votes the team's view reads at most (a year and a day). */
const MAX_POLL_DAYS = 366;

export const pollRoutes: Record<string, RouteDefinition> = {
  /**
   * The design's poll for its team: results, votes per day and a page of the votes
   * (docs/polls.md "For the team"). Strong reads, so a vote just cast shows.
   * @throws AppError 404 for another team's design or one without a poll.
   */
  'GET /api/pic-snippet/{id}/poll/votes': route({
    query: PollVotesQuerySchema,
    handle: async ({ auth, params, query }) => {
      const record = await loadDesign(currentTeam(auth), params.id!);
      const doc = parseDesignDocument(record.document);
      const sticker = doc.graphics_data.find(
        (s): s is PollSticker => s.dynamicStickerType === 'poll' && s.poll !== null,
      );
      if (!sticker) throw notFound('This design has no poll.');
      const key = { pollDesign: record.designId, poll: sticker.uuid };
      const n = sticker.poll.options.length;
      const [results, days, votes] = await Promise.all([
        pollResults(record.designId, sticker),
        db().PollDay.query.byDay(key).go({ limit: MAX_POLL_DAYS }),
        db()
          .PollVote.query.byVoter(key)
          .go({ limit: POLL_VOTES_PAGE, cursor: query.cursor ?? null }),
      ]);
      return json(200, {
        poll: {
          id: sticker.uuid,
          question: sticker.poll.question,
          options: sticker.poll.options.map((o) => ({ label: o.label })),
          closes_at: closesAtIso(sticker.poll),
          closed: pollClosed(sticker.poll, Date.now()),
          voter_parameter: sticker.poll.voter_parameter,
        },
        results,
        days: days.data.map((d) => {
          const counts = tallyCounts(d, n);
          return { day: d.day, counts, total: counts.reduce((a, b) => a + b, 0) };
        }),
        votes: votes.data.map((v) => ({
          voter: v.voter,
          option: v.option,
          voted_at: v.votedAt,
          value: v.voterValue ?? null,
        })),
        next: votes.cursor,
      });
    },
  }),

  /**
   * The ballot of a vote link. Reads nothing but the design, the recipient's vote and the tally;
   * writes nothing.
   * @throws AppError 400, 403, 404 (see `voteTarget`).
   */
  'GET /api/polls/ballot': route({
    query: BallotQuerySchema,
    handle: async ({ query }) => {
      const target = await voteTarget(query.link);
      const { poll } = target.sticker;
      const closed = pollClosed(poll, Date.now());
      const voted = toldVote(target, await earlierVote(target));
      return json(200, {
        question: poll.question,
        options: poll.options.map((o) => ({ label: o.label })),
        option: target.option,
        closes_at: closesAtIso(poll),
        closed,
        voted,
        results:
          voted !== null || closed ? await pollResults(target.designId, target.sticker) : null,
      });
    },
  }),

  /**
   * Records the recipient's vote once. A closed poll or an earlier vote changes nothing and says
   * so (`recorded: false`, `message`). Counts against the client address's vote budget first.
   * @throws AppError 400, 403, 404 (see `voteTarget`), 409 (transaction conflicts), 429 past
   *   {@link MAX_VOTES_PER_ADDRESS}.
   */
  'POST /api/polls/vote': route({
    body: VoteBodySchema,
    handle: async ({ event, body }) => {
      const nowMs = Date.now();
      if (
        !(await takeAttempt(
          `pollvote#ip#${addressBucket(clientAddress(event))}`,
          MAX_VOTES_PER_ADDRESS,
          nowMs,
          VOTE_WINDOW_MS,
        ))
      )
        throw tooManyRequests(POLL_VOTE_MESSAGES.tooMany);
      const target = await voteTarget(body.link);
      const { poll } = target.sticker;
      if (pollClosed(poll, nowMs)) {
        const voted = toldVote(target, await earlierVote(target));
        return json(200, {
          recorded: false,
          option: voted,
          results: await pollResults(target.designId, target.sticker),
          redirect: null,
          message: POLL_VOTE_MESSAGES.closed,
        });
      }
      const recorded = await recordVote(target, nowMs);
      const option = recorded ? target.option : toldVote(target, await earlierVote(target));
      if (recorded)
        await emitWebhookEvent(target.teamId, 'poll.voted', {
          design: { id: target.designId, title: target.title },
          poll: { id: target.sticker.uuid, question: poll.question },
          option: { index: target.option, label: poll.options[target.option]!.label },
          voted_at: new Date(nowMs).toISOString(),
          parameters: target.values,
        });
      // Where the told vote's option leads; else the clicked one's (the earlier one is not told).
      const url = poll.options[option ?? target.option]!.url;
      return json(200, {
        recorded,
        option,
        results: await pollResults(target.designId, target.sticker),
        redirect: url === '' ? null : url,
        message: recorded ? null : POLL_VOTE_MESSAGES.already,
      });
    },
  }),
};
