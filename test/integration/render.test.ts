/**
 * The render service through the local stack: formats, caches, fallbacks, international text and
 * failure modes. Chromium, DynamoDB Local and s3rver are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { fetchImage, meanDifference, pollUntil, useLocalStack } from '../support/stack.ts';
import { putDesign } from '../support/render-designs.ts';
import { useDemoDesignCopy } from '../support/designs.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;
const textBand = { left: 50, top: 200, width: 900, height: 220 };

const addDesign = putDesign;

/**
 * The demo design's current version: 1 as seeded, more when a file before this one on the same
 * stack saved it (docs/testing.md "One stack per worker").
 */
let version = 1;
beforeAll(async () => {
  const { db } = await import('#lib/db/index.ts');
  version = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!.version;
});

describe('formats', () => {
  it('gives a PDF to a team whose plan has can_export_pdf', async () => {
    const res = await fetch(url('/r/demo-welcome/pdf?first_name=Ana'));
    // The show page frames it: same-origin framing, no sandbox (images stay unframeable).
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'self'",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers 402 with a clear message when the plan has no PDF export', async () => {
    const { db } = await import('#lib/db/index.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    await addDesign('free-team-design', 'team-admin', demo.document);
    const res = await fetch(url('/r/free-team-design/pdf'));
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      message: 'PDF export is available only for Pro plans.',
    });
    // The image itself still works for that team.
    expect((await fetchImage(url('/r/free-team-design.jpg'))).res.headers.get('content-type')).toBe(
      'image/jpeg',
    );
  });
});

describe('caching', () => {
  it('answers the same URL from the cache with the same bytes and keeps it in S3', async () => {
    const first = await fetch(url('/r/demo-welcome.jpg?first_name=Cached'));
    const second = await fetch(url('/r/demo-welcome.jpg?first_name=Cached'));
    expect(first.headers.get('x-render-cache')).toBe('miss');
    expect(second.headers.get('x-render-cache')).toBe('memory');
    expect(
      Buffer.from(await first.arrayBuffer()).equals(Buffer.from(await second.arrayBuffer())),
    ).toBe(true);

    const { s3Client } = await import('#lib/clients.ts');
    // The S3 write happens in the background: poll for it.
    const listed = await pollUntil(
      'the render in the S3 cache',
      () =>
        s3Client().send(
          new ListObjectsV2Command({
            Bucket: process.env.RENDERS_BUCKET,
            Prefix: `renders/design-demo-welcome/v${version}/`,
          }),
        ),
      (l) => (l.KeyCount ?? 0) > 0,
    );
    expect(listed.KeyCount ?? 0).toBeGreaterThan(0);
  });

  it('ignores undeclared parameters and their order', async () => {
    await fetch(url('/r/demo-welcome.jpg?first_name=Order'));
    const res = await fetch(url('/r/demo-welcome.jpg?utm_source=mail&first_name=Order&x=1'));
    expect(res.headers.get('x-render-cache')).toBe('memory');
  });

  it('makes renders with the current cacheId immutable, others short-lived', async () => {
    const current = await fetch(url(`/r/demo-welcome/v${version}.jpg?first_name=Ana`));
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await fetch(url('/r/demo-welcome/v0.jpg?first_name=Ana'));
    expect(stale.headers.get('cache-control')).toMatch(/max-age=300, stale-while-revalidate/);
    const none = await fetch(url('/r/demo-welcome.jpg?first_name=Ana'));
    expect(none.headers.get('cache-control')).toMatch(/max-age=300/);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(url('/r/demo-welcome.jpg?first_name=Etag'));
    const etag = first.headers.get('etag')!;
    const again = await fetch(url('/r/demo-welcome.jpg?first_name=Etag'), {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });
});

describe('platform URL shapes', () => {
  it("answers ManyChat's JSON for __format=manychat_json", async () => {
    const res = await fetch(url('/r/demo-welcome.jpg?__format=manychat_json&first_name=Ana'));
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      version: 'v2',
      content: {
        messages: [
          { type: 'image', url: `${stack().url}/r/demo-welcome.jpg?first_name=Ana`, buttons: [] },
        ],
        actions: [],
        quick_replies: [],
      },
    });
  });

  it('fills the first parameter from fixyourfunnel\u2019s txt=', async () => {
    const txt = await fetchImage(url('/r/demo-welcome.jpg?txt=Ana'));
    const named = await fetchImage(url('/r/demo-welcome.jpg?first_name=Ana'));
    expect(txt.bytes.equals(named.bytes)).toBe(true);
  });
});

