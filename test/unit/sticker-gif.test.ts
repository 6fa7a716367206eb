/**
 * Animated GIF sticker uploads keep their animation within bounds (functions/stickers/images.ts
 * `stickerGifFromRaster`; docs/editor.md "Animated GIF stickers"): fitted as the still is, frame
 * delays kept, at most 500 frames and 100 MB of decoded frames, and nothing for a still image;
 * the notice the uploader gets when a bound cut frames.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  MAX_STICKER_GIF_PIXELS,
  stickerFromRaster,
  stickerGifFromRaster,
  stickerGifNotice,
} from '#functions/stickers/images.ts';
import { MAX_GIF_FRAMES } from '#shared/gif.ts';
import { frameCentre, solidGif } from '../support/gif.ts';

describe('stickerGifFromRaster', () => {
  it('keeps every frame of a small GIF, fitted as the still, with its delays', async () => {
    const source = await solidGif(['#ff0000', '#00ff00', '#0000ff'], {
      width: 800,
      height: 400,
      delayMs: [300, 100, 100],
    });
    const still = await stickerFromRaster(source);
    expect([still.width, still.height]).toEqual([512, 256]);
    const outcome = (await stickerGifFromRaster(source, still))!;
    expect(outcome).toMatchObject({ sourceFrames: 3, cap: null });
    expect(stickerGifNotice(outcome)).toBeNull();
    const gif = outcome.gif!;
    expect(gif.frames).toBe(3);
    const meta = await sharp(gif.bytes, { pages: -1 }).metadata();
    expect(meta.format).toBe('gif');
    expect([meta.width, meta.pageHeight, meta.pages]).toEqual([512, 256, 3]);
    expect(meta.delay).toEqual([300, 100, 100]);
    const [r, g, b] = await frameCentre(gif.bytes, 2);
    expect(b).toBeGreaterThan(200);
    expect(r! + g!).toBeLessThan(60);
  });

  it(`keeps at most ${MAX_GIF_FRAMES} frames`, async () => {
    const source = await solidGif(['#ff0000', '#0000ff'], {
      count: MAX_GIF_FRAMES + 20,
      width: 8,
      height: 8,
    });
    const outcome = (await stickerGifFromRaster(source, { width: 8, height: 8 }))!;
    const gif = outcome.gif!;
    expect(gif.frames).toBe(MAX_GIF_FRAMES);
    expect(stickerGifNotice(outcome)).toBe(
      `Kept the first ${MAX_GIF_FRAMES} of ${MAX_GIF_FRAMES + 20} frames: an animated sticker keeps at most ${MAX_GIF_FRAMES} frames.`,
    );
    expect((await sharp(gif.bytes).metadata()).pages).toBe(MAX_GIF_FRAMES);
  });

  it('keeps only the first frames that fit in the decoded-pixel budget', async () => {
    // 100 MB of RGBA: a hundred 512 px square frames.
    expect(Math.floor(MAX_STICKER_GIF_PIXELS / (512 * 512))).toBe(100);
    const source = await solidGif(['#ff0000', '#0000ff'], { count: 12, width: 50, height: 40 });
    const outcome = (await stickerGifFromRaster(source, { width: 50, height: 40 }, 50 * 40 * 10))!;
    const gif = outcome.gif!;
    expect(gif.frames).toBe(10);
    expect(stickerGifNotice(outcome)).toBe(
      'Kept the first 10 of 12 frames: an animated sticker keeps at most 100 MB of decoded frames.',
    );
    // A budget that leaves one frame keeps no animation, and says so.
    const none = (await stickerGifFromRaster(source, { width: 50, height: 40 }, 50 * 40 * 1))!;
    expect(none.gif).toBeNull();
    expect(stickerGifNotice(none)).toBe(
      'The animation was not kept (12 frames): an animated sticker keeps at most 100 MB of decoded frames; the sticker is its first frame.',
    );
    expect((await sharp(gif.bytes).metadata()).pages).toBe(10);
  });

  it('keeps nothing for a one-frame GIF or another format', async () => {
    const one = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#f00' } })
      .gif()
      .toBuffer();
    expect(await stickerGifFromRaster(one, { width: 20, height: 20 })).toBeNull();
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    expect(await stickerGifFromRaster(png, { width: 20, height: 20 })).toBeNull();
  });
});
