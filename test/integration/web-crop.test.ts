/**
 * Live web crops through the local stack (docs/web-crops.md): a screenshot sticker with a CSS
 * selector shows that element of a page served on loopback (marked public for the test's SSRF
 * guard), from a URL template filled with each recipient's value; the image is kept no longer
 * than the crop's refresh; a selector that matches nothing and a page whose element never comes
 * draw no crop, within the screenshot budget.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const COLOURS: Record<string, string> = { red: '#dc1414', green: '#14c828', blue: '#1434dc' };

let site: Server;
let origin = '';
const asked: string[] = [];

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const deal = /^\/deal\/(\w+)$/.exec(path);
    if (deal) {
      const colour = COLOURS[deal[1]!] ?? '#888888';
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<body style="margin:0;background:#ffffff"><h1>Today</h1><div id="deal" style="margin:40px;width:400px;height:200px;background:${colour}"></div></body>`,
        );
    }
    if (path === '/late')
      // The element comes a minute after the page loads: past every budget.
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<body><script>setTimeout(() => { document.body.innerHTML = '<div id="deal">x</div>'; }, 60000)</script></body>`,
        );
    res.writeHead(404).end();
  });
  const port = await new Promise<number>((ok) =>
    site.listen(0, '127.0.0.1', () => ok((site.address() as AddressInfo).port)),
  );
  origin = `http://127.0.0.1:${port}`;
  process.env.SSRF_TEST_PUBLIC_PORTS = String(port);
  resetConfig();
});

const stack = useLocalStack();

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  await new Promise((ok) => site.close(ok));
});

/** The crop sticker's box on the 1000x625 design: 455x256 at (100, 100). */
const BOX = { left: 100, top: 100, width: 910 * 0.5, height: 512 * 0.5 };

/** A design of its own team with a crop sticker of `#deal` (or `selector`). */
async function cropDesign(crop: Record<string, unknown>, fallback = '') {
  const owner = await ownTeam(stack().url, uniqueEmail('web-crop'));
  const design = await demoDesignCopyIn(await currentTeamId(owner));
  const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
    version: 1,
    text_snippets: [],
    graphics_data: [
      {
        uuid: 'crop-1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'screenShot',
        dynamicStickerParamName: 'screenIcon1',
        dynamicStickerUrl: fallback,
        left: BOX.left,
        top: BOX.top,
        width: 910,
        height: 512,
        scaleX: 0.5,
        scaleY: 0.5,
        crop: { selector: '#deal', refresh_s: 60, ...crop },
      },
    ],
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return design;
}

/** The colour at the middle of the sticker's box, and the answer's cache header. */
async function middle(path: string) {
  const res = await fetch(`${stack().url}${path}`);
  const png = Buffer.from(await res.arrayBuffer());
  const x = Math.round(BOX.left + BOX.width / 2);
  const y = Math.round(BOX.top + BOX.height / 2);
  const { data } = await sharp(png)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: [...data], cache: res.headers.get('cache-control'), status: res.status };
}

const near = (rgb: number[], hex: string) => {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return rgb.every((v, i) => Math.abs(v - want[i]!) < 24);
};

describe('live web crops', () => {
  it('show the element of each recipient’s page, kept no longer than the refresh', async () => {
    const design = await cropDesign({ url_template: `${origin}/deal/{{sku}}` });
    const green = await middle(`${design.render}.png?sku=green`);
    expect(green.status).toBe(200);
    expect(near(green.rgb, COLOURS.green!), String(green.rgb)).toBe(true);
    expect(green.cache).toBe('public, max-age=60');
    const blue = await middle(`${design.render}.png?sku=blue`);
    expect(near(blue.rgb, COLOURS.blue!), String(blue.rgb)).toBe(true);
    // A value cannot leave its part of the URL: `../x` is one encoded segment.
    asked.length = 0;
    await middle(`${design.render}.png?sku=${encodeURIComponent('../late')}`);
    expect(asked).not.toContain('/late');
  });

  it('uses the sticker’s own value without a template, and its fallback page', async () => {
    const design = await cropDesign({}, `${origin}/deal/red`);
    const fallback = await middle(`${design.render}.png`);
    expect(near(fallback.rgb, COLOURS.red!), String(fallback.rgb)).toBe(true);
    const own = await middle(
      `${design.render}.png?screenIcon1=${encodeURIComponent(`${origin}/deal/green`)}`,
    );
    expect(near(own.rgb, COLOURS.green!), String(own.rgb)).toBe(true);
  });

  it('draws no crop when the selector matches nothing or the element never comes', async () => {
    const none = await cropDesign({ selector: '#no-such-thing' }, `${origin}/deal/green`);
    const plain = await middle(`${none.render}.png`);
    expect(plain.status).toBe(200);
    expect(near(plain.rgb, COLOURS.green!)).toBe(false);
    const late = await cropDesign({}, `${origin}/late`);
    const waited = await middle(`${late.render}.png`);
    expect(waited.status).toBe(200);
    expect(near(waited.rgb, COLOURS.green!)).toBe(false);
  });
});

describe("the editor's preview of a crop", () => {
  const previewOf = (id: string) => `/api/pic-snippet/${id}/web-crop-preview`;

  it('answers the element the render draws, for its team only, with the CSRF token', async () => {
    const design = await cropDesign({}, `${origin}/deal/red`);
    const owner = await ownTeam(stack().url, uniqueEmail('web-crop-owner'));
    const mine = await demoDesignCopyIn(await currentTeamId(owner));
    const body = { url: `${origin}/deal/blue`, selector: '#deal', is_mobile: false };
    const res = await owner.request('POST', previewOf(mine.designId), body);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const image = String(res.json.image);
    const png = Buffer.from(image.slice(image.indexOf(',') + 1), 'base64');
    const { data, info } = await sharp(png)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4),
    ];
    // The element alone, blue in the middle; transparent around it where the page (white) was.
    expect(
      near(at(Math.floor(info.width / 2), Math.floor(info.height / 2)).slice(0, 3), COLOURS.blue!),
    ).toBe(true);
    expect(at(0, 0)[3]).toBe(0);
    // Another team's design is not found; without the CSRF token nothing is taken.
    const other = await owner.request('POST', previewOf(design.designId), body);
    expect(other.status).toBe(404);
    const forged = await owner.request('POST', previewOf(mine.designId), body, { csrf: false });
    expect(forged.status).toBe(419);
  });

  it('refuses private and metadata addresses, and says when nothing matched', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('web-crop-ssrf'));
    const mine = await demoDesignCopyIn(await currentTeamId(owner));
    asked.length = 0;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://127.0.0.1:1/',
    ]) {
      const res = await owner.request('POST', previewOf(mine.designId), {
        url,
        selector: '#deal',
        is_mobile: true,
      });
      expect(res.status, url).toBe(422);
      expect(res.json.message).toBe(
        'This page cannot be opened: its address is not a public web address.',
      );
    }
    const none = await owner.request('POST', previewOf(mine.designId), {
      url: `${origin}/deal/green`,
      selector: '#no-such-thing',
      is_mobile: false,
    });
    expect(none.status).toBe(422);
    expect(none.json.message).toMatch(/^Nothing was captured/);
  });
});