describe('values', () => {
  const fallback = () => fetchImage(url('/r/demo-welcome.jpg'));

  it.each([
    ['right-to-left', 'مرحبا שלום'],
    ['emoji', '😀🎉👍'],
    // Korean has no face yet: it would pass here as boxes (render-text.test.ts reads glyphs).
    ['CJK', '李伟 さくら'],
    ['255 characters', 'long '.repeat(60)],
    ['a malformed escape', '%E0%A4%A'],
  ])('draws a %s value', async (_name, value) => {
    const raw = value.startsWith('%') ? value : encodeURIComponent(value);
    const img = await fetchImage(url(`/r/demo-welcome.jpg?first_name=${raw}`));
    expect(img.res.status).toBe(200);
    expect(img.res.headers.get('cache-control')).not.toBe('no-store');
    expect([img.width, img.height]).toEqual([1000, 625]);
    const base = await fallback();
    expect(meanDifference(img.pixels, base.pixels, 1000, textBand)).toBeGreaterThan(2);
  });
});

describe('never a broken image', () => {
  it('serves the all-fallback render, uncached, when the stored design is broken', async () => {
    await addDesign('broken-design', 'team-demo', { nonsense: true });
    const img = await fetchImage(url('/r/broken-design.jpg?first_name=Ana'));
    expect(img.res.status).toBe(200);
    expect(img.res.headers.get('cache-control')).toBe('no-store');
    expect(img.res.headers.get('content-type')).toBe('image/jpeg');
  });

  it('survives a Chromium crash: the next request is drawn by a relaunched browser', async () => {
    const { getBrowser } = await import('#functions/render/browser.ts');
    const browser = await getBrowser();
    const gone = new Promise((r) => browser.once('disconnected', r));
    browser.process()?.kill('SIGKILL');
    await gone;
    const img = await fetchImage(url('/r/demo-welcome.jpg?first_name=AfterCrash'));
    expect(img.res.status).toBe(200);
    expect(img.res.headers.get('cache-control')).not.toBe('no-store');
  });

  it('renders archived designs, because sent e-mails point at them', async () => {
    const { db } = await import('#lib/db/index.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    await db()
      .Design.put({
        designId: 'design-archived',
        teamId: 'team-demo',
        publicId: 'archived-one',
        title: 'a',
        status: 'archived',
        version: 1,
        document: demo.document,
      })
      .go();
    const img = await fetchImage(url('/r/archived-one.jpg?first_name=Ana'));
    expect(img.res.headers.get('cache-control')).not.toBe('no-store');
  });
});

describe('views', () => {
  // A copy of the demo design: its counter is this file's alone (other files render the seeded
  // one on the same stack, and would count in between).
  const copy = useDemoDesignCopy();

  it('counts served renders in aggregate', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { flushViews } = await import('#functions/render/handler.ts');
    const { designId, publicId } = copy();
    await flushViews();
    const before = (await db().Design.get({ designId }).go()).data!.counter ?? 0;
    for (let i = 0; i < 3; i++) await fetch(url(`/r/${publicId}.jpg?first_name=View${i}`));
    await flushViews();
    const after = (await db().Design.get({ designId }).go()).data!;
    expect(after.counter).toBe(before + 3);
    // Counting views does not make a new version.
    expect(after.version).toBe(1);
    // The product's own previews are not views.
    const preview = await fetch(url(`/r/${publicId}/v1?__preview=1`));
    expect(preview.status).toBe(200);
    expect(preview.headers.get('x-frame-options')).toBe('DENY');
    // Embeddable anywhere: e-mail, customers' pages, video players.
    expect(preview.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    await flushViews();
    expect((await db().Design.get({ designId }).go()).data!.counter).toBe(after.counter);
    // The views sort reads the list copy of the count (functions/designs/lists.ts).
    expect(after.listedViews).toBe(after.counter);
  });
});

describe('base image tools, drawn as the editor draws them', () => {
  async function variant(publicId: string, changes: Record<string, unknown>) {
    const { db } = await import('#lib/db/index.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    await addDesign(publicId, 'team-demo', {
      ...(demo.document as object),
      text_snippets: [],
      ...changes,
    });
    return fetchImage(url(`/r/${publicId}.png`));
  }
  const sharpOf = async (img: { bytes: Buffer }) => (await import('sharp')).default(img.bytes);

  it('applies a filter (Grayscale)', async () => {
    const grey = await variant('tools-grey', { filters: { Grayscale: true } });
    let spread = 0;
    for (let i = 0; i < grey.pixels.length; i += 3) {
      spread +=
        Math.abs(grey.pixels[i]! - grey.pixels[i + 1]!) +
        Math.abs(grey.pixels[i + 1]! - grey.pixels[i + 2]!);
    }
    expect(spread / (grey.pixels.length / 3)).toBeLessThan(3);
  });

  it('flips horizontally and rotates by 180°', async () => {
    const plain = await variant('tools-plain', {});
    const flipped = await variant('tools-flip', { flip_x: true });
    const mirrored = await (await sharpOf(plain)).flop().removeAlpha().raw().toBuffer();
    expect(
      meanDifference(flipped.pixels, mirrored, 1000, { left: 0, top: 0, width: 1000, height: 625 }),
    ).toBeLessThan(4);

    const turned = await variant('tools-180', { image_angle: 180 });
    const rotated = await (await sharpOf(plain)).rotate(180).removeAlpha().raw().toBuffer();
    expect(
      meanDifference(turned.pixels, rotated, 1000, { left: 0, top: 0, width: 1000, height: 625 }),
    ).toBeLessThan(4);
    expect(
      meanDifference(turned.pixels, plain.pixels, 1000, {
        left: 0,
        top: 0,
        width: 1000,
        height: 625,
      }),
    ).toBeGreaterThan(10);
  });

  it('pixelates in blocks of the size in canvas px, and ignores a size of 1 (spec 000 §5)', async () => {
    const block = 10;
    const pixelated = await variant('tools-pixelate', { enhance: { Pixelate: block } });
    expect([pixelated.width, pixelated.height]).toEqual([1000, 625]);
    // Every block is one colour (its mean): each pixel equals its block's top-left one.
    let worst = 0;
    for (let y = 0; y < pixelated.height; y++) {
      for (let x = 0; x < pixelated.width; x++) {
        const corner = ((y - (y % block)) * pixelated.width + (x - (x % block))) * 3;
        const at = (y * pixelated.width + x) * 3;
        for (let c = 0; c < 3; c++)
          worst = Math.max(
            worst,
            Math.abs(pixelated.pixels[at + c]! - pixelated.pixels[corner + c]!),
          );
      }
    }
    expect(worst).toBeLessThanOrEqual(2);
    const plain = await variant('tools-plain', {});
    const whole = { left: 0, top: 0, width: 1000, height: 625 };
    expect(meanDifference(pixelated.pixels, plain.pixels, 1000, whole)).toBeGreaterThan(1);
    const ignored = await variant('tools-pixelate-1', { enhance: { Pixelate: 1 } });
    expect(meanDifference(ignored.pixels, plain.pixels, 1000, whole)).toBeLessThan(0.5);
  });

  it('draws a legacy design (before 2018-02-24) with its photo 500 px wide at the top left', async () => {
    const legacy = await variant('tools-legacy', { legacy_base_image_width: 500 });
    expect([legacy.width, legacy.height]).toEqual([1000, 625]);
    const white = (rect: { left: number; top: number; width: number; height: number }) =>
      meanDifference(legacy.pixels, Buffer.alloc(legacy.pixels.length, 255), 1000, rect);
    // Right of the 500 px photo: the canvas's white.
    expect(white({ left: 510, top: 0, width: 490, height: 625 })).toBeLessThan(1);
    // The photo itself is there, and it is the plain photo at half size.
    expect(white({ left: 0, top: 0, width: 500, height: 300 })).toBeGreaterThan(10);
    const plain = await variant('tools-plain', {});
    const half = await (await sharpOf(plain)).resize(500).removeAlpha().raw().toBuffer();
    let sum = 0;
    for (let y = 0; y < 300; y++)
      for (let x = 0; x < 500; x++)
        for (let c = 0; c < 3; c++)
          sum += Math.abs(legacy.pixels[(y * 1000 + x) * 3 + c]! - half[(y * 500 + x) * 3 + c]!);
    expect(sum / (300 * 500 * 3)).toBeLessThan(6);
  });

  it('keeps the static layer in S3 for other containers', async () => {
    const { s3Client } = await import('#lib/clients.ts');
    const listed = await pollUntil(
      'the static layer in S3',
      () =>
        s3Client().send(
          new ListObjectsV2Command({
            Bucket: process.env.ASSETS_BUCKET,
            Prefix: 'static-layers/design-tools-grey/',
          }),
        ),
      (l) => (l.KeyCount ?? 0) > 0,
    );
    expect(listed.KeyCount).toBe(1);
  });
});
