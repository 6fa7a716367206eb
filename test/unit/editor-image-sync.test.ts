/**
 * Saving a photo change (docs/editor.md "Server sync";
 * docs/adr/0028-editor-image-tools-and-stickers.md "A photo change saves through saveImageId"): the
 * full save refuses a moved photo, so the sync puts the new image id first and saves the document
 * with the version that answered; a save without a photo change, or after a reload that brought the
 * photo, makes no photo call.
 */
import { describe, expect, it } from 'vitest';
import { withBaseImageSync } from '../../web/src/features/editor/imagesApi.ts';
import type { DesignServer, SaveRequest } from '../../web/src/features/editor/sync.ts';
import { DEMO_META, demoDocument } from '../support/editor.ts';

/** A design server that records the calls in order and bumps the version on each write. */
function fakeServer() {
  const calls: string[] = [];
  let version = 1;
  let imageId = 'library-autumn';
  const server: DesignServer = {
    save: async (_id, request: SaveRequest) => {
      if (request.version !== version) throw Object.assign(new Error('stale'), { status: 409 });
      if (request.document.image_id !== imageId) throw new Error('The base image moved');
      calls.push(`save v${request.version}`);
      return { version: ++version, title: request.title };
    },
    load: async () => ({
      meta: { ...DEMO_META, version },
      document: { ...demoDocument(), image_id: imageId },
    }),
  };
  const putImageId = async (_id: string, image: string, v: number) => {
    if (v !== version) throw Object.assign(new Error('stale'), { status: 409 });
    calls.push(`image ${image} v${v}`);
    imageId = image;
    return ++version;
  };
  return { server, putImageId, calls, setImage: (id: string) => (imageId = id) };
}

const request = (imageId: string, version: number): SaveRequest => ({
  version,
  title: 'Welcome',
  document: { ...demoDocument(), image_id: imageId },
});

describe('withBaseImageSync', () => {
  it('puts a new photo first, then saves with the version it answered', async () => {
    const fake = fakeServer();
    const sync = withBaseImageSync(fake.server, 'library-autumn', fake.putImageId);
    expect(await sync.save('d', request('library-autumn', 1))).toEqual({
      version: 2,
      title: 'Welcome',
    });
    expect(await sync.save('d', request('crop-1', 2))).toEqual({ version: 4, title: 'Welcome' });
    // Undoing the crop puts the old photo back the same way.
    expect(await sync.save('d', request('library-autumn', 4))).toEqual({
      version: 6,
      title: 'Welcome',
    });
    expect(fake.calls).toEqual([
      'save v1',
      'image crop-1 v2',
      'save v3',
      'image library-autumn v4',
      'save v5',
    ]);
  });

  it('takes the photo a reload brought as the server’s', async () => {
    const fake = fakeServer();
    const sync = withBaseImageSync(fake.server, 'library-autumn', fake.putImageId);
    fake.setImage('upload-9'); // changed elsewhere
    const loaded = await sync.load('d');
    expect(loaded.document.image_id).toBe('upload-9');
    await sync.save('d', request('upload-9', loaded.meta.version));
    expect(fake.calls).toEqual(['save v1']);
  });
});
