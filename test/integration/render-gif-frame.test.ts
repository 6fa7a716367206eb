/**
 * An animated GIF base photo draws the frame the design saved (shared/design.ts
 * `base_image_gif_frame`; functions/render/gif-frame.ts; docs/adr/0059-gif-playback.md "GIF
 * playback"), through the real upload and render path: frame 0 for a design that never saved one
 * (as before), the saved frame after a save, the last frame for an index past it, and a 422 past
 * the cap.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

/** A two-frame GIF: red, then blue, 200 x 100 px, 100 ms each. */
async function twoColourGif(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 200, height: 100, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp(await Promise.all(['#ff0000', '#0000ff'].map(frame)), {
    join: { animated: true },
  })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

describe('GIF frames in the render', () => {
  it('draws the saved frame of an animated base photo', async () => {
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(await twoColourGif())], { type: 'image/gif' }),
      'two.gif',
    );
    const uploaded = await demo.request('POST', '/image', form);
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
    const imageId = (uploaded.json.image as { id: string }).id;
    const design = await createDesign(demo, { image_id: imageId });
    const read = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect(read.json.base_image_gif_frame).toBe(0);

    const centre = async () => {
      const image = await fetchImage(`${stack().url}/r/${design.public_id}.png?__preview=1`);
      expect(image.res.status).toBe(200);
      const i = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 3;
      return [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
    };
    const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
    const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

    // Never saved a frame: the first, red, as every render drew before.
    expect(isRed(await centre())).toBe(true);

    let version = design.version;
    const save = async (frame: number) => {
      const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
        version,
        base_image_gif_frame: frame,
      });
      if (res.status === 200) version = res.json.version as number;
      return res;
    };

    // Frame 1 saved: blue (a new version, so a new draw within the design cache's second).
    expect((await save(1)).status).toBe(200);
    expect(isBlue(await pollUntil('the second frame', centre, isBlue))).toBe(true);

    // Back to frame 0: red again.
    expect((await save(0)).status).toBe(200);
    expect(isRed(await pollUntil('the first frame', centre, isRed))).toBe(true);

    // Past the GIF's last frame: its last (blue).
    expect((await save(7)).status).toBe(200);
    expect(isBlue(await pollUntil('the last frame', centre, isBlue))).toBe(true);

    // Past the cap of 500 frames: refused with a field error, nothing saved.
    const refused = await save(500);
    expect(refused.status).toBe(422);
    const after = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect(after.json.base_image_gif_frame).toBe(7);
  });
});
