/**
 * The entities of polls (docs/polls.md "Votes"): one vote per recipient per poll, the poll's
 * running tally, and its tally per day. A vote writes all three in one transaction (the vote
 * conditional on its absence), so a second vote of the same recipient changes nothing and the
 * tallies never count a vote that was not kept.
 */
import { Entity } from 'electrodb';
import { SERVICE, type EntityKit } from './entity-kit.ts';

/** A poll's counts by option: `o0` … `o5` (top-level, so DynamoDB's ADD can count them). */
const optionCounts = {
  o0: { type: 'number' },
  o1: { type: 'number' },
  o2: { type: 'number' },
  o3: { type: 'number' },
  o4: { type: 'number' },
  o5: { type: 'number' },
} as const;

/** Builds these entities against one table. */
export function pollEntities({ opts, primary }: EntityKit) {
  /**
   * One recipient's vote in one poll. Keyed by the design (`pollDesign`, its id), the poll
   * sticker (`poll`, its uuid) and `voter`: SHA-256 (hex) of the voter's identifying value, a
   * pseudonym (docs/polls.md "One vote per recipient"). Created once, conditional on its absence.
   */
  const PollVote = new Entity(
    {
      model: { entity: 'pollvote', version: '1', service: SERVICE },
      attributes: {
        pollDesign: { type: 'string', required: true },
        poll: { type: 'string', required: true },
        voter: { type: 'string', required: true },
        /** The option voted for, 0-based. */
        option: { type: 'number', required: true },
        /** ISO-8601 instant of the vote. */
        votedAt: { type: 'string', required: true },
        /**
         * The identifying parameter's value itself, kept only when the poll asks for it and the
         * design requires signed URLs (docs/polls.md "For the team").
         */
        voterValue: { type: 'string' },
      },
      indexes: {
        byVoter: {
          pk: { ...primary.pk, composite: ['pollDesign', 'poll'] },
          sk: { ...primary.sk, composite: ['voter'] },
        },
      },
    },
    opts,
  );

  /** A poll's running tally: votes per option and in all, counted by ADD with each vote. */
  const PollTally = new Entity(
    {
      model: { entity: 'polltally', version: '1', service: SERVICE },
      attributes: {
        pollDesign: { type: 'string', required: true },
        poll: { type: 'string', required: true },
        total: { type: 'number' },
        ...optionCounts,
      },
      indexes: {
        byPoll: {
          pk: { ...primary.pk, composite: ['pollDesign', 'poll'] },
          sk: { ...primary.sk, composite: [] },
        },
      },
    },
    opts,
  );

  /** A poll's votes per option in one UTC day (`YYYY-MM-DD`), for the analytics page. */
  const PollDay = new Entity(
    {
      model: { entity: 'pollday', version: '1', service: SERVICE },
      attributes: {
        pollDesign: { type: 'string', required: true },
        poll: { type: 'string', required: true },
        day: { type: 'string', required: true },
        total: { type: 'number' },
        ...optionCounts,
      },
      indexes: {
        byDay: {
          pk: { ...primary.pk, composite: ['pollDesign', 'poll'] },
          sk: { ...primary.sk, composite: ['day'] },
        },
      },
    },
    opts,
  );

  return { PollVote, PollTally, PollDay };
}
