/**
 * Stickers in renders (functions/render/stickers.ts): a QR code drawn with its scale, carrying the
 * parameter's value or the fallback, readable by a scanner.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { fetchImage, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;

/** The QR sticker's box: left 700, top 380, 512 × 0.4 = 204.8 px. */
// jsqr is CommonJS with an ES-style `export default` in its types: Node hands the function over
// as the default export, the types describe it one level down.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ??
  jsQRModule) as unknown as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

const QR_BOX = { left: 690, top: 370, width: 225, height: 225 };

beforeAll(async () => {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  const document = DesignDocumentSchema.parse({
    ...(demo.document as object),
    graphics_data: [
      {
        uuid: 'qr-1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'qrCode',
        dynamicStickerParamName: 'qrCode1',
        dynamicStickerUrl: 'https://example.com/fallback',
        marginSize: 2,
        left: 700,
        top: 380,
        scaleX: 0.4,
        scaleY: 0.4,
      },
    ],
  });
  const rotated = DesignDocumentSchema.parse({
    ...document,
    graphics_data: [{ ...document.graphics_data[0], left: 905, angle: 90 }],
  });
  await db()
    .Design.put({
      designId: 'design-qr-rot',
      teamId: 'team-demo',
      publicId: 'qr-rotated',
      title: 'QR',
      version: 1,
      document: rotated,
    })
    .go();
  await db()
    .Design.put({
      designId: 'design-qr',
      teamId: 'team-demo',
      publicId: 'qr-design',
      title: 'QR',
      version: 1,
      document,
    })
    .go();
});

async function readQr(path: string): Promise<string | undefined> {
  const img = await fetchImage(url(path));
  expect(img.res.headers.get('cache-control')).not.toBe('no-store');
  const { data, info } = await sharp(img.bytes)
    .extract(QR_BOX)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
  )?.data;
}

describe('plain stickers', () => {
  it('are drawn from the assets bucket at their scale, beneath the text', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { s3Client } = await import('#lib/clients.ts');
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    const { DesignDocumentSchema } = await import('#shared/design.ts');
    const star = await sharp({
      create: {
        width: 512,
        height: 512,
        channels: 4,
        background: { r: 250, g: 200, b: 0, alpha: 1 },
      },
    })
      .png()
      .toBuffer();
    await s3Client().send(
      new PutObjectCommand({
        Bucket: process.env.ASSETS_BUCKET,
        Key: 'files/stickers/test/star.png',
        Body: star,
        ContentType: 'image/png',
      }),
    );
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    const document = DesignDocumentSchema.parse({
      ...(demo.document as object),
      graphics_data: [
        {
          uuid: 'star',
          url: 'files/stickers/test/star.png',
          left: 20,
          top: 20,
          scaleX: 0.2,
          scaleY: 0.2,
        },
      ],
    });
    await db()
      .Design.put({
        designId: 'design-plain',
        teamId: 'team-demo',
        publicId: 'plain-sticker',
        title: 'P',
        version: 1,
        document,
      })
      .go();
    const img = await fetchImage(url('/r/plain-sticker.png'));
    // Inside the 102 px box: the sticker's yellow; just outside: the photo.
    const at = (x: number, y: number) => [
      ...img.pixels.subarray((y * 1000 + x) * 3, (y * 1000 + x) * 3 + 3),
    ];
    expect(at(70, 70)).toEqual([250, 200, 0]);
    expect(at(130, 70)).not.toEqual([250, 200, 0]);
  });
});

describe('QR code stickers', () => {
  it("encode the recipient's value", async () => {
    expect(
      await readQr('/r/qr-design.jpg?qrCode1=https%3A%2F%2Fshop.example%2Fana%3Fref%3D1'),
    ).toBe('https://shop.example/ana?ref=1');
  });

  it('encode the fallback when the value is missing or an unfilled merge tag', async () => {
    expect(await readQr('/r/qr-design.jpg')).toBe('https://example.com/fallback');
    expect(await readQr('/r/qr-design.jpg?qrCode1=%7B%7Bqr%7D%7D')).toBe(
      'https://example.com/fallback',
    );
  });

  it('are drawn by fabric when rotated, and still scan', async () => {
    expect(await readQr('/r/qr-rotated.jpg?qrCode1=rotated-value')).toBe('rotated-value');
  });

  it('count as declared parameters, so different values are different renders', async () => {
    const a = await fetch(url('/r/qr-design.jpg?qrCode1=a'));
    const b = await fetch(url('/r/qr-design.jpg?qrCode1=b'));
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
  });
});
