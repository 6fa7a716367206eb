/**
 * The countdown GIF's frames and encode without a browser (functions/render/countdown-gif.ts,
 * functions/render/gif-patches.ts; docs/performance.md "Countdown timers"): frames are composed
 * between the design's layers as the still draws them (a sticker over the timer stays over its
 * digits), later frames are kept only where they change, and the GIF made of a complete first
 * frame and patches decodes to the frames it was given.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  encodeGif,
  sceneBands,
  timerFrames,
  type DrawnRegion,
  type TimerFrames,
} from '../../functions/render/countdown-gif.ts';
import { blendOver } from '../../functions/render/blend.ts';
import { restoreDesign } from '../../shared/design.ts';
import type { ResolvedScene } from '../../shared/scene/resolve.ts';
import { countdownSticker, layerSticker } from '../support/countdown.ts';

const W = 120;
const H = 60;

/** A photo-like RGB image: a colour gradient, `W` × `H` px. */
function photo(): Buffer {
  const out = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      out.set([(x * 2) & 255, (y * 4) & 255, (x + y) & 255], (y * W + x) * 3);
  return out;
}

/** An opaque region of one colour. */
function solid(left: number, top: number, width: number, height: number, rgb: number[]) {
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([...rgb, 255], i * 4);
  return { left, top, width, height, rgba: rgba.toString('base64') };
}

/** The RGB pixel at x, y of an image `width` px wide. */
const pixel = (pixels: Buffer, width: number, x: number, y: number) => [
  ...pixels.subarray((y * width + x) * 3, (y * width + x) * 3 + 3),
];

describe('timer frames', () => {
  const doc = restoreDesign({
    image_id: 'i',
    base_image_key: 'k',
    canvas_width: W,
    canvas_height: H,
    text_snippets: [],
    graphics_data: [
      countdownSticker(
        { deadline: '2030-01-02T00:00', timeZone: 'UTC', frames: 4, units: 'ms' },
        { uuid: 't', width: W, height: H },
      ),
      {
        uuid: 'over',
        stickerType: 'sticker',
        url: '/x.png',
        left: 70,
        top: 10,
        width: 20,
        height: 20,
      },
    ],
  }).document;
  const now = Date.parse('2030-01-01T23:58:00Z');
  /** The page: the sticker over the timer in green; the seconds' digits as a square, their colour by the digits. */
  const draw = (scenes: ResolvedScene[]): Promise<DrawnRegion[][]> =>
    Promise.resolve(
      scenes.map((scene) => [
        ...scene.images.map((i) => solid(i.left, i.top, i.width, i.height, [0, 255, 0])),
        ...scene.texts
          .filter((t) => /^\d+$/.test(t.text) && t.left > W / 2)
          .map((t) => solid(60, 5, 40, 40, [255, 255, 4 * Number(t.text)])),
      ]),
    );
  const scene: ResolvedScene = {
    width: W,
    height: H,
    images: [{ id: 'over', left: 70, top: 10, width: 20, height: 20, angle: 0, src: 'data:' }],
    texts: [],
  };

  it('keeps a sticker over the timer over its digits, in the first frame and every patch', async () => {
    const frames = await timerFrames(
      doc,
      {},
      now,
      { pixels: photo(), width: W, height: H },
      scene,
      draw,
      blendOver,
    );
    expect(frames.count).toBe(4);
    expect(pixel(frames.first, W, 80, 20)).toEqual([0, 255, 0]);
    expect(pixel(frames.first, W, 62, 7)).toEqual([255, 255, 0]);
    expect(pixel(frames.first, W, 5, 50)).toEqual(pixel(photo(), W, 5, 50));
    const { patch } = frames;
    const size = patch.width * patch.height * 3;
    for (let k = 0; k < frames.count; k++) {
      const inPatch = frames.patches.subarray(k * size, (k + 1) * size);
      expect(pixel(inPatch, patch.width, 80 - patch.left, 20 - patch.top), `frame ${k}`).toEqual([
        0, 255, 0,
      ]);
    }
  });
});

