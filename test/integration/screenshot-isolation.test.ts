/**
 * Screenshot pages never share the render browser (docs/security.md "Screenshot pages"): a
 * user-chosen page opens in a Chromium of its own with a time budget, so a page that spins
 * forever cannot stall the renders of other designs, and popups it opens are refused.
 *
 * Mutation checks (run): with the capture back in the render browser (`getBrowser()` in
 * functions/screenshot/capture.ts), "keeps the render browser apart" fails; without the kill past
 * the budget (`killScreenshotBrowser`), the browser running the spinning page stays alive,
 * holding a core ("a spinning page is stopped at its budget" fails).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage, pollUntil, useLocalStack } from '../support/stack.ts';
import { putDesign } from '../support/render-designs.ts';

let fixture: Server;
let fixturePort = 0;
let popupHits = 0;
let spinHits = 0;

beforeAll(async () => {
  fixture = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>${body}`);
    if (path === '/spin.html') {
      spinHits += 1;
      return html('<body><script>for(;;){}</script></body>');
    }
    if (path === '/green.html') return html('<body style="margin:0;background:#14c828"></body>');
    if (path === '/popup.html') {
      // Blue when the page got no window from window.open (refused), red when it got one.
      return html(
        '<body style="margin:0"><script>document.body.style.background =' +
          ' window.open("/popped.html") ? "#dc1414" : "#1434dc"</script></body>',
      );
    }
    if (path === '/popped.html') {
      popupHits += 1;
      return html('<body>popped</body>');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => fixture.listen(0, '127.0.0.1', ok));
  fixturePort = (fixture.address() as AddressInfo).port;
  process.env.SSRF_TEST_PUBLIC_PORTS = String(fixturePort);
});

const stack = useLocalStack();

// The screenshot browser of this worker may be an earlier file's: start this file's afresh, and
// leave none of its own behind.
beforeAll(async () => {
  const { closeScreenshotBrowser } = await import('#functions/screenshot/capture.ts');
  await closeScreenshotBrowser();
});
afterAll(async () => {
  const { closeScreenshotBrowser } = await import('#functions/screenshot/capture.ts');
  await closeScreenshotBrowser();
});

beforeAll(async () => {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  const document = DesignDocumentSchema.parse({
    ...(demo.document as object),
    text_snippets: [],
    graphics_data: [
      {
        uuid: 'shot',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'screenShot',
        dynamicStickerParamName: 'screenIcon1',
        dynamicStickerUrl: '',
        left: 20,
        top: 20,
        width: 910,
        height: 512,
        scaleX: 0.3,
        scaleY: 0.3,
      },
    ],
  });
  await putDesign('shot', 'team-demo', document);
});

afterAll(async () => {
  await new Promise((ok) => fixture?.close(ok));
});

const page = (name: string) => encodeURIComponent(`http://127.0.0.1:${fixturePort}/${name}`);

/** Mean RGB of the screenshot sticker's box (left 20, top 20, 273x153 px). */
async function stickerColour(query: string): Promise<number[]> {
  const { default: sharp } = await import('sharp');
  const img = await fetchImage(`${stack().url}/r/shot.png?${query}`);
  expect(img.res.status).toBe(200);
  const { data } = await sharp(img.bytes)
    .extract({ left: 60, top: 60, width: 100, height: 60 })
    .removeAlpha()
    .resize(1, 1)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data];
}

describe('screenshot pages', () => {
  it('keeps the render browser apart: the page opens in another Chromium process', async () => {
    const { getBrowser } = await import('#functions/render/browser.ts');
    const renderPid = (await getBrowser()).process()?.pid;
    const colour = await stickerColour(`screenIcon1=${page('green.html')}`);
    expect(colour[1]).toBeGreaterThan(150); // the green page was drawn
    const { execFileSync } = await import('node:child_process');
    // Chromium processes this test process started: the render browser and the screenshot one.
    const children = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([, ppid, args]) => Number(ppid) === process.pid && /\/chromium$/.test(args ?? ''))
      .map(([pid]) => Number(pid));
    expect((await getBrowser()).process()?.pid).toBe(renderPid);
    expect(children).toContain(renderPid);
    expect(children.filter((pid) => pid !== renderPid).length).toBeGreaterThanOrEqual(1);
  });

  it('a spinning page is stopped at its budget, and another design renders meanwhile', async () => {
    const { screenshotBrowserPid } = await import('#functions/screenshot/capture.ts');
    const shooter = await screenshotBrowserPid(); // launched by the test above
    expect(shooter).toBeGreaterThan(0);
    const started = Date.now();
    let spinDone = 0;
    const spinning = fetchImage(`${stack().url}/r/shot.png?screenIcon1=${page('spin.html')}`).then(
      (img) => {
        spinDone = Date.now();
        return img;
      },
    );
    // The spinning page is loading in the screenshot browser: now the other design renders.
    await pollUntil(
      'the spinning page was requested',
      () => Promise.resolve(spinHits),
      (n) => n > 0,
    );
    const other = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Meanwhile`);
    const otherDone = Date.now();
    expect(other.res.status).toBe(200);
    expect(other.res.headers.get('cache-control')).not.toBe('no-store');
    // The other design's render did not wait for the spinning page.
    expect(spinDone === 0 || otherDone <= spinDone).toBe(true);
    const spun = await spinning;
    expect(spun.res.status).toBe(200);
    expect(spun.res.headers.get('content-type')).toBe('image/png');
    console.log(
      `spinning page: answered after ${spinDone - started} ms; other design after ${otherDone - started} ms`,
    );
    // The screenshot browser that ran the spinning page was killed (it no longer holds a core)…
    // (polled: a killed child is gone once Node has reaped it)
    const alive = () => {
      try {
        process.kill(shooter!, 0);
        return true;
      } catch {
        return false;
      }
    };
    await pollUntil(
      'the spinning page’s browser is gone',
      () => Promise.resolve(alive()),
      (a) => !a,
    );
    // …and a new one comes up for the next page.
    const colour = await stickerColour(`screenIcon1=${page('green.html')}&v=2`);
    expect(colour[1]).toBeGreaterThan(150);
  });

  it('refuses popups', async () => {
    const colour = await stickerColour(`screenIcon1=${page('popup.html')}`);
    // Blue: window.open gave the page no window, so nothing can load in one later.
    expect(colour[2]).toBeGreaterThan(150);
    expect(colour[0]).toBeLessThan(100);
    expect(popupHits).toBe(0);
  });
});
