/**
 * The library installer (infra/deploy/install-library.ts, docs/infra.md "Deploy") against the
 * local stack, which ran it as it started: a second run changes nothing, and content that went
 * missing (a photo's item and thumbnail, a sticker pack, a font file) is put back, and only it.
 *
 * @own-stack: removes library items to see the installer put them back, while other files draw on them.
 */
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { installLibrary } from '#infra/deploy/install-library.ts';
import { hostedFontFiles } from '#infra/local/seed-fonts.ts';
import { useLocalStack } from '../support/stack.ts';

useLocalStack({ warmChromium: false });
const quiet = () => undefined;
const head = (Key: string) =>
  s3Client()
    .send(new HeadObjectCommand({ Bucket: config().ASSETS_BUCKET, Key }))
    .then(() => true)
    .catch(() => false);

describe('installLibrary', () => {
  it('changes nothing on a stack that has the library', async () => {
    const report = await installLibrary(quiet);
    expect({ ...report, library: report.library.size }).toEqual({
      photos: 0,
      stickerPacks: 0,
      fontFiles: 0,
      library: expect.any(Number),
    });
    expect(report.library.size).toBeGreaterThan(5);
  });

  it('puts back what went missing, and only that', async () => {
    const Bucket = config().ASSETS_BUCKET;
    const photo = (await db().LibraryImage.get({ imageId: 'library-autumn' }).go()).data!;
    await db().LibraryImage.delete({ imageId: 'library-autumn' }).go();
    await s3Client().send(new DeleteObjectCommand({ Bucket, Key: photo.thumbKey }));
    const pack = (await db().StickerPack.scan.go({ pages: 'all' })).data[0]!;
    await db().StickerPack.delete({ packId: pack.packId }).go();
    const font = hostedFontFiles()[0]!;
    await s3Client().send(new DeleteObjectCommand({ Bucket, Key: font.key }));

    const report = await installLibrary(quiet);
    expect([report.photos, report.stickerPacks, report.fontFiles]).toEqual([1, 1, 1]);
    const back = (await db().LibraryImage.get({ imageId: 'library-autumn' }).go()).data!;
    expect(back).toMatchObject({ key: photo.key, thumbKey: photo.thumbKey, scope: 'global' });
    expect(back.author).toBe(photo.author);
    expect(await head(photo.thumbKey)).toBe(true);
    expect(await head(font.key)).toBe(true);
    expect((await db().StickerPack.get({ packId: pack.packId }).go()).data?.name).toBe(pack.name);

    const again = await installLibrary(quiet);
    expect([again.photos, again.stickerPacks, again.fontFiles]).toEqual([0, 0, 0]);
  });
});