describe('scene bands', () => {
  it('cuts the layers at each timer: stickers by their place, texts and watermarks over all', () => {
    const sticker = layerSticker;
    const doc = restoreDesign({
      image_id: 'i',
      base_image_key: 'k',
      graphics_data: [
        sticker('s0'),
        countdownSticker({}, { uuid: 't1' }),
        sticker('s1'),
        countdownSticker({}, { uuid: 't2' }),
        sticker('s2'),
      ],
    }).document;
    const image = (id: string) => ({ id, left: 0, top: 0, width: 1, height: 1, angle: 0, src: '' });
    const text = { id: 'x' } as ResolvedScene['texts'][number];
    const mark = { kind: 'text' } as unknown as NonNullable<ResolvedScene['watermarks']>[number];
    const bands = sceneBands(doc, {
      width: 900,
      height: 600,
      images: ['s0', 's1', 's2'].map(image),
      texts: [text],
      watermarks: [mark],
    });
    expect(bands.map((b) => b.images.map((i) => i.id))).toEqual([['s0'], ['s1'], ['s2']]);
    expect(bands.map((b) => b.texts.length)).toEqual([0, 0, 1]);
    expect(bands[2]!.watermarks).toEqual([mark]);
    expect(bands[0]!.watermarks).toBeUndefined();
  });
});

describe('GIF of a complete first frame and patches', () => {
  /** Four frames: a white bar 5 px further right each second, inside 30 × 20 px at 50, 20. */
  function frames(): { timer: TimerFrames; whole: Buffer[] } {
    const patch = { left: 50, top: 20, width: 30, height: 20 };
    const whole = [0, 1, 2, 3].map((k) => {
      const f = photo();
      for (let y = 24; y < 36; y++)
        for (let x = 55 + 5 * k; x < 60 + 5 * k; x++) f.set([255, 255, 255], (y * W + x) * 3);
      return f;
    });
    const patches = Buffer.concat(
      whole.map((f) => {
        const out = Buffer.alloc(patch.width * patch.height * 3);
        for (let y = 0; y < patch.height; y++)
          f.copy(
            out,
            y * patch.width * 3,
            ((patch.top + y) * W + patch.left) * 3,
            ((patch.top + y) * W + patch.left + patch.width) * 3,
          );
        return out;
      }),
    );
    return { timer: { first: whole[0]!, width: W, height: H, count: 4, patch, patches }, whole };
  }

  it('decodes to the given frames, one second each, looping', async () => {
    const { timer, whole } = frames();
    const gif = await encodeGif(timer);
    const meta = await sharp(gif, { animated: true }).metadata();
    expect(meta).toMatchObject({ format: 'gif', pages: 4, width: W, pageHeight: H, loop: 0 });
    expect(meta.delay).toEqual([1000, 1000, 1000, 1000]);
    for (let k = 0; k < 4; k++) {
      const { data } = await sharp(gif, { page: k, pages: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      // The bar where this frame has it (white), the gradient within the palette's error.
      expect(pixel(data, W, 57 + 5 * k, 30), `frame ${k}`).toEqual([255, 255, 255]);
      let worst = 0;
      for (let i = 0; i < data.length; i++)
        worst = Math.max(worst, Math.abs(data[i]! - whole[k]![i]!));
      expect(worst, `frame ${k}`).toBeLessThan(24);
    }
  });

  it('repeats the first frame when no frame changes (an expired timer)', async () => {
    const { timer } = frames();
    const still = { left: 0, top: 0, width: 1, height: 1 };
    const gif = await encodeGif({ ...timer, patch: still, patches: Buffer.alloc(4 * 3) });
    const meta = await sharp(gif, { animated: true }).metadata();
    expect(meta.pages).toBe(4);
    const first = await sharp(gif, { page: 0 }).raw().toBuffer();
    expect((await sharp(gif, { page: 3 }).raw().toBuffer()).equals(first)).toBe(true);
  });

  it('is the first frame alone when there is one frame', async () => {
    const { timer } = frames();
    const gif = await encodeGif({ ...timer, count: 1 });
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(1);
  });
});
