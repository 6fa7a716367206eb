/**
 * Countdown timers through the real render path (docs/adr/0058-countdown-timers.md "Countdown
 * timers"): a design saved with a countdown sticker through the API, rendered by the local stack's
 * warm Chromium with the clock fixed by the test-only header (honoured only under STAGE=test). The
 * answer is an animated GIF of the design's frame count, one second a frame; the frames' digits are
 * read back by OCR (tesseract.js with its English data from the registry, offline); the expired
 * state shows; every second gives a new cache key, shared by every recipient of that second.
 */
import { mkdir } from 'node:fs/promises';
import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW_HEADER } from '../../functions/render/countdown-gif.ts';
import { zonedInstant } from '../../shared/scene/countdown.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, signedIn, type DesignJson } from '../support/designs.ts';
import { lineReader, readWhiteText } from '../support/ocr.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;
/** The timer's box on the canvas, px. */
const BOX = { left: 10, top: 10, width: 600, height: 200 };
const DEADLINE = '2030-01-01T00:00';
const ZONE = 'Europe/Paris';
const END = zonedInstant(DEADLINE, ZONE);

let demo: TestClient;
let ocr: Worker;
beforeAll(async () => {
  demo = await signedIn(stack().url, 'demo@example.com');
  ocr = await lineReader();
});
afterAll(async () => {
  await ocr?.terminate();
});

/**
 * A design with one countdown sticker (settings over the defaults), saved through the API;
 * `around` puts other stickers under (`before`) or over (`after`) it.
 */
async function timerDesign(
  countdown: Record<string, unknown>,
  sticker: Record<string, unknown> = {},
  around: { before?: object[]; after?: object[] } = {},
): Promise<DesignJson> {
  const design = await createDesign(demo, { title: 'Countdown' });
  const saved = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
    version: design.version,
    // A canvas little larger than the timer keeps the GIF's frames small (the bench measures
    // the encoder; this machine's CPU is shared).
    canvas_width: 620,
    canvas_height: 220,
    text_snippets: [],
    graphics_data: [
      ...(around.before ?? []),
      {
        uuid: 'timer-1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'countdown',
        ...BOX,
        scaleX: 1,
        scaleY: 1,
        countdown: {
          deadline: DEADLINE,
          timeZone: ZONE,
          showLabels: false,
          fontFamily: 'Lato',
          fontWeight: 'bold',
          fill: '#ffffff',
          fontSize: 72,
          ...countdown,
        },
        ...sticker,
      },
      ...(around.after ?? []),
    ],
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return { ...design, version: design.version + 1 };
}

/** A render at a fixed moment (ms since the epoch). */
async function renderAt(path: string, nowMs: number) {
  const res = await fetch(url(path), { headers: { [TEST_NOW_HEADER]: String(nowMs) } });
  expect(res.status).toBe(200);
  return {
    res,
    bytes: Buffer.from(await res.arrayBuffer()),
    hit: res.headers.get('x-render-cache'),
  };
}

/** OCR of frame `page` of a GIF in the timer's box (test/support/ocr.ts). */
const readFrame = (gif: Buffer, page: number): Promise<string> =>
  readWhiteText(ocr, gif, page, BOX);

const digits = (text: string) => text.replace(/\D/g, '');

