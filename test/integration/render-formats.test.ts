/**
 * WebP and AVIF render URLs through the local stack (docs/export.md "Image formats"): the same
 * design and values as the JPEG, at the same size, named by the extension (the content type
 * says so), smaller than the JPEG, and cached apart from it.
 */
import sharp, { type Metadata } from 'sharp';
import { describe, expect, it } from 'vitest';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

async function get(path: string) {
  const res = await fetch(`${stack().url}${path}`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

describe('WebP and AVIF render URLs', () => {
  it('draw the design as the JPEG does, in fewer bytes', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('formats'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const jpeg = await get(`${design.render}.jpg?first_name=Zo%C3%AB`);
    const webp = await get(`${design.render}.webp?first_name=Zo%C3%AB`);
    const avif = await get(`${design.render}.avif?first_name=Zo%C3%AB`);
    expect([jpeg.status, webp.status, avif.status]).toEqual([200, 200, 200]);
    expect([jpeg.type, webp.type, avif.type]).toEqual(['image/jpeg', 'image/webp', 'image/avif']);
    const [j, w, a] = (await Promise.all(
      [jpeg, webp, avif].map((r) => sharp(r.body).metadata()),
    )) as [Metadata, Metadata, Metadata];
    expect(w.format).toBe('webp');
    expect(a.format).toBe('heif');
    expect(a.compression).toBe('av1');
    expect([w.width, w.height]).toEqual([j.width, j.height]);
    expect([a.width, a.height]).toEqual([j.width, j.height]);
    expect(webp.body.length).toBeLessThan(jpeg.body.length);
    expect(avif.body.length).toBeLessThan(jpeg.body.length);
    // The same picture: the WebP's pixels are close to the JPEG's (mean difference per channel).
    const pixels = async (body: Buffer) =>
      (await sharp(body).removeAlpha().raw().toBuffer()).subarray(0);
    const [pj, pw] = await Promise.all([pixels(jpeg.body), pixels(webp.body)]);
    let sum = 0;
    for (let i = 0; i < pj.length; i++) sum += Math.abs(pj[i]! - pw[i]!);
    expect(sum / pj.length).toBeLessThan(6);
    // Asked again: the stored render, still WebP.
    const again = await get(`${design.render}.webp?first_name=Zo%C3%AB`);
    expect(again.type).toBe('image/webp');
    expect(again.body.equals(webp.body)).toBe(true);
  });
});
