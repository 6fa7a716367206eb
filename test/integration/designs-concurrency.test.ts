/**
 * No lost updates (docs/adr/0019-design-api-shapes.md "Design API shapes"§5): 20 writers save the
 * same design from the same version at once through the API; exactly one wins, the 19 others get
 * 409 with the version to reload, and the design holds the winner's save.
 */
import { describe, expect, it } from 'vitest';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

describe('20 concurrent writers on one version', () => {
  it.each([
    ['a rename', (i: number) => ({ title: `Writer ${i}` })],
    ['an effects save', (i: number) => ({ enhance: { Brightness: i / 40 } })],
  ])('%s: one 200 and 19 × 409', async (_what, bodyOf) => {
    const demo = await signedIn(stack().url, 'demo@example.com');
    const design = await createDesign(demo, { title: 'Contended' });
    const path = (i: number) =>
      'title' in bodyOf(i)
        ? `/api/pic-snippet/${design.id}`
        : `/api/pic-snippet/${design.id}/effects`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        demo.request('PUT', path(i), { ...bodyOf(i), version: 1 }).then((res) => ({ i, res })),
      ),
    );
    const won = answers.filter((a) => a.res.status === 200);
    const lost = answers.filter((a) => a.res.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const { res } of lost) expect(res.json).toMatchObject({ success: false, version: 2 });

    const winner = won[0]!.i;
    const stored = (await demo.request('GET', `/api/pic-snippet/${design.id}`)).json;
    expect(stored.version).toBe(2);
    expect(stored).toMatchObject(bodyOf(winner));
  });
});
