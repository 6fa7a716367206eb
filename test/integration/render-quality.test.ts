/**
 * A design's JPEG output settings (shared/design.ts `quality`, docs/performance.md "Output
 * quality") through the local stack: the render encodes with them, the default design keeps the
 * former encoder values, and a save of the setting gives a new cache key (the version) and so a
 * new image.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;

let demo: TestClient;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
});

/** A render: the bytes, sharp's reading of them and the service's cache answer. */
async function render(path: string) {
  const res = await fetch(url(path));
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return { res, bytes, meta, hit: res.headers.get('x-render-cache') };
}

describe('render quality', () => {
  it('encodes the default design as before (baseline, 4:2:0) and a saved setting as set', async () => {
    const design = await createDesign(demo);
    const path = `/r/${design.public_id}.jpg?first_name=Quality`;

    const before = await render(path);
    expect(before.res.headers.get('content-type')).toBe('image/jpeg');
    expect(before.meta.isProgressive).toBe(false);
    expect(before.meta.chromaSubsampling).toBe('4:2:0');
    expect((await render(path)).hit).toBe('memory');

    // The setting goes through the full save (a document field), which bumps the version.
    const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      quality: { quality: 90, progressive: true, chromaSubsampling: '4:4:4' },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json).toMatchObject({ version: design.version + 1 });
    const read = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect(read.json).toMatchObject({
      quality: { quality: 90, progressive: true, chromaSubsampling: '4:4:4' },
    });

    // Same URL, new version: a new cache key, drawn again with the new encoder settings. The
    // render reads a design at most 1 s old (functions/render/handler.ts DESIGN_TTL_MS): the
    // first answer that sees version 2 is a draw, never the version-1 image.
    const after = await pollUntil(
      'a render of version 2',
      () => render(path),
      (r) => r.hit !== 'memory' || !r.bytes.equals(before.bytes),
    );
    expect(after.hit).toBe('miss');
    expect(after.meta.isProgressive).toBe(true);
    expect(after.meta.chromaSubsampling).toBe('4:4:4');
    expect(after.meta.width).toBe(before.meta.width);
    expect(after.bytes.equals(before.bytes)).toBe(false);

    // The PDF embeds the same progressive JPEG (pdf-lib reads SOF2).
    const pdf = await fetch(url(`/r/${design.public_id}/pdf?first_name=Quality`));
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('refuses a setting past its bounds on save', async () => {
    const design = await createDesign(demo);
    for (const quality of [{ quality: 0 }, { quality: 101 }, { chromaSubsampling: '4:2:2' }]) {
      const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        quality,
      });
      expect(res.status, JSON.stringify(quality)).toBe(422);
    }
  });
});
