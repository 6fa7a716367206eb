/**
 * For files that must change a seeded team (the demo team's billing: its Stripe customer, its
 * subscription): the team's items are read before the file's tests and written back after them,
 * so the files after this one on the same stack find the team as seeded (docs/testing.md "One
 * stack per worker"). Call at module level, after `useLocalStack`.
 */
import type { EntityItem } from 'electrodb';
import { afterAll, beforeAll } from 'vitest';
import type { db as Db } from '#lib/db/index.ts';

type Entities = ReturnType<typeof Db>;

/** Keeps `teamId`'s Team item and its subscription (none, or as they were) across the file. */
export function restoreTeamAfterFile(teamId: string): void {
  let team: EntityItem<Entities['Team']> | null = null;
  let subscription: EntityItem<Entities['Subscription']> | null = null;
  beforeAll(async () => {
    const { db } = await import('#lib/db/index.ts');
    team = (await db().Team.get({ teamId }).go()).data;
    subscription = (await db().Subscription.get({ teamId, name: 'default' }).go()).data;
  });
  afterAll(async () => {
    const { db } = await import('#lib/db/index.ts');
    if (team) await db().Team.put(team).go();
    if (subscription) await db().Subscription.put(subscription).go();
    else await db().Subscription.delete({ teamId, name: 'default' }).go();
  });
}
