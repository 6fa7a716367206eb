/**
 * Animated designs' rules that need no stack (docs/animated-designs.md): the timeline of parts
 * with different delays, the frame a part starts at, how a source GIF is read (its delays, the
 * under-20 ms rule, the reading budgets), the pixel budget of frame 1 and the patches, a
 * sticker colour blended per frame, the encoded GIF's per-frame delays, and the output byte
 * budget on frames that really encode past it.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  MAX_ANIMATED_BYTES,
  MAX_ANIMATED_FRAMES,
  animatedFrames,
  colouredFrames,
  encodeAnimated,
  startingAt,
  timeline,
} from '../../functions/render/animated-gif.ts';
import { readGifFrames } from '../../functions/render/gif-frame.ts';
import { solidGif } from '../support/gif.ts';

const cause = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (error) {
    return (error as { cause?: unknown }).cause;
  }
  return 'no error';
};

/** The first pixel's RGB of a frame is within 40 of `rgb` (the GIF's palette shifts colours). */
const startsNear = (rgba: Uint8Array, rgb: number[]) =>
  rgb.every((v, i) => Math.abs(rgba[i]! - v) <= 40);

describe('timeline', () => {
  it('starts a frame wherever any part changes, over the longest loop', () => {
    const t = timeline([
      [100, 100, 100],
      [150, 150],
    ]);
    expect(t.delaysMs).toEqual([100, 50, 50, 100]);
    expect(t.shown).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
    ]);
  });

  it('loops a shorter part within the longest', () => {
    const t = timeline([[100, 100, 100, 100], [200]]);
    expect(t.delaysMs).toEqual([100, 100, 100, 100]);
    expect(t.shown.map((s) => s[1])).toEqual([0, 0, 0, 0]);
  });

  it('refuses more frames or a longer loop than the budgets', async () => {
    const many = Array.from({ length: MAX_ANIMATED_FRAMES + 1 }, () => 20);
    expect(await cause(() => timeline([many]))).toBe('over-budget');
    expect(await cause(() => timeline([[20_001]]))).toBe('over-budget');
    expect(timeline([Array.from({ length: MAX_ANIMATED_FRAMES }, () => 20)]).delaysMs).toHaveLength(
      MAX_ANIMATED_FRAMES,
    );
  });
});

describe('readGifFrames', () => {
  it('reads every frame fitted to the box, with its delay; under 20 ms plays as 100 ms', async () => {
    const gif = await solidGif(['#ff0000', '#00ff00', '#0000ff'], {
      width: 40,
      height: 20,
      delayMs: [0, 10, 250],
    });
    const frames = await readGifFrames(gif, 10, 5, {});
    expect(frames.count).toBe(3);
    expect(frames.delaysMs).toEqual([100, 100, 250]);
    expect(frames.frame(2)).toHaveLength(10 * 5 * 4);
    expect(startsNear(frames.frame(1), [0, 255, 0])).toBe(true);
  });

  it('refuses a GIF past the decoded-bytes budget before decoding it', async () => {
    // 2 frames fitted to 6000 × 5000 px: 240 MB of RGBA, over 100 MB.
    const gif = await solidGif(['#ff0000', '#0000ff'], { width: 8, height: 8 });
    expect(await cause(readGifFrames(gif, 6000, 5000, {}))).toBe('over-budget');
  });
});

describe('startingAt', () => {
  it('plays from the saved frame and wraps round; past the last starts at the last', async () => {
    const gif = await solidGif(['#ff0000', '#00ff00', '#0000ff'], {
      width: 4,
      height: 4,
      delayMs: [100, 200, 300],
    });
    const frames = await readGifFrames(gif, 4, 4, {});
    const from1 = startingAt(frames, 1);
    expect(from1.delaysMs).toEqual([200, 300, 100]);
    expect(startsNear(from1.frame(0), [0, 255, 0])).toBe(true);
    expect(startsNear(from1.frame(2), [255, 0, 0])).toBe(true);
    expect(startingAt(frames, 9).delaysMs).toEqual([300, 100, 200]);
  });
});

describe('colouredFrames', () => {
  it("blends a sticker's colour onto every frame in mode screen, as fabric's BlendColor", async () => {
    const gif = await solidGif(['#ff0000', '#00c000', '#404040'], { width: 4, height: 4 });
    const frames = await readGifFrames(gif, 4, 4, {});
    const blue = colouredFrames(frames, '#00f')!;
    expect(blue.delaysMs).toEqual(frames.delaysMs);
    // Screen: 255 - (255 - c)(255 - t) / 255 per channel; the frame read stays as it was.
    const rgbOf = (rgba: Uint8Array) => [...rgba.slice(0, 3)];
    const screen = (c: number, t: number) => Math.round(255 - ((255 - c) * (255 - t)) / 255);
    for (let i = 0; i < 3; i++) {
      const [r, g, b] = rgbOf(frames.frame(i));
      expect(rgbOf(blue.frame(i))).toEqual([screen(r!, 0), screen(g!, 0), screen(b!, 255)]);
    }
    expect(rgbOf(blue.frame(2))).toEqual([64, 64, 255]);
    expect(startsNear(frames.frame(2), [64, 64, 64])).toBe(true);
    const grey = colouredFrames(frames, '#808080')!;
    expect(rgbOf(grey.frame(2))).toEqual([160, 160, 160]);
    // A colour that is no hex colour keeps the sticker still.
    expect(colouredFrames(frames, 'rgb(0 0 255)')).toBeNull();
  });
});

