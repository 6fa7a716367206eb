/**
 * Render limits through the real handler (docs/security.md "Render limits"): the edge's count
 * header and the user agent reach the render service. An address the edge counted over its
 * budget gets the fallback for new draws; a mail proxy is never refused for that, since it
 * fetches for many recipients. Every answer is an image. The design drawn is a copy of the demo
 * design in a team of this file's own, so no other file's change to the seeded demo team (its
 * plan, quota or flags) reaches these answers (docs/testing.md "One stack per worker").
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RATE_EXCEEDED, EDGE_RATE_HEADER } from '#shared/render-limits.ts';
import { currentTeamId, ownTeam, uniqueEmail } from '../support/designs.ts';
import { putDesign } from '../support/render-designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
/** The copy's public id. */
const PUBLIC_ID = `limits-welcome-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const teamId = await currentTeamId(await ownTeam(stack().url, uniqueEmail('render-limits')));
  const { db } = await import('#lib/db/index.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  await putDesign(PUBLIC_ID, teamId, demo.document);
});

async function render(name: string, headers: Record<string, string>) {
  const res = await fetch(`${stack().url}/r/${PUBLIC_ID}.jpg?first_name=${name}`, { headers });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
  };
}

describe('render limits', () => {
  it('serves the fallback image, uncached, to an address the edge counted over its budget', async () => {
    const answer = await render(`Edge${Date.now()}`, { [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED });
    expect(answer).toMatchObject({ status: 200, type: 'image/jpeg', cacheControl: 'no-store' });
  });

  it('draws for a mail proxy even when the edge counted its address', async () => {
    const answer = await render(`Proxy${Date.now()}`, {
      [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED,
      'user-agent': GMAIL,
    });
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('image/jpeg');
    expect(answer.cacheControl).not.toContain('no-store');
  });
});
