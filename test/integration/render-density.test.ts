/**
 * Dense render URLs through the local stack (docs/export.md "Density"): `@2x` is exactly twice
 * the 1× image each way, decodes, shows the same layout, and its text is drawn at that density:
 * sharper than the 1× image scaled up, measured as the high-frequency energy (a Laplacian) in
 * the text's band. Within its byte budget; a design too large at a density gets the fallback,
 * uncached, and the reason.
 */
import { randomUUID } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { denseByteBudget } from '#shared/render-limits.ts';
import {
  currentTeamId,
  demoDesignCopyIn,
  LIBRARY_IMAGE,
  ownTeam,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { lineReader } from '../support/ocr.ts';

const stack = useLocalStack();
/** The small text's size, px: legible at 2×, not at 1× (the OCR case). */
const SMALL_FONT_PX = 5;

async function get(path: string) {
  const res = await fetch(`${stack().url}${path}`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    reason: res.headers.get('x-render-reason'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** Greyscale pixels of an image, `width` × `height`. */
async function grey(image: Sharp) {
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean squared 4-neighbour Laplacian over rows `top`…`bottom` (exclusive), columns 1…width-1. */
function edgeEnergy(img: { data: Buffer; width: number }, top: number, bottom: number): number {
  const { data, width } = img;
  let sum = 0;
  let n = 0;
  for (let y = Math.max(1, top); y < bottom - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const l = 4 * data[i]! - data[i - 1]! - data[i + 1]! - data[i - width]! - data[i + width]!;
      sum += l * l;
      n++;
    }
  }
  return sum / n;
}

describe('dense render URLs', () => {
  it('draw @2x at twice the size, text at that density, within the budget', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('density'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const query = '?first_name=Bartholomew';
    const one = await get(`${design.render}.jpg${query}`);
    const two = await get(`${design.render}@2x.jpg${query}`);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.type).toBe('image/jpeg');
    expect(two.reason).toBeNull();
    const [m1, m2] = await Promise.all([sharp(one.body).metadata(), sharp(two.body).metadata()]);
    expect([m2.width, m2.height]).toEqual([m1.width! * 2, m1.height! * 2]);
    expect(two.body.length).toBeLessThanOrEqual(denseByteBudget('jpeg', 2));

    // The same layout: @2x brought down to 1× is close to the 1× render.
    const down = await grey(sharp(two.body).resize(m1.width, m1.height));
    const plain = await grey(sharp(one.body));
    let diff = 0;
    for (let i = 0; i < plain.data.length; i++) diff += Math.abs(plain.data[i]! - down.data[i]!);
    expect(diff / plain.data.length).toBeLessThan(6);

    // The text's band (the demo's one line, centred: infra/local/seed.ts demoDesignDocument).
    const top = Math.round(m1.height! / 2 - 48) * 2;
    const bottom = Math.round(m1.height! / 2 + 48) * 2;
    const dense = edgeEnergy(await grey(sharp(two.body)), top, bottom);
    const upscaled = edgeEnergy(
      await grey(sharp(one.body).resize(m1.width! * 2, m1.height! * 2)),
      top,
      bottom,
    );
    expect(dense).toBeGreaterThan(upscaled * 2);

    // The cache id form: the same image, cached for a year.
    const pinned = await get(`${design.render}/v1@2x.jpg${query}`);
    expect(pinned.body.equals(two.body)).toBe(true);
    expect(pinned.cache).toContain('immutable');

    // WebP for the web at 2×, within its own budget.
    const webp = await get(`${design.render}@2x.webp${query}`);
    expect(webp.type).toBe('image/webp');
    const mw = await sharp(webp.body).metadata();
    expect([mw.width, mw.height]).toEqual([m2.width, m2.height]);
    expect(webp.body.length).toBeLessThanOrEqual(denseByteBudget('webp', 2));
  });

  it('draws small text at 2× that reads by OCR, where the 1× image scaled up does not', async () => {
    // White text of 5 px on a dark photo: at 1× its letters are a few px high, too few to read;
    // drawn at 2× it has twice the pixels a glyph, and reads (docs/export.md "Density").
    const owner = await ownTeam(stack().url, uniqueEmail('density-ocr'));
    const teamId = await currentTeamId(owner);
    const tag = randomUUID().slice(0, 8);
    const [{ db }, { DesignDocumentSchema }, { s3Client }, { config }, { PutObjectCommand }] =
      await Promise.all([
        import('#lib/db/index.ts'),
        import('#shared/design.ts'),
        import('#lib/clients.ts'),
        import('#lib/config.ts'),
        import('@aws-sdk/client-s3'),
      ]);
    const key = `files/test/dark-${tag}.png`;
    const dark = await sharp({
      create: { width: 600, height: 200, channels: 3, background: '#1e2430' },
    })
      .png()
      .toBuffer();
    await s3Client().send(
      new PutObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key, Body: dark }),
    );
    await db()
      .Design.put({
        designId: `design-ocr-${tag}`,
        teamId,
        publicId: `ocr-${tag}`,
        title: 'Small text',
        status: 'active',
        version: 1,
        document: DesignDocumentSchema.parse({
          image_id: LIBRARY_IMAGE,
          base_image_key: key,
          canvas_width: 600,
          canvas_height: 200,
          text_snippets: [
            {
              id: 'small',
              text: 'Order {{code}}',
              fontFamily: 'Noto Sans',
              fontSize: SMALL_FONT_PX,
              fill: '#ffffff',
              left: 20,
              top: 90,
              width: 560,
              parameters: [{ id: 'p-code', param_name: 'code', param_default_value: '0' }],
            },
          ],
        }),
      })
      .go();
    const query = '?code=4927-8153&__preview=1';
    const one = await get(`/r/ocr-${tag}.png${query}`);
    const two = await get(`/r/ocr-${tag}@2x.png${query}`);
    expect([one.status, two.status, two.reason]).toEqual([200, 200, null]);

    // Both read the same way: the band of the line at 2× px, grey, inverted to dark ink on
    // white, scaled up 3× for tesseract.
    const band = { left: 0, top: 150, width: 1200, height: 100 };
    const read = async (image: Sharp) => {
      const png = await sharp(await image.extract(band).greyscale().negate().png().toBuffer())
        .resize({ width: band.width * 3, kernel: 'lanczos3' })
        .png()
        .toBuffer();
      return (await ocr.recognize(png)).data.text.replace(/\s+/g, ' ').trim();
    };
    const ocr = await lineReader();
    try {
      const dense = await read(sharp(two.body));
      const upscaled = await read(sharp(one.body).resize(1200, 400, { kernel: 'lanczos3' }));
      console.info(
        `OCR at 2×: ${JSON.stringify(dense)}; 1× scaled up: ${JSON.stringify(upscaled)}`,
      );
      expect(dense).toBe('Order 4927-8153');
      // The control: the same reading of the 1× image scaled up (a faked density) misreads.
      expect(upscaled).not.toBe('Order 4927-8153');
    } finally {
      await ocr.terminate();
    }
  });

  it('answers a design too large at a density the fallback, uncached, with the reason', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('density-large'));
    const teamId = await currentTeamId(owner);
    const { db } = await import('#lib/db/index.ts');
    const { DesignDocumentSchema } = await import('#shared/design.ts');
    const { demoDesignDocument } = await import('#infra/local/seed.ts');
    const image = (await db().LibraryImage.get({ imageId: LIBRARY_IMAGE }).go()).data!;
    const tag = randomUUID().slice(0, 8);
    await db()
      .Design.put({
        designId: `design-tall-${tag}`,
        teamId,
        publicId: `tall-${tag}`,
        title: 'Tall',
        status: 'active',
        version: 1,
        document: DesignDocumentSchema.parse({
          ...demoDesignDocument({ key: image.key, width: image.width, height: image.height }),
          canvas_height: 2000,
        }),
      })
      .go();
    const refused = await get(`/r/tall-${tag}@3x.jpg?first_name=Ana`);
    expect(refused.status).toBe(200);
    expect(refused.type).toBe('image/jpeg');
    expect(refused.cache).toBe('no-store');
    expect(refused.reason).toBe('too-many-pixels');
    // The design's fallback at 1×: a whole image, never a broken one.
    expect(await sharp(refused.body).metadata()).toMatchObject({ width: 1000, height: 2000 });
  });
});
