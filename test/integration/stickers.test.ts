/**
 * Stickers in renders (issue: render §3–4): a QR code drawn with its scale, carrying the
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
