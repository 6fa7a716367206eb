/**
 * Animated designs at the `.gif` render URL (docs/animated-designs.md): an animated base photo
 * plays its frames with their delays under the design's text (frame 1 complete, the text there),
 * a GIF sticker plays in its box over a still photo, and a design past a budget (its frames, or
 * the 5 MB its GIF would weigh) answers the fallback, a whole still JPEG, uncached, saying why.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { solidGif } from '../support/gif.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;

let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

/** Uploads a GIF as a base photo (`base`) or as a sticker (`asIcon`). */
async function upload(gif: Buffer, type?: 'asIcon') {
  const form = new FormData();
  if (type) form.append('type', type);
  form.append('image', new Blob([new Uint8Array(gif)], { type: 'image/gif' }), 'anim.gif');
  const res = await demo.request('POST', '/image', form);
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

/** The render's GIF: its frames (RGB, decoded whole by sharp), delays and headers. */
async function renderGif(publicId: string) {
  const res = await fetch(url(`/r/${publicId}.gif?__preview=1`));
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes, { pages: -1 }).metadata();
  const frame = async (n: number) => {
    const { data, info } = await sharp(bytes, { page: n })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => {
      const i = (Math.floor(y) * info.width + Math.floor(x)) * 3;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    return { data, width: info.width, height: info.height, at };
  };
  return { res, bytes, meta, frame };
}

/**
 * A design holding one GIF sticker of three 200x100 frames of `colours`, 150 ms each, at (20, 30),
 * with `fields` over the sticker's; its public id.
 */
async function gifStickerDesign(
  title: string,
  colours: string[],
  fields: Record<string, unknown> = {},
): Promise<string> {
  const gif = await solidGif(colours, { width: 200, height: 100, delayMs: 150 });
  const sticker = (await upload(gif, 'asIcon')).sticker as { url: string };
  const design = await createDesign(demo, { title });
  const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
    version: design.version,
    graphics_data: [
      {
        uuid: 'gif-1',
        stickerType: 'upload',
        url: sticker.url,
        left: 20,
        top: 30,
        width: 200,
        height: 100,
        scaleX: 1,
        scaleY: 1,
        ...fields,
      },
    ],
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return design.public_id;
}

const near = (a: number[], b: number[], by = 40) => a.every((v, i) => Math.abs(v - b[i]!) <= by);

/** Pixels of an RGB image in a rectangle that are not near `colour`. */
function unlike(
  f: { data: Buffer; width: number },
  colour: number[],
  r: { left: number; top: number; width: number; height: number },
): number {
  let n = 0;
  for (let y = r.top; y < r.top + r.height; y++)
    for (let x = r.left; x < r.left + r.width; x++) {
      const i = (y * f.width + x) * 3;
      if (!near([f.data[i]!, f.data[i + 1]!, f.data[i + 2]!], colour, 60)) n++;
    }
  return n;
}

const RED = [255, 0, 0];
const GREEN = [0, 192, 0];
const BLUE = [0, 0, 255];

describe('animated designs', () => {
  it('plays an animated base photo with its delays, every frame under the text', async () => {
    const gif = await solidGif(['#ff0000', '#00c000', '#0000ff'], {
      width: 400,
      height: 200,
      delayMs: [100, 200, 300],
    });
    const image = (await upload(gif)).image as { id: string };
    const design = await createDesign(demo, { image_id: image.id });
    const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      text_snippets: [{ id: 't1', text: 'SALE', left: 10, top: 10, width: 300, fontSize: 60 }],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);

    const drawn = await renderGif(design.public_id);
    expect(drawn.res.status).toBe(200);
    expect(drawn.res.headers.get('content-type')).toBe('image/gif');
    expect(drawn.meta.pages).toBe(3);
    expect(drawn.meta.delay).toEqual([100, 200, 300]);
    const frames = await Promise.all([0, 1, 2].map(drawn.frame));
    const { width, height } = frames[0]!;
    const colours = [RED, GREEN, BLUE];
    // The photo's frame at the bottom right, far from the text.
    frames.forEach((f, k) => expect(near(f.at(width - 10, height - 10), colours[k]!)).toBe(true));
    // Frame 1 alone is the whole design: the text is drawn there (and stays in every frame).
    const band = { left: 10, top: 10, width: Math.min(300, width - 10), height: 60 };
    frames.forEach((f, k) => expect(unlike(f, colours[k]!, band)).toBeGreaterThan(100));
  });

  it('moves a GIF sticker in its box over a still photo', async () => {
    const id = await gifStickerDesign('GIF sticker moves', ['#ff0000', '#00c000', '#0000ff']);
    const drawn = await renderGif(id);
    expect(drawn.res.status).toBe(200);
    expect(drawn.meta.pages).toBe(3);
    expect(drawn.meta.delay).toEqual([150, 150, 150]);
    const frames = await Promise.all([0, 1, 2].map(drawn.frame));
    // The sticker's centre takes each of its frames' colours; the photo outside it stays.
    [RED, GREEN, BLUE].forEach((c, k) => expect(near(frames[k]!.at(120, 80), c)).toBe(true));
    const outside = frames.map((f) => f.at(f.width - 5, f.height - 5));
    expect(near(outside[1]!, outside[0]!, 12) && near(outside[2]!, outside[0]!, 12)).toBe(true);
  });

  it('plays a coloured GIF sticker with its colour on every frame, frame 1 as the still', async () => {
    const id = await gifStickerDesign('Coloured GIF sticker', ['#ff0000', '#00c000', '#404040'], {
      filters: [{ type: 'BlendColor', color: '#0000ff', mode: 'screen', alpha: 1 }],
    });
    const drawn = await renderGif(id);
    expect(drawn.res.status).toBe(200);
    expect(drawn.meta.pages).toBe(3);
    const frames = await Promise.all([0, 1, 2].map(drawn.frame));
    // Blue in mode screen: red becomes magenta, green cyan-green, grey light blue.
    const blended = [
      [255, 0, 255],
      [0, 192, 255],
      [64, 64, 255],
    ];
    blended.forEach((c, k) => expect(near(frames[k]!.at(120, 80), c, 24)).toBe(true));
    // Frame 1 is what the still URL draws (the colour blended by the page).
    const still = await fetch(url(`/r/${id}.png?__preview=1`));
    const { data, info } = await sharp(Buffer.from(await still.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const i = (80 * info.width + 120) * 3;
    expect(near(frames[0]!.at(120, 80), [data[i]!, data[i + 1]!, data[i + 2]!], 24)).toBe(true);
  });

  it('answers the fallback, uncached and saying why, past the frame budget', async () => {
    // 150 frames of 20 ms: more than the 100 frames an animated design's GIF may have.
    const gif = await solidGif(['#ff0000', '#0000ff'], {
      count: 150,
      width: 64,
      height: 32,
      delayMs: 20,
    });
    const image = (await upload(gif)).image as { id: string };
    const design = await createDesign(demo, { image_id: image.id });
    const drawn = await fetch(url(`/r/${design.public_id}.gif?__preview=1`));
    expect(drawn.headers.get('x-render-reason')).toBe('over-budget');
    expect(drawn.headers.get('cache-control')).toBe('no-store');
    // The still URLs of the same design draw as before.
    const still = await fetch(url(`/r/${design.public_id}.png?__preview=1`));
    expect(still.status).toBe(200);
    expect(still.headers.get('x-render-reason')).toBeNull();
  });
});

/**
 * An animated GIF of `count` frames of RGB noise (xorshift32 from a fixed seed), `width` ×
 * `height` px, 100 ms each: colours no palette holds and LZW cannot shorten, about a byte a
 * pixel however it is encoded again.
 */
async function noiseGif(count: number, width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3 * count);
  let x = 2463534242;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 0xff;
  }
  return sharp(data, { raw: { width, height: height * count, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: Array.from({ length: count }, () => 100), effort: 1, dither: 0 })
    .toBuffer();
}

describe('the output byte budget of an animated design', () => {
  it('answers the fallback, a whole still JPEG, uncached, when its GIF would pass 5 MB', async () => {
    // One noise GIF of 48 frames of 300x200 (about 3.5 MB), drawn by two stickers side by side:
    // 48 patches of 600x200 and frame 1 are under 6 Mpx (budget 17 Mpx), 48 frames of 100 ms
    // (budgets 100 frames, 20 s), each source read 2.9 Mpx (budget 40 Mpx); the GIF about 6.4 MB
    // (36 such frames made 4.8 MB, under the budget).
    const gif = await noiseGif(48, 300, 200);
    const sticker = (await upload(gif, 'asIcon')).sticker as { url: string };
    const design = await createDesign(demo, { title: 'Noise past 5 MB' });
    const put = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      graphics_data: [0, 300].map((left, i) => ({
        uuid: `noise-${i}`,
        stickerType: 'upload',
        url: sticker.url,
        left,
        top: 0,
        width: 300,
        height: 200,
        scaleX: 1,
        scaleY: 1,
      })),
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);

    const res = await fetch(url(`/r/${design.public_id}.gif?__preview=1`));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-render-reason')).toBe('over-budget');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    // The whole image, never a cut GIF: sharp decodes every row of it, at least the stickers' size.
    const bytes = Buffer.from(await res.arrayBuffer());
    const { info } = await sharp(bytes, { failOn: 'truncated' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBeGreaterThanOrEqual(600);
    expect(info.height).toBeGreaterThanOrEqual(200);
  }, 60_000);
});
