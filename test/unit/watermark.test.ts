/**
 * Watermark placement (shared/scene/watermark.ts; docs/adr/0057-watermark.md "Watermark"), the plan
 * attribute that asks for the product mark (shared/billing.ts) and the watermark part of the
 * render cache key (functions/render/service.ts `renderCacheKey`).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planProductWatermark } from '#shared/billing.ts';
import {
  PRODUCT_MARK_SRC,
  productMarkBox,
  teamWatermark,
  teamWatermarkBox,
  watermarkCacheComponent,
  watermarkLayers,
} from '#shared/scene/watermark.ts';
import { renderCacheKey } from '#functions/render/cache-key.ts';

const canvas = { width: 900, height: 600 };
const logo = { url: '/files/watermarks/a.png', width: 400, height: 200 };

describe('team watermark placement', () => {
  it('puts a quarter-size image at 10,10 at half opacity', () => {
    expect(teamWatermarkBox(logo, canvas)).toEqual({
      left: 10,
      top: 10,
      width: 100,
      height: 50,
      opacity: 0.5,
    });
  });

  it('scales a large image down to fit inside the canvas less 10 px a side, keeping its shape', () => {
    // 4000 x 1000 at a quarter is 1000 x 250: too wide for 900 - 20 = 880 px.
    expect(teamWatermarkBox({ width: 4000, height: 1000 }, canvas)).toMatchObject({
      width: 880,
      height: 220,
    });
    // Too high: 400 x 4000 → 100 x 1000, fitted to 580 px high.
    expect(teamWatermarkBox({ width: 400, height: 4000 }, canvas)).toMatchObject({
      width: 58,
      height: 580,
    });
  });

  it('never makes a box smaller than 1 px', () => {
    expect(teamWatermarkBox({ width: 1, height: 1 }, canvas)).toMatchObject({
      width: 1,
      height: 1,
    });
  });
});

describe('product mark placement', () => {
  it('puts its left edge 180 px from the right and its bottom 20 px from the bottom on a canvas 1000 px wide or more', () => {
    for (const width of [1000, 1056, 2000])
      expect(productMarkBox({ width, height: 600 })).toEqual({
        left: width - 180,
        top: 540,
        width: 160,
        height: 40,
        opacity: 0.9,
      });
  });

  it('scales size and margins with a narrower canvas', () => {
    // 900 px: 0.9 of everything.
    expect(productMarkBox(canvas)).toMatchObject({ left: 738, top: 546, width: 144, height: 36 });
    // 500 px: half: 80 x 20, 10 px from the right and the bottom.
    expect(productMarkBox({ width: 500, height: 300 })).toMatchObject({
      left: 410,
      top: 270,
      width: 80,
      height: 20,
    });
  });

  it('stays readable: never under 0.4 of its size for the width alone', () => {
    for (const width of [120, 300, 400])
      expect(productMarkBox({ width, height: 300 })).toMatchObject({
        left: width - 8 - 64,
        top: 300 - 8 - 16,
        width: 64,
        height: 16,
      });
  });

  it('shrinks further on a canvas too small for it, keeping its margins inside it', () => {
    const box = productMarkBox({ width: 60, height: 30 });
    expect(box.left + box.width).toBe(52);
    expect(box.top + box.height).toBe(22);
    expect(box.width).toBeLessThan(64);
    expect(box.width / box.height).toBeCloseTo(4, 0);
  });
});

describe('watermark layers', () => {
  const settings = { team: logo, productMark: true };
  const design = { show_watermark: true, canvas_width: 900, canvas_height: 600 };

  it('draws the team watermark under the product mark', () => {
    const layers = watermarkLayers(design, settings);
    expect(layers.map((l) => l.kind)).toEqual(['team', 'product']);
    expect(layers[0]!.src).toBe(logo.url);
    expect(layers[1]!.src).toBe(PRODUCT_MARK_SRC);
    expect(decodeURIComponent(PRODUCT_MARK_SRC)).toContain('<svg');
  });

  it('leaves out the team watermark when the design hides it or the team has none', () => {
    expect(watermarkLayers({ ...design, show_watermark: false }, settings)).toHaveLength(1);
    expect(watermarkLayers(design, { team: null, productMark: false })).toEqual([]);
  });

  it('reads a team record', () => {
    expect(
      teamWatermark({ watermarkUrl: logo.url, watermarkWidth: 400, watermarkHeight: 200 }),
    ).toEqual(logo);
    expect(teamWatermark({ watermarkUrl: logo.url })).toBeNull();
  });
});

describe('the product mark plan attribute', () => {
  it('is on for Free, frozen and unknown plans, off for paid ones', () => {
    expect(planProductWatermark('free')).toBe(true);
    expect(planProductWatermark('plan-freeze')).toBe(true);
    expect(planProductWatermark('constructor')).toBe(true);
    expect(planProductWatermark(undefined)).toBe(true);
    for (const paid of ['starter-monthly', 'starter-yearly', 'pro-monthly', 'pro-yearly']) {
      expect(planProductWatermark(paid)).toBe(false);
    }
  });
});

describe('the render cache key', () => {
  const design = { designId: 'd1', version: 3 };
  const key = (watermark?: string) => renderCacheKey(design, [['a', 'b']], 'jpeg', watermark);
  const shown = { show_watermark: true };

  it('changes with the watermark image, the product mark and the design showing it', () => {
    const base = watermarkCacheComponent(shown, { team: logo, productMark: false });
    const keys = new Set([
      key(base),
      key(
        watermarkCacheComponent(shown, {
          team: { ...logo, url: '/files/watermarks/b.png' },
          productMark: false,
        }),
      ),
      key(watermarkCacheComponent(shown, { team: logo, productMark: true })),
      key(watermarkCacheComponent({ show_watermark: false }, { team: logo, productMark: false })),
    ]);
    expect(keys.size).toBe(4);
  });

  it('ignores the team image for a design that does not show it', () => {
    const hidden = { show_watermark: false };
    expect(watermarkCacheComponent(hidden, { team: logo, productMark: false })).toBe(
      watermarkCacheComponent(hidden, { team: null, productMark: false }),
    );
  });

  it('keeps the key of a render without watermark settings as it always was', () => {
    const hash = createHash('sha256')
      .update(JSON.stringify(['d1', 3, 'jpeg', [['a', 'b']]]))
      .digest('base64url')
      .slice(0, 32);
    expect(key()).toBe(`renders/d1/v3/${hash}.jpg`);
    expect(key('-|-')).not.toBe(key());
  });
});
