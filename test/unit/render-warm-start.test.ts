/**
 * The render Lambda's init warm-up (functions/render/warm-start.ts; docs/performance.md
 * "Render v2: CPU per render, the fonts stage, cold start"): only in a Lambda sandbox, never in the
 * local stack or the tests, which start Chromium themselves; the warm-up scene is a plain, valid
 * scene that needs no outside fetch.
 */
import { describe, expect, it } from 'vitest';
import { WARM_UP_SCENE, warmStartWanted, warmUpAtInit } from '#functions/render/warm-start.ts';

describe('render init warm-up', () => {
  it('runs only in a Lambda sandbox, and can be turned off there', () => {
    expect(warmStartWanted({})).toBe(false);
    expect(warmStartWanted({ AWS_LAMBDA_FUNCTION_NAME: 'render' })).toBe(true);
    expect(warmStartWanted({ AWS_LAMBDA_FUNCTION_NAME: 'render', RENDER_WARM_START: '0' })).toBe(
      false,
    );
  });

  it('does nothing outside a Lambda: no Chromium, no reads', async () => {
    expect(process.env.AWS_LAMBDA_FUNCTION_NAME).toBeUndefined();
    await expect(warmUpAtInit()).resolves.toBeUndefined();
  });

  it('draws texts only, starting inside its canvas, with nothing to fetch', () => {
    expect(WARM_UP_SCENE.images).toEqual([]);
    expect(WARM_UP_SCENE.texts.length).toBeGreaterThan(0);
    for (const t of WARM_UP_SCENE.texts) {
      expect(t.left + t.width).toBeLessThanOrEqual(WARM_UP_SCENE.width);
      expect(t.top).toBeLessThan(WARM_UP_SCENE.height);
    }
  });
});