describe('countdown timer render', () => {
  it('answers an animated GIF whose frames count down one second each, read back by OCR', async () => {
    // 12 frames (the default 30 is the schema's: test/unit/countdown.test.ts): the encoder's
    // time grows with every frame, and this machine's CPU is shared.
    const design = await timerDesign({ frames: 12 });
    // 2 d 3 h 4 min 5 s before the deadline.
    const now = END - (((2 * 24 + 3) * 60 + 4) * 60 + 5) * 1000;
    // The design version's first render draws its static layer (kept for later ones): a still.
    await renderAt(`/r/${design.public_id}.jpg`, now);
    const { res, bytes } = await renderAt(`/r/${design.public_id}`, now);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('cache-control')).toBe('public, max-age=1, s-maxage=1');
    const meta = await sharp(bytes, { animated: true }).metadata();
    expect(meta.format).toBe('gif');
    expect(meta.pages).toBe(12);
    expect(meta.delay).toEqual(Array.from({ length: 12 }, () => 1000));
    expect(meta.loop).toBe(0);

    // For people: the first and a later frame as PNGs.
    await mkdir('test-results', { recursive: true });
    for (const page of [0, 6])
      await sharp(bytes, { page }).png().toFile(`test-results/render-countdown-frame${page}.png`);
    // Frame 1 is complete (clients that do not animate show it); then one second less a frame.
    expect(digits(await readFrame(bytes, 0))).toBe('02030405');
    expect(digits(await readFrame(bytes, 5))).toBe('02030400');
    expect(digits(await readFrame(bytes, 6))).toBe('02030359');
    expect(digits(await readFrame(bytes, 11))).toBe('02030354');
  });

  it('takes its frame count from the design and shows the expired text once the deadline passes', async () => {
    const design = await timerDesign({
      frames: 5,
      units: 'ms',
      expiredText: 'SALE OVER',
      fontSize: 64,
    });
    // Three seconds before the deadline: 00:03, 00:02, 00:01, then the expired text.
    const { bytes } = await renderAt(`/r/${design.public_id}`, END - 3000);
    const meta = await sharp(bytes, { animated: true }).metadata();
    expect(meta.pages).toBe(5);
    expect(digits(await readFrame(bytes, 0))).toBe('0003');
    expect(digits(await readFrame(bytes, 2))).toBe('0001');
    expect(await readFrame(bytes, 3)).toContain('SALE OVER');

    const after = await renderAt(`/r/${design.public_id}`, END + 60_000);
    expect(await readFrame(after.bytes, 0)).toContain('SALE OVER');
    expect(after.res.headers.get('cache-control')).toBe('public, max-age=1, s-maxage=1');
  });

  it('shares one cache key per second among recipients and takes a new one every second', async () => {
    const design = await timerDesign({ frames: 2 });
    const now = END - 86_400_000 + 250;
    const path = `/r/${design.public_id}`;
    const first = await renderAt(`${path}?first_name=Ana`, now);
    expect(first.hit).toBe('miss');
    // Another recipient in the same second: the same image from memory.
    const other = await renderAt(`${path}?first_name=Bo`, now + 500);
    expect(other.hit).toBe('memory');
    expect(other.bytes.equals(first.bytes)).toBe(true);
    // Each next second is a new key and a new image.
    let previous = first.bytes;
    for (let s = 1; s <= 3; s++) {
      const next = await renderAt(path, now + s * 1000);
      expect(next.hit, `second ${s}`).toBe('miss');
      expect(next.bytes.equals(previous)).toBe(false);
      previous = next.bytes;
    }
  });

  it('counts an evergreen timer from the start parameter: recipients with the same time left share a key', async () => {
    const design = await timerDesign(
      { mode: 'evergreen', durationSeconds: 3600, units: 'hms', frames: 2 },
      { dynamicStickerParamName: 'countdown1' },
    );
    const now = Date.parse('2030-05-05T10:20:00Z');
    const path = `/r/${design.public_id}`;
    const a = await renderAt(`${path}?countdown1=2030-05-05T10:00:00Z`, now);
    expect(digits(await readFrame(a.bytes, 0))).toBe('004000');
    // The same start written another way leaves the same time: the same key.
    const b = await renderAt(`${path}?countdown1=2030-05-05T12:00:00%2B02:00`, now);
    expect(b.hit).toBe('memory');
    const c = await renderAt(`${path}?countdown1=2030-05-05T10:10:00Z`, now);
    expect(c.hit).toBe('miss');
    expect(digits(await readFrame(c.bytes, 0))).toBe('005000');
  });

  it("counts a first-open timer from each recipient's first open, and from now when the store fails", async () => {
    const design = await timerDesign(
      { mode: 'evergreen', start: 'first_open', durationSeconds: 3600, units: 'hms', frames: 2 },
      // The timer's parameter names the recipient (any of the design's values does).
      { dynamicStickerParamName: 'email' },
    );
    const t0 = Date.parse('2030-05-05T10:20:00Z');
    const path = `/r/${design.public_id}?email=`;
    const ana = await renderAt(`${path}ana@example.com`, t0);
    expect(ana.res.headers.get('cache-control')).toBe('public, max-age=1, s-maxage=1');
    expect(digits(await readFrame(ana.bytes, 0))).toBe('010000');
    // Ten seconds later, Ana's timer has ten seconds less; Bo's first open starts his own.
    const again = await renderAt(`${path}ana@example.com`, t0 + 10_000);
    expect(digits(await readFrame(again.bytes, 0))).toBe('005950');
    const bo = await renderAt(`${path}bo@example.com`, t0 + 10_000);
    expect(digits(await readFrame(bo.bytes, 0))).toBe('010000');
    // Bo with the same time left as Ana's first render: the same key, from memory.
    expect(bo.hit).toBe('memory');

    // The kept item holds the recipient's hash, never the address, and a TTL past the timer.
    const { db } = await import('#lib/db/index.ts');
    const { recipientHash, FIRST_OPEN_KEEP_S } = await import('#functions/render/first-open.ts');
    const recipient = recipientHash([['email', 'ana@example.com']]);
    const kept = await db().FirstOpen.get({ openDesign: design.id, recipient }).go();
    expect(kept.data).toMatchObject({ openedAt: t0, ttl: t0 / 1000 + 3600 + FIRST_OPEN_KEEP_S });
    expect(JSON.stringify(kept.data)).not.toContain('ana@');

    // A store that fails (here an item without a usable time): still an image, counting from
    // now, and not cached.
    const { documentClient } = await import('#lib/clients.ts');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const params = db()
      .FirstOpen.create({
        openDesign: design.id,
        recipient: recipientHash([['email', 'cy@example.com']]),
        openedAt: 0,
        ttl: 0,
      })
      .params() as { TableName: string; Item: Record<string, unknown> };
    await documentClient().send(
      new PutCommand({
        TableName: params.TableName,
        Item: { ...params.Item, openedAt: 'not a time' },
      }),
    );
    const cy = await renderAt(`${path}cy@example.com`, t0 + 20_000);
    expect(cy.res.headers.get('content-type')).toBe('image/gif');
    expect(cy.res.headers.get('cache-control')).toContain('no-store');
    expect(digits(await readFrame(cy.bytes, 0))).toBe('010000');
  });

  it('refuses a save with an unknown time zone or too many frames, naming the field', async () => {
    const design = await createDesign(demo, { title: 'Bad countdown' });
    for (const [countdown, field, message] of [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'IANA'],
      [{ frames: 61 }, 'frames', '60'],
      [{ deadline: 'tomorrow' }, 'deadline', 'YYYY-MM-DDTHH:mm'],
    ] as const) {
      const res = await demo.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        graphics_data: [
          {
            uuid: 'timer-bad',
            stickerType: 'dynamicSticker',
            dynamicStickerType: 'countdown',
            ...BOX,
            countdown,
          },
        ],
      });
      expect(res.status, JSON.stringify(res.json)).toBe(422);
      const text = JSON.stringify(res.json);
      expect(text).toContain(`graphics_data.0.countdown.${field}`);
      expect(text).toContain(message);
    }
    // Nothing was written: the design is as created.
    const read = await demo.request('GET', `/api/pic-snippet/${design.id}`);
    expect(read.json).toMatchObject({ version: design.version, graphics_data: [] });
  });

  it('keeps a sticker over the timer over its digits in every frame, as the still draws it', async () => {
    // A QR code (#111111 on white, opaque) over the seconds' digits, drawn in red.
    const qr = {
      uuid: 'qr-1',
      stickerType: 'dynamicSticker',
      dynamicStickerType: 'qrCode',
      dynamicStickerUrl: 'https://example.com/',
      left: 470,
      top: 60,
      width: 100,
      height: 100,
      scaleX: 1,
      scaleY: 1,
    };
    const red = { frames: 3, fill: '#ff0000' };
    const over = await timerDesign(red, {}, { after: [qr] });
    const under = await timerDesign(red, {}, { before: [qr] });
    const now = END - (((1 * 24 + 2) * 60 + 3) * 60 + 4) * 1000;
    /** Red pixels inside the QR's box (2 px in from its edges) of frame `page`, and outside it. */
    const redPixels = async (image: Buffer, page: number) => {
      const { data, info } = await sharp(image, { page, pages: 1 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      let inside = 0;
      let outside = 0;
      for (let y = 0; y < info.height; y++)
        for (let x = 0; x < info.width; x++) {
          const i = (y * info.width + x) * 3;
          if (!(data[i]! > 180 && data[i + 1]! < 90 && data[i + 2]! < 90)) continue;
          const inQr = x >= 472 && x < 568 && y >= 62 && y < 158;
          if (inQr) inside++;
          else outside++;
        }
      return { inside, outside };
    };
    const gifOver = (await renderAt(`/r/${over.public_id}`, now)).bytes;
    const gifUnder = (await renderAt(`/r/${under.public_id}`, now)).bytes;
    for (const page of [0, 1, 2]) {
      // Over the timer: the QR's pixels stay the QR's; the digits show around it.
      expect(await redPixels(gifOver, page), `frame ${page}`).toMatchObject({ inside: 0 });
      expect((await redPixels(gifOver, page)).outside, `frame ${page}`).toBeGreaterThan(500);
      // Under the timer (the control): the same digits are drawn over the QR.
      expect((await redPixels(gifUnder, page)).inside, `frame ${page}`).toBeGreaterThan(50);
    }
    // The still draws the same: the QR over the digits.
    const still = (await renderAt(`/r/${over.public_id}.png`, now)).bytes;
    expect((await redPixels(still, 0)).inside).toBe(0);
  });

  it("answers a refused URL with one fallback a minute, its timer at the minute's start", async () => {
    const design = await timerDesign({});
    const on = await demo.request('PUT', `/api/pic-snippet/${design.id}/signing`, {
      require_signed_urls: true,
    });
    expect(on.status, JSON.stringify(on.json)).toBe(200);
    // The render reads a design at most 1 s old (functions/render/handler.ts DESIGN_TTL_MS).
    await new Promise((r) => setTimeout(r, 1100));
    const refusedAt = async (nowMs: number) => {
      const res = await fetch(url(`/r/${design.public_id}`), {
        headers: { [TEST_NOW_HEADER]: String(nowMs) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-render-reason')).toBeTruthy();
      return Buffer.from(await res.arrayBuffer());
    };
    // 1 d 2 h 3 min 4 s before the deadline; the minute started 56 s earlier.
    const now = END - (((1 * 24 + 2) * 60 + 3) * 60 + 4) * 1000;
    const first = await refusedAt(now);
    expect(digits(await readFrame(await sharp(first).png().toBuffer(), 0))).toBe('01020400');
    // Later seconds of that minute get the same image, not a new draw.
    expect((await refusedAt(now + 1000)).equals(first)).toBe(true);
    expect((await refusedAt(now + 3999)).equals(first)).toBe(true);
    // The next minute draws again.
    const next = await refusedAt(now + 4000);
    expect(digits(await readFrame(await sharp(next).png().toBuffer(), 0))).toBe('01020300');
  });

  it('draws the first frame into a still when a JPEG is asked for', async () => {
    const design = await timerDesign({});
    const now = END - (((1 * 24 + 2) * 60 + 3) * 60 + 4) * 1000;
    const { res, bytes } = await renderAt(`/r/${design.public_id}.jpg`, now);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = await sharp(bytes).png().toBuffer();
    expect(digits(await readFrame(jpeg, 0))).toBe('01020304');
  });
});
