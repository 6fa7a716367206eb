/**
 * Animated GIF stickers (docs/editor.md "Animated GIF stickers"; docs/adr/0062-gif-stickers.md "GIF
 * stickers"): an animated upload keeps its animation, fitted as its still, and is placed as that
 * GIF; a design's sticker draws the frame it saved (`gif_frame`, absent = the first) in the
 * render, pixel for pixel the fixture's frame; a new frame is a new render; the GIF a design
 * draws is kept from deletion; an upload whose frames a bound cut says so in its answer.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { frameCentre, solidGif } from '../support/gif.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;

let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

const COLOURS = ['#ff0000', '#00c000', '#0000ff'];

/** The fixture: three solid frames (red, green, blue), 800 x 400 px, 120 ms each. */
const fixtureGif = () => solidGif(COLOURS, { width: 800, height: 400, delayMs: 120 });

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 8);

describe('animated GIF stickers', () => {
  it('keeps the animation of an upload and renders the frame the design saved', async () => {
    const source = await fixtureGif();
    const form = new FormData();
    form.append('type', 'asIcon');
    form.append('image', new Blob([new Uint8Array(source)], { type: 'image/gif' }), 'rgb.gif');
    const uploaded = await demo.request('POST', '/image', form);
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
    // Every frame kept: nothing to tell.
    expect(uploaded.json.notice).toBeNull();
    const sticker = uploaded.json.sticker as {
      id: string;
      url: string;
      icon_url: string;
      width: number;
      height: number;
    };
    // Placed as its GIF, fitted in 512 px like the still; the picker still shows a PNG.
    expect(sticker.url).toMatch(/^files\/stickers\/uploads\/team-demo\/.+\.gif$/);
    expect(sticker.icon_url).toMatch(/\.png$/);
    expect([sticker.width, sticker.height]).toEqual([512, 256]);
    const served = await fetch(url(`/${sticker.url}`));
    expect(served.status).toBe(200);
    const stored = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(stored, { pages: -1 }).metadata();
    expect([meta.format, meta.width, meta.pageHeight, meta.pages]).toEqual(['gif', 512, 256, 3]);
    expect(meta.delay).toEqual([120, 120, 120]);

    // A design drawing it at half size at the top left; no `gif_frame` saved.
    const design = await createDesign(demo, { title: 'GIF sticker' });
    let version = design.version;
    const save = async (gifFrame?: number) => {
      const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
        version,
        graphics_data: [
          {
            uuid: 'gif-1',
            stickerType: 'upload',
            url: sticker.url,
            left: 0,
            top: 0,
            width: 512,
            height: 256,
            scaleX: 0.5,
            scaleY: 0.5,
            ...(gifFrame === undefined ? {} : { gif_frame: gifFrame }),
          },
        ],
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      version = res.json.version as number;
      return res;
    };
    await save();
    const render = async () => {
      const image = await fetchImage(url(`/r/${design.public_id}.png?__preview=1`));
      expect(image.res.status).toBe(200);
      // The sticker's centre: it covers 0..256 x 0..128 px.
      const at = (64 * image.width + 128) * 3;
      return {
        rgb: [image.pixels[at]!, image.pixels[at + 1]!, image.pixels[at + 2]!],
        etag: image.res.headers.get('etag'),
      };
    };
    const first = await render();
    expect(near(first.rgb, await frameCentre(source, 0))).toBe(true);

    // Frame 2 saved: the render draws the fixture's third frame (blue), under a new key.
    await save(2);
    const read = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect((read.json.graphics_data as Array<{ gif_frame?: number }>)[0]!.gif_frame).toBe(2);
    const third = await frameCentre(source, 2);
    const blue = await pollUntil('the third frame', render, (r) => near(r.rgb, third));
    expect(near(blue.rgb, third)).toBe(true);
    expect(blue.etag).not.toBe(first.etag);

    // Frame 1: green, the fixture's second frame.
    await save(1);
    const second = await frameCentre(source, 1);
    expect(
      near((await pollUntil('the second frame', render, (r) => near(r.rgb, second))).rgb, second),
    ).toBe(true);

    // Past the GIF's last frame: its last; past the cap: a field error, nothing saved.
    await save(40);
    expect(
      near((await pollUntil('the last frame', render, (r) => near(r.rgb, third))).rgb, third),
    ).toBe(true);
    const refused = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      version,
      graphics_data: [{ uuid: 'gif-1', url: sticker.url, left: 0, top: 0, gif_frame: 500 }],
    });
    expect(refused.status).toBe(422);

    // The design draws the GIF, so the upload is kept.
    const del = await demo.request('POST', '/deleteUploadSticker', { id: sticker.id });
    expect(del.status).toBe(409);
    expect((await fetch(url(`/${sticker.url}`))).status).toBe(200);
  });

  it('leaves a still upload as it was: a PNG, no animation', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#123' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('type', 'asIcon');
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'still.png');
    const res = await demo.request('POST', '/image', form);
    expect(res.status).toBe(201);
    expect((res.json.sticker as { url: string }).url).toMatch(/\.png$/);
    expect(res.json.notice).toBeNull();
  });

  it('says how many frames it kept when the 500-frame bound cut the animation', async () => {
    const source = await solidGif(['#ff0000', '#0000ff'], { count: 520, width: 8, height: 8 });
    const form = new FormData();
    form.append('type', 'asIcon');
    form.append('image', new Blob([new Uint8Array(source)], { type: 'image/gif' }), 'long.gif');
    const res = await demo.request('POST', '/image', form);
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.notice).toBe(
      'Kept the first 500 of 520 frames: an animated sticker keeps at most 500 frames.',
    );
    const sticker = res.json.sticker as { url: string };
    expect(sticker.url).toMatch(/\.gif$/);
    const served = Buffer.from(await (await fetch(url(`/${sticker.url}`))).arrayBuffer());
    expect((await sharp(served).metadata()).pages).toBe(500);
  });
});