describe('animatedFrames', () => {
  it('refuses frame 1 and the patches past the pixel budget before composing a frame', async () => {
    // A 2000x1000 canvas whose whole area moves: frame 1 and 9 patches of 2 Mpx are 20 Mpx.
    let read = 0;
    const part = {
      box: { left: 0, top: 0, width: 2000, height: 1000 },
      frames: {
        count: 10,
        width: 2000,
        height: 1000,
        delaysMs: Array.from({ length: 10 }, () => 100),
        frame: () => {
          read++;
          return new Uint8Array(0);
        },
      },
    };
    const below = { pixels: Buffer.alloc(0), width: 2000, height: 1000 };
    const run = () => animatedFrames({ parts: [part], stickerIds: new Set() }, below, []);
    expect(await cause(run)).toBe('over-budget');
    expect(read).toBe(0);
  });
});

describe('encodeAnimated', () => {
  it("writes each frame's delay and every frame's colours", async () => {
    const gif = await solidGif(['#ff0000', '#00c000', '#0000ff'], {
      width: 20,
      height: 10,
      delayMs: [100, 200, 300],
    });
    const frames = await readGifFrames(gif, 20, 10, {});
    const below = { pixels: Buffer.alloc(60 * 30 * 3, 255), width: 60, height: 30 };
    const moving = animatedFrames(
      {
        parts: [{ box: { left: 10, top: 10, width: 20, height: 10 }, frames }],
        stickerIds: new Set(),
      },
      below,
      [],
    );
    const out = await encodeAnimated(moving);
    const meta = await sharp(out, { pages: -1 }).metadata();
    expect(meta.pages).toBe(3);
    expect(meta.delay).toEqual([100, 200, 300]);
    const colours = await Promise.all(
      [0, 1, 2].map(async (page) => {
        const { data } = await sharp(out, { page })
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const at = (x: number, y: number) => [
          ...data.subarray((y * 60 + x) * 3, (y * 60 + x) * 3 + 3),
        ];
        return [at(20, 15), at(50, 25)];
      }),
    );
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 40);
    [
      [255, 0, 0],
      [0, 192, 0],
      [0, 0, 255],
    ].forEach((c, k) => {
      expect(near(colours[k]![0]!, c)).toBe(true);
      expect(near(colours[k]![1]!, [255, 255, 255])).toBe(true);
    });
  });
});

describe("the later frames' palette", () => {
  it("holds every frame's colours when the patches pass the 160,000 px it samples", async () => {
    // Three frames of 400x200 (240,000 px of patches): the last one's blue must be in the table.
    const gif = await solidGif(['#ff0000', '#00c000', '#0000ff'], { width: 400, height: 200 });
    const frames = await readGifFrames(gif, 400, 200, {});
    const below = { pixels: Buffer.alloc(400 * 200 * 3, 255), width: 400, height: 200 };
    const out = await encodeAnimated(
      animatedFrames(
        {
          parts: [{ box: { left: 0, top: 0, width: 400, height: 200 }, frames }],
          stickerIds: new Set(),
        },
        below,
        [],
      ),
    );
    const centre = async (page: number) => {
      const { data } = await sharp(out, { page })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const i = (100 * 400 + 200) * 3;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    expect(startsNear(Uint8Array.from(await centre(1)), [0, 192, 0])).toBe(true);
    expect(startsNear(Uint8Array.from(await centre(2)), [0, 0, 255])).toBe(true);
  });
});

/**
 * `count` frames of `width` × `height` px of RGBA noise (xorshift32 from a fixed seed, opaque):
 * the colours no palette holds and LZW cannot shorten, about 1.4 bytes a pixel as a GIF.
 */
function noiseFrames(count: number, width: number, height: number) {
  const size = width * height * 4;
  const data = new Uint8Array(size * count);
  let x = 2463534242;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = (i & 3) === 3 ? 255 : x & 0xff;
  }
  return {
    count,
    width,
    height,
    delaysMs: Array.from({ length: count }, () => 100),
    frame: (k: number) => data.subarray(k * size, (k + 1) * size),
  };
}

describe('the output byte budget', () => {
  it('refuses an animation whose GIF encodes past 5 MB, within every other budget', async () => {
    // 18 frames of 600x400 noise over the whole canvas: 4.3 Mpx (under the 17 Mpx budget),
    // 18 frames of 100 ms (under 100 frames and 20 s), about 6 MB as a GIF.
    const frames = noiseFrames(18, 600, 400);
    const below = { pixels: Buffer.alloc(600 * 400 * 3, 128), width: 600, height: 400 };
    const moving = animatedFrames(
      {
        parts: [{ box: { left: 0, top: 0, width: 600, height: 400 }, frames }],
        stickerIds: new Set(),
      },
      below,
      [],
    );
    const error = await encodeAnimated(moving).then(
      () => null,
      (e: unknown) => e as Error & { cause?: unknown },
    );
    expect(error?.cause).toBe('over-budget');
    expect(error?.message).toMatch(
      new RegExp(`^animated GIF over budget: \\d+ bytes > ${MAX_ANIMATED_BYTES}$`),
    );
  }, 30_000);
});
