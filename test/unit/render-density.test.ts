/**
 * Dense render URLs (`@2x`, `@3x`; docs/export.md "Density"): what the render service asks the
 * renderer for and answers, the byte-budget ladder of the encoder, and a QR code's pixels at a
 * density. The drawing itself is checked through the local stack
 * (test/integration/render-density.test.ts).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RENDER_QUALITY, DesignDocumentSchema } from '#shared/design.ts';
import { densityFits, denseByteBudget, MAX_DENSE_PIXELS } from '#shared/render-limits.ts';
import { RENDER_REASON_HEADER } from '#shared/render-signature.ts';
import { createRenderService, type RenderServiceDeps } from '#functions/render/service.ts';
import { DENSITY_REFUSAL } from '#functions/render/format.ts';
import { renderCacheKey } from '#functions/render/cache-key.ts';
import { budgetLadder, encodeStill } from '#functions/render/encode.ts';
import { denseDirect } from '#functions/render/renderer.ts';
import { qrDataUrl } from '#functions/render/stickers.ts';
import { countdownSticker } from '../support/countdown.ts';

const base = {
  image_id: 'i',
  base_image_key: 'k',
  canvas_width: 900,
  canvas_height: 600,
  text_snippets: [
    {
      id: 's',
      text: 'Hi {{first_name}}',
      left: 0,
      top: 0,
      width: 500,
      parameters: [{ id: 'a', param_name: 'first_name' }],
    },
  ],
};
const still = {
  designId: 'd1',
  teamId: 't1',
  version: 3,
  document: DesignDocumentSchema.parse(base),
};
const tall = {
  ...still,
  designId: 'd2',
  document: DesignDocumentSchema.parse({ ...base, canvas_width: 1000, canvas_height: 3000 }),
};
const timed = {
  ...still,
  designId: 'd3',
  document: DesignDocumentSchema.parse({
    ...base,
    graphics_data: [countdownSticker({ deadline: '2026-12-01T09:00', timeZone: 'Europe/Paris' })],
  }),
};

function service(render?: RenderServiceDeps['render']) {
  const calls: Array<{ format: string; options: unknown }> = [];
  const deps: RenderServiceDeps = {
    findDesign: async (id) => ({ still, tall, timed })[id as 'still'],
    teamCanExportPdf: async () => true,
    render:
      render ??
      (async (_d, _values, format, options) => {
        calls.push({ format, options });
        return {
          body: Buffer.from(`${format}:${JSON.stringify(options)}`),
          contentType: 'image/jpeg',
        };
      }),
    placeholder: async () => Buffer.from('placeholder'),
    store: { get: async () => undefined, put: async () => undefined },
    countView: () => undefined,
    publicUrl: 'https://cdn.example',
    timeoutMs: 5000,
  };
  return { svc: createRenderService(deps), calls };
}
const req = (rawPath: string, rawQueryString = '') => ({
  rawPath,
  rawQueryString,
  sourceIp: '1.2.3.4',
});
const bodyOf = (r: { body?: string }) => Buffer.from(r.body ?? '', 'base64').toString();

describe('the render service at a density', () => {
  it('asks the renderer for the density, and keeps the 1× draw as it was', async () => {
    const { svc, calls } = service();
    const dense = await svc.handle(req('/r/still/v3@2x.jpg', 'first_name=Ana'));
    const plain = await svc.handle(req('/r/still/v3.jpg', 'first_name=Ana'));
    expect(calls.map((c) => c.options)).toEqual([
      expect.objectContaining({ density: 2 }),
      expect.not.objectContaining({ density: expect.anything() }),
    ]);
    expect(bodyOf(dense)).not.toBe(bodyOf(plain));
    // Both drawn, each cached under its own key.
    await svc.handle(req('/r/still/v3@2x.jpg', 'first_name=Ana'));
    expect(calls).toHaveLength(2);
    expect(dense.headers?.['cache-control']).toBe(plain.headers?.['cache-control']);
  });

  it('keys a dense image apart, and a 1× image as it always was', () => {
    const values: Array<[string, string]> = [['first_name', 'Ana']];
    expect(renderCacheKey(still, values, 'jpeg', undefined, 2)).not.toBe(
      renderCacheKey(still, values, 'jpeg'),
    );
    expect(renderCacheKey(still, values, 'jpeg', undefined, 1)).toBe(
      renderCacheKey(still, values, 'jpeg'),
    );
  });

  it('answers a design too large at that density the fallback, uncached, and says why', async () => {
    const { svc, calls } = service();
    const refused = await svc.handle(req('/r/tall@2x.jpg', 'first_name=Ana'));
    expect(refused.statusCode).toBe(200);
    expect(refused.headers?.['cache-control']).toBe('no-store');
    expect(refused.headers?.[RENDER_REASON_HEADER]).toBe(DENSITY_REFUSAL);
    // Only the 1× all-fallback was drawn.
    expect(calls.map((c) => c.options)).toEqual([
      expect.not.objectContaining({ density: expect.anything() }),
    ]);
  });

  it('answers a dense image past its byte budget the fallback, uncached', async () => {
    const { svc } = service(async (_d, _v, _f, options) => {
      if (options?.density) throw Object.assign(new Error('over'), { cause: 'over-budget' });
      return { body: Buffer.from('fallback'), contentType: 'image/jpeg' };
    });
    const answer = await svc.handle(req('/r/still@3x.png'));
    expect(answer.headers?.['cache-control']).toBe('no-store');
    expect(answer.headers?.[RENDER_REASON_HEADER]).toBe('over-budget');
    expect(bodyOf(answer)).toBe('fallback');
  });

  it("answers a countdown design's dense GIF with its 1× GIF", async () => {
    const { svc, calls } = service();
    const gif = await svc.handle(req('/r/timed@2x.gif'));
    expect(gif.headers?.['content-type']).toBe('image/gif');
    expect(calls).toEqual([
      { format: 'gif', options: expect.not.objectContaining({ density: expect.anything() }) },
    ]);
  });
});

describe('the dense pixel limit', () => {
  it('fits a default canvas at 3×, the widest canvas at 2× up to its limit', () => {
    expect(densityFits(900, 600, 3)).toBe(true);
    expect(densityFits(1056, 1893, 2)).toBe(true);
    expect(densityFits(1056, 1894, 2)).toBe(false);
    expect(densityFits(1056, 4096, 1)).toBe(true);
    expect(1056 * 2 * 1893 * 2).toBeLessThanOrEqual(MAX_DENSE_PIXELS);
  });
});

/** Deterministic noise, the hardest picture to compress: `width` × `height` RGB. */
function noise(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >>> 23;
  }
  return pixels;
}

