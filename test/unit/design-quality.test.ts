/**
 * A design's JPEG output settings (shared/design.ts `quality`, docs/performance.md "Output
 * quality"): defaults equal to the encoder's former fixed options, bounds, old documents, and
 * the sharp options the renderer derives from it.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { demoDesignDocument } from '#infra/local/seed.ts';
import {
  CURRENT_SCHEMA_VERSION,
  DEFAULT_RENDER_QUALITY,
  DesignDocumentFieldsSchema,
  RenderQualitySchema,
  restoreDesign,
} from '#shared/design.ts';
import { jpegOptions } from '#functions/render/renderer.ts';

const design = (extra: Record<string, unknown> = {}) => ({
  schemaVersion: CURRENT_SCHEMA_VERSION,
  image_id: 'library-autumn',
  base_image_key: 'library/global/autumn.jpg',
  ...extra,
});

describe('quality schema', () => {
  it('defaults to the encoder values used before the setting existed', () => {
    expect(DEFAULT_RENDER_QUALITY).toEqual({
      quality: 86,
      progressive: false,
      chromaSubsampling: '4:2:0',
    });
    expect(DesignDocumentFieldsSchema.parse(design()).quality).toEqual(DEFAULT_RENDER_QUALITY);
    expect(RenderQualitySchema.parse({ progressive: true })).toEqual({
      ...DEFAULT_RENDER_QUALITY,
      progressive: true,
    });
  });

  it('gives each document its own default object', () => {
    const a = DesignDocumentFieldsSchema.parse(design());
    a.quality.quality = 50;
    expect(DesignDocumentFieldsSchema.parse(design()).quality.quality).toBe(86);
  });

  it('accepts 1..100 whole qualities, both subsamplings, and nothing else', () => {
    for (const quality of [1, 60, 100])
      expect(RenderQualitySchema.safeParse({ quality }).success).toBe(true);
    for (const quality of [0, 101, 85.5, -1, Number.NaN, '86'])
      expect(RenderQualitySchema.safeParse({ quality }).success).toBe(false);
    expect(RenderQualitySchema.safeParse({ chromaSubsampling: '4:4:4' }).success).toBe(true);
    for (const chromaSubsampling of ['4:2:2', '444', ''])
      expect(RenderQualitySchema.safeParse({ chromaSubsampling }).success).toBe(false);
    expect(RenderQualitySchema.safeParse({ progressive: 'yes' }).success).toBe(false);
  });
});

describe('restoreDesign and quality', () => {
  it('restores an old (version 1) document without the field to the defaults', () => {
    const old = demoDesignDocument({ key: 'library/global/autumn.jpg', width: 1600, height: 1000 });
    expect(old).not.toHaveProperty('quality');
    expect(restoreDesign(old).document.quality).toEqual(DEFAULT_RENDER_QUALITY);
  });

  it('restores a current document without the field to the defaults, unrepaired', () => {
    const { document, repaired } = restoreDesign(design());
    expect(document.quality).toEqual(DEFAULT_RENDER_QUALITY);
    expect(repaired).toEqual([]);
  });

  it('keeps a valid setting', () => {
    const quality = { quality: 92, progressive: true, chromaSubsampling: '4:4:4' };
    expect(restoreDesign(design({ quality })).document.quality).toEqual(quality);
  });

  it('repairs a stored setting past its bounds entry by entry, keeping the rest', () => {
    const { document, repaired } = restoreDesign(
      design({ quality: { quality: 400, progressive: true, chromaSubsampling: '4:2:2' } }),
    );
    expect(document.quality).toEqual({
      quality: 86,
      progressive: true,
      chromaSubsampling: '4:2:0',
    });
    expect(repaired.length).toBeGreaterThan(0);
  });
});

describe('jpegOptions', () => {
  it('maps the default setting to the former `.jpeg({ quality: 86 })` pixels, with standard Huffman tables', async () => {
    const options = jpegOptions(DEFAULT_RENDER_QUALITY);
    expect(options).toEqual({
      quality: 86,
      progressive: false,
      chromaSubsampling: '4:2:0',
      mozjpeg: false,
      optimiseCoding: false,
    });
    const pixels = sharp({
      create: { width: 64, height: 48, channels: 3, background: '#c0392b' },
    }).composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><text x="2" y="30" font-size="20" fill="#1e88e5">Ab</text></svg>',
        ),
      },
    ]);
    const raw = await pixels.raw().toBuffer({ resolveWithObject: true });
    const from = () => sharp(raw.data, { raw: raw.info });
    const before = await from().jpeg({ quality: 86 }).toBuffer();
    const now = await from().jpeg(options).toBuffer();
    // Other Huffman tables, so other bytes; the same coefficients, so the same decoded pixels.
    expect(now.equals(before)).toBe(false);
    const decoded = (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();
    expect((await decoded(now)).equals(await decoded(before))).toBe(true);
  });

  it('passes progressive and 4:4:4 through to the JPEG', async () => {
    const jpeg = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#336699' },
    })
      .jpeg(jpegOptions({ quality: 70, progressive: true, chromaSubsampling: '4:4:4' }))
      .toBuffer();
    const meta = await sharp(jpeg).metadata();
    expect(meta.isProgressive).toBe(true);
    expect(meta.chromaSubsampling).toBe('4:4:4');
  });
});
