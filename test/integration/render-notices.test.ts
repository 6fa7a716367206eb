/**
 * The render-notices function (functions/render-notices/handler.ts; docs/security.md "Render
 * limits"), run in-process against the local stack (DynamoDB Local, the outbox): a valid notice
 * creates the owner's in-app notification and an e-mail; anything else is refused with an error
 * before anything is read, written or sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { currentTeamId, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

describe('the render-notices function', () => {
  const stack = useLocalStack();
  // A free-plan team of this file's own and its owner: the seeded teams' owners get other
  // files' quota notices on the same stack (docs/testing.md "One stack per worker").
  const EMAIL = uniqueEmail('render-notices');
  const TEAM_NAME = `Team ${EMAIL.split('@')[0]}`;
  let TEAM = '';
  let OWNER = '';

  beforeAll(async () => {
    const owner = await ownTeam(stack().url, EMAIL);
    TEAM = await currentTeamId(owner);
    OWNER = (await owner.request('GET', '/user/current')).json.id as string;
  });

  async function quotaNotices() {
    const { db } = await import('#lib/db/index.ts');
    const { data } = await db().Notification.query.byUser({ userId: OWNER }).go({ pages: 'all' });
    return data.filter((n) => n.kind === 'render-quota');
  }

  async function quotaMails() {
    const { readOutbox } = await import('#lib/mailer.ts');
    return (await readOutbox()).filter((m) => m.to === EMAIL && /renders for/.test(m.subject));
  }

  it('refuses anything but a notice, without effects', async () => {
    const { handler } = await import('#functions/render-notices/handler.ts');
    const valid = { teamId: TEAM, threshold: 80, month: '2026-11', used: 8000, allowance: 10_000 };
    const invalid: unknown[] = [
      undefined,
      TEAM,
      {},
      { ...valid, threshold: 90 },
      { ...valid, threshold: '80' },
      { ...valid, month: '2026-13' },
      { ...valid, month: '2026-1' },
      { ...valid, teamId: '' },
      { ...valid, used: -1 },
      { ...valid, allowance: 0 },
      { ...valid, allowance: 1.5 },
      { ...valid, extra: true },
      { teamId: TEAM, threshold: 80, month: '2026-11' },
    ];
    for (const event of invalid) {
      await expect(handler(event), JSON.stringify(event)).rejects.toThrow(
        'render quota notice refused',
      );
    }
    expect(await quotaNotices()).toEqual([]);
    expect(await quotaMails()).toEqual([]);
  });

  it('tells the owner in-app and by e-mail', async () => {
    const { handler } = await import('#functions/render-notices/handler.ts');
    await expect(
      handler({ teamId: TEAM, threshold: 100, month: '2026-11', used: 10_000, allowance: 10_000 }),
    ).resolves.toEqual({ teamId: TEAM, threshold: 100 });
    const notices = await quotaNotices();
    expect(notices.map((n) => n.body)).toEqual([
      `${TEAM_NAME} has used all 10,000 renders of this month. New personalised images show the design's fallback image until next month or a larger plan.`,
    ]);
    expect(notices[0]!.actionUrl).toBe(`/settings/companies/${TEAM}#/subscription`);
    const mails = await quotaMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/has used all its renders/);
    expect(mails[0]!.text).toContain('November 2026');
  });

  it('sends nothing for a team that is gone, and does not throw', async () => {
    const { handler } = await import('#functions/render-notices/handler.ts');
    await expect(
      handler({ teamId: 'team-gone', threshold: 80, month: '2026-11', used: 8, allowance: 10 }),
    ).resolves.toEqual({ teamId: 'team-gone', threshold: 80 });
    expect(await quotaMails()).toHaveLength(1);
  });
});