describe('the byte budget of a dense image', () => {
  it('steps JPEG quality down from the design’s by 8 to 50, WebP and AVIF likewise', () => {
    expect(budgetLadder('jpeg', DEFAULT_RENDER_QUALITY).map((s) => s.quality)).toEqual([
      86, 78, 70, 62, 54,
    ]);
    expect(budgetLadder('webp', DEFAULT_RENDER_QUALITY).map((s) => s.quality)).toEqual([
      85, 77, 69, 61,
    ]);
    expect(budgetLadder('avif', DEFAULT_RENDER_QUALITY).map((s) => s.quality)).toEqual([
      70, 62, 54, 46,
    ]);
    expect(budgetLadder('png', DEFAULT_RENDER_QUALITY).map((s) => s.palette === true)).toEqual([
      false,
      true,
    ]);
  });

  it('answers the first quality within the budget', async () => {
    const size = { width: 1600, height: 1000 };
    const pixels = noise(size.width, size.height);
    const atDesign = await sharp(pixels, { raw: { ...size, channels: 3 } })
      .jpeg({ quality: DEFAULT_RENDER_QUALITY.quality })
      .toBuffer();
    expect(atDesign.length).toBeGreaterThan(denseByteBudget('jpeg', 2));
    const out = await encodeStill(pixels, size, 'jpeg', DEFAULT_RENDER_QUALITY, 2);
    expect(out.contentType).toBe('image/jpeg');
    expect(out.body.length).toBeLessThanOrEqual(denseByteBudget('jpeg', 2));
    expect(await sharp(out.body).metadata()).toMatchObject(size);
  });

  it('fails past the last step, so the service answers the fallback', async () => {
    const size = { width: 2400, height: 1600 };
    await expect(
      encodeStill(noise(size.width, size.height), size, 'jpeg', DEFAULT_RENDER_QUALITY, 2),
    ).rejects.toMatchObject({ cause: 'over-budget' });
  });

  it('puts a dense PDF’s image on the 1× page', async () => {
    const size = { width: 200, height: 100 };
    const out = await encodeStill(noise(200, 100), size, 'pdf', DEFAULT_RENDER_QUALITY, 2);
    // 100 × 50 px of page at 0.75 pt a px.
    expect(out.body.toString('latin1')).toContain('/MediaBox [ 0 0 75 37.5 ]');
  });
});

describe('a QR code at a density', () => {
  it('repeats each pixel density times each way, at the scaled place', () => {
    const rgba = new Uint8Array([1, 2, 3, 255, 9, 9, 9, 0]);
    const dense = denseDirect({ left: 5, top: 7, width: 2, height: 1, rgba }, 2);
    expect([dense.left, dense.top, dense.width, dense.height]).toEqual([10, 14, 4, 2]);
    const row = [1, 2, 3, 255, 1, 2, 3, 255, 9, 9, 9, 0, 9, 9, 9, 0];
    expect([...dense.rgba]).toEqual([...row, ...row]);
  });
});

describe('a QR code the page draws, at a density', () => {
  it('is made that many times larger, for the same box', async () => {
    const sticker = DesignDocumentSchema.parse({
      ...base,
      graphics_data: [
        {
          uuid: 'q',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'qrCode',
          left: 0,
          top: 0,
          angle: 30,
        },
      ],
    }).graphics_data[0]!;
    const width = async (density: number) => {
      const url = await qrDataUrl('https://example.com/a', sticker, density);
      return (await sharp(Buffer.from(url.split(',')[1]!, 'base64')).metadata()).width!;
    };
    const one = await width(1);
    expect(await width(2)).toBeGreaterThanOrEqual(one * 2 - 2);
    expect(await width(2)).toBeLessThanOrEqual(one * 2 + 2);
  });
});
