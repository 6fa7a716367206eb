/**
 * Poll stickers through the design API (docs/polls.md "The sticker", "One poll per design";
 * docs/editor.md "Poll"): the library offers one with its 600x400 box,
 * `saveGeneratedDynamicSticker` adds it with a new poll's settings or the given ones, and a
 * second poll is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

describe('poll stickers', () => {
  it('are offered by the library with a 600x400 box', async () => {
    const answer = await demo.request('POST', '/getStickers', {});
    expect(answer.status).toBe(200);
    const dynamic = answer.json.dynamic as Array<Record<string, unknown>>;
    expect(dynamic.find((d) => d.sticker_type === 'poll')).toMatchObject({
      id: 'dynamic-poll',
      sticker_name: 'Poll',
      width: 600,
      height: 400,
    });
  });

  it('are added with their settings, one per design', async () => {
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const saved = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { uuid: 'poll-1', dynamicStickerType: 'poll' },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const sticker = (saved.json.data as { currentSticker: Record<string, unknown> }).currentSticker;
    expect(sticker).toMatchObject({
      dynamicStickerType: 'poll',
      width: 600,
      height: 400,
      poll: { question: 'Which do you prefer?', show_results: true, results_ttl_s: 60 },
    });
    expect(sticker.scaleX).toBeLessThanOrEqual(1);

    const changed = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: {
        uuid: 'poll-1',
        dynamicStickerType: 'poll',
        poll: { question: 'Tea or coffee?', options: [{ label: 'Tea' }, { label: 'Coffee' }] },
      },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    const stored = (await demo.request('GET', base)).json.graphics_data as Array<
      Record<string, unknown>
    >;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.poll).toMatchObject({ question: 'Tea or coffee?' });

    const second = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { uuid: 'poll-2', dynamicStickerType: 'poll' },
    });
    expect(second.status).toBe(422);
    expect(JSON.stringify(second.json)).toContain('A design may have one poll.');
  });
});
