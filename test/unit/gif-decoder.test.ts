/**
 * The editor's GIF decoder (web/src/features/editor/gif/decoder.ts; docs/adr/0059-gif-playback.md
 * "GIF playback"): frame count, delays as browsers play them, composition and disposal, bounds.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  composeFrames,
  decodeGif,
  playedDelay,
  type FramePatch,
} from '../../web/src/features/editor/gif/decoder.ts';

/** An animated GIF of solid frames made by sharp (libvips' GIF encoder). */
async function solidGif(colours: string[], delays: number[]): Promise<ArrayBuffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 20, height: 10, channels: 3, background } })
      .png()
      .toBuffer();
  const gif = await sharp(await Promise.all(colours.map(frame)), { join: { animated: true } })
    .gif({ loop: 0, delay: delays })
    .toBuffer();
  return gif.buffer.slice(gif.byteOffset, gif.byteOffset + gif.byteLength) as ArrayBuffer;
}

const pixel = (rgba: Uint8ClampedArray, width: number, x: number, y: number) => [
  ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
];

/** A patch of one colour over a rectangle. */
function patch(
  dims: FramePatch['dims'],
  rgba: number[],
  disposalType: number,
  delay = 100,
): FramePatch {
  const data = new Uint8ClampedArray(dims.width * dims.height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { dims, patch: data, delay, disposalType };
}

describe('GIF decoding', () => {
  it('reads every frame of a GIF with its delay and colours', async () => {
    const gif = await decodeGif(await solidGif(['#ff0000', '#00ff00', '#0000ff'], [100, 250, 40]));
    expect([gif.width, gif.height]).toEqual([20, 10]);
    expect(gif.frames.map((f) => f.delayMs)).toEqual([100, 250, 40]);
    expect(pixel(gif.frames[0]!.rgba, 20, 5, 5)).toEqual([255, 0, 0, 255]);
    expect(pixel(gif.frames[1]!.rgba, 20, 5, 5)).toEqual([0, 255, 0, 255]);
    expect(pixel(gif.frames[2]!.rgba, 20, 19, 9)).toEqual([0, 0, 255, 255]);
  });

  it('plays a delay of 10 ms or less as 100 ms, as browsers do', () => {
    expect(playedDelay(0)).toBe(100);
    expect(playedDelay(10)).toBe(100);
    expect(playedDelay(20)).toBe(20);
  });

  it('refuses bytes that are not a GIF', () => {
    expect(() => decodeGif(new TextEncoder().encode('PNG not a gif').buffer)).toThrow('not a GIF');
  });
});

describe('GIF frame composition', () => {
  const red = [255, 0, 0, 255];
  const blue = [0, 0, 255, 255];
  const full = { left: 0, top: 0, width: 4, height: 4 };
  const corner = { left: 0, top: 0, width: 2, height: 2 };

  it('keeps the picture under a smaller frame (disposal 1) and lets transparent pixels through', () => {
    const hole = patch(corner, blue, 1);
    hole.patch.set([0, 0, 0, 0], 0); // the top-left pixel is transparent
    const frames = composeFrames([patch(full, red, 1), hole], 4, 4);
    expect(pixel(frames[1]!.rgba, 4, 0, 0)).toEqual(red);
    expect(pixel(frames[1]!.rgba, 4, 1, 1)).toEqual(blue);
    expect(pixel(frames[1]!.rgba, 4, 3, 3)).toEqual(red);
  });

  it('clears the frame to transparent after it (disposal 2)', () => {
    const frames = composeFrames(
      [patch(full, red, 1), patch(corner, blue, 2), patch({ ...corner, left: 2 }, blue, 1)],
      4,
      4,
    );
    expect(pixel(frames[1]!.rgba, 4, 0, 0)).toEqual(blue);
    expect(pixel(frames[2]!.rgba, 4, 0, 0)).toEqual([0, 0, 0, 0]);
    expect(pixel(frames[2]!.rgba, 4, 3, 3)).toEqual(red);
  });

  it('restores the picture from before the frame (disposal 3)', () => {
    const frames = composeFrames(
      [patch(full, red, 1), patch(corner, blue, 3), patch({ ...corner, left: 2 }, blue, 1)],
      4,
      4,
    );
    expect(pixel(frames[2]!.rgba, 4, 0, 0)).toEqual(red);
    expect(pixel(frames[2]!.rgba, 4, 2, 0)).toEqual(blue);
  });

  it('stops at the memory budget, keeping at least one frame', () => {
    const patches = Array.from({ length: 10 }, () => patch(full, red, 1));
    expect(composeFrames(patches, 4, 4, 4 * 4 * 4 * 3)).toHaveLength(3);
    expect(composeFrames(patches, 4, 4, 1)).toHaveLength(1);
  });

  it('decodes no frame past the caps: a long GIF costs only the frames it keeps', async () => {
    // 12 frames of 20 x 10 px with room for 3: a lazy source is asked for 3 patches only.
    const bytes = await solidGif(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? '#f00' : '#00f')),
      [...Array<number>(12).fill(100)],
    );
    const decoded = decodeGif(bytes, 20 * 10 * 4 * 3);
    expect(decoded.frames).toHaveLength(3);
    let pulled = 0;
    function* counted() {
      for (let i = 0; i < 1000; i++) {
        pulled += 1;
        yield patch(full, red, 1);
      }
    }
    expect(composeFrames(counted(), 4, 4, 4 * 4 * 4 * 3)).toHaveLength(3);
    expect(pulled).toBe(3);
  });
});
