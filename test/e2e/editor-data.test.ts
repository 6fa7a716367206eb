/// <reference lib="dom" />
/**
 * A data store bound in the editor's data panel (docs/editor.md "Data sources";
 * docs/data-sources.md "Binding a design"): the demo owner uploads a products table, opens the
 * panel, sees a sample record, maps the column Name to the design's parameter, undoes and redoes
 * the binding, and the render URL with `?sku=…` draws the looked-up name; removing the binding is
 * saved too. Screenshots: test-results/e2e-data-*.png.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import {
  fillField,
  findByRole,
  POLL,
  press,
  signIn,
  snap,
  TIMEOUT_MS,
  waitForText,
} from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { countdownSticker } from '../support/countdown.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { DEMO_USER, openEditorPage, waitForSaved } from '../support/editor-page.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

/**
 * A JSON API on loopback, which the test stack's SSRF guard treats as public
 * (SSRF_TEST_PUBLIC_PORTS, honoured only with STAGE=test), as in the web-API integration tests:
 * `/products/{id}?lang=` answers a product; the ids `broken` (500), `slow` (after 5 s), `moved`
 * (a redirect to a loopback port the guard refuses) and `empty` (`{}`) show the sample's states.
 */
const apiHits: string[] = [];
const jsonApi = createServer((req, res) => {
  apiHits.push(req.url ?? '');
  const url = new URL(req.url ?? '/', 'http://x');
  const id = decodeURIComponent(url.pathname.split('/')[2] ?? '');
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (id === 'broken') return answer(500, { error: 'down' });
  if (id === 'slow') return void setTimeout(() => answer(200, {}), 5000).unref();
  if (id === 'moved') {
    res.writeHead(302, { location: `http://127.0.0.1:${victimPort}/secret` });
    return void res.end();
  }
  if (id === 'empty') return answer(200, {});
  if (id === '' || id === 'none') return answer(404, { error: 'no such product' });
  answer(200, { items: [{ name: `Product ${id} (${url.searchParams.get('lang')})` }] });
});
/** A loopback server the guard must refuse (not listed as public). */
const victim = createServer((_req, res) => res.end('{}'));
const listen = (server: Server) =>
  new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port)),
  );
let apiPort = 0;
let victimPort = 0;

beforeAll(async () => {
  apiPort = await listen(jsonApi);
  victimPort = await listen(victim);
  process.env.SSRF_TEST_PUBLIC_PORTS = String(apiPort);
  resetConfig();
});

const stack = useLocalStack({ web: 'preview' });

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  jsonApi.closeAllConnections();
  await Promise.all([jsonApi, victim].map((s) => new Promise((ok) => s.close(ok))));
});
const browser = useTestBrowser();

/** The render of a design for a query, checked to answer 200. */
async function render(publicId: string, query: string) {
  const img = await fetchImage(`${stack().url}/r/${publicId}.png?${query}`);
  expect(img.res.status).toBe(200);
  return img;
}
type Rendered = Awaited<ReturnType<typeof render>>;

/** Mean difference of two renders in their top-left `width` x `height` px (a text's area). */
const areaDifference = (a: Rendered, b: Rendered, width: number, height: number) =>
  meanDifference(a.pixels, b.pixels, a.width, {
    left: 0,
    top: 0,
    width: Math.min(width, a.width),
    height: Math.min(height, a.height),
  });

describe('data panel', () => {
  it(
    'binds a data store with a sample record shown, undoes and redoes it, and the render looks the key up',
    { timeout: 180_000 },
    async () => {
      const base = stack().url;
      const client = await signedIn(base, DEMO_USER.email);
      const me = await client.request('GET', '/user/current');
      const teamId = me.json.current_team_id as string;
      const file = new FormData();
      file.append('name', 'Products');
      file.append('key_column', 'sku');
      file.append(
        'file',
        new Blob(['sku,Name,Price\nA-1,Blue mug,12\nB-2,Red mug,9\n'], { type: 'text/csv' }),
        'products.csv',
      );
      const upload = await client.request(
        'POST',
        `/settings/companies/${teamId}/data-stores`,
        file,
      );
      expect(upload.status, JSON.stringify(upload.json)).toBe(201);
      const storeId = (upload.json.store as { id: string }).id;

      const design = await createDesign(client, { title: 'Data' });
      const setUp = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        text_snippets: [
          {
            id: 'product',
            text: '{{product}}',
            left: 20,
            top: 20,
            width: 500,
            fontSize: 60,
            fill: '#ffffff',
            parameters: [{ id: 'p-product', param_name: 'product', param_default_value: 'Mug' }],
          },
        ],
      });
      expect(setUp.status).toBe(200);
      const stored = async () =>
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json
          .data_bindings as unknown[];

      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1400,
        height: 1000,
      });
      await press(page, 'Data');
      await waitForText(page, 'No data sources yet');
      // The sample record of the chosen store shows before anything is bound.
      // (which record is the sample depends on the store's order: either mug)
      await waitForText(page, 'Sample record (sku ');
      await waitForText(page, ' mug');
      await snap(page, 'e2e-data-1-sample');

      // Nothing mapped: refused with a message, nothing changes.
      await press(page, 'Add binding');
      await waitForText(page, 'Choose a parameter for at least one column.');
      const column = await findByRole(page, 'combobox', 'Column Name');
      await column.select('product');
      await press(page, 'Add binding');
      await waitForText(page, 'Name → product');
      await waitForSaved(page);
      const binding = {
        source: 'store',
        source_id: storeId,
        key_param: 'sku',
        fields: [{ field: 'Name', param: 'product' }],
      };
      await expect.poll(stored).toEqual([binding]);
      const panel = await page.$('.editor-panel');
      await panel!.screenshot({ path: 'test-results/e2e-data-2-panel.png' });

      // One undo step takes the binding away, redo puts it back; both are saved.
      await press(page, 'Undo');
      await waitForText(page, 'No data sources yet');
      await waitForSaved(page);
      await expect.poll(stored).toEqual([]);
      await press(page, 'Redo');
      await waitForText(page, 'Name → product');
      await waitForSaved(page);
      await expect.poll(stored).toEqual([binding]);

      // The render URL looks the SKU up: the same image as the name typed into the URL.
      const image = (query: string) => render(design.public_id, query);
      // Mean difference inside the text's area (the snippet sits at 20,20 and is 500 px wide).
      const differ = (a: Rendered, b: Rendered) => areaDifference(a, b, 560, 140);
      const looked = await image('sku=A-1');
      expect(differ(looked, await image(`product=${encodeURIComponent('Blue mug')}`))).toBeLessThan(
        0.5,
      );
      const missing = await image('sku=ZZZ');
      expect(differ(missing, await image(''))).toBeLessThan(0.5);
      expect(differ(looked, missing)).toBeGreaterThan(0.8);
      await writeFile('test-results/e2e-data-4-render-sku.png', looked.bytes);
      await writeFile('test-results/e2e-data-5-render-missing.png', missing.bytes);

      // Removing the binding is saved.
      await press(page, 'Remove binding to Products');
      await waitForText(page, 'No data sources yet');
      await waitForSaved(page);
      await expect.poll(stored).toEqual([]);
      await snap(page, 'e2e-data-3-removed');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it(
    'binds a web API with its URL values, shows the sample record and its failures, and the render draws the looked-up value; the export screen says which parameter selects the record',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const client = await signedIn(base, DEMO_USER.email);
      const me = await client.request('GET', '/user/current');
      const teamId = me.json.current_team_id as string;
      const created = await client.request('POST', `/settings/companies/${teamId}/web-apis`, {
        name: 'Catalogue',
        url: `http://127.0.0.1:${apiPort}/products/{id}?lang={lang}`,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const apiId = (created.json.api as { id: string }).id;

      const design = await createDesign(client, { title: 'API data' });
      const snippets = [
        {
          id: 'product',
          text: '{{product}}',
          left: 20,
          top: 20,
          width: 560,
          fontSize: 48,
          fill: '#ffffff',
          parameters: [{ id: 'p-product', param_name: 'product', param_default_value: 'Mug' }],
        },
        {
          id: 'sku',
          text: '{{sku}}',
          left: 20,
          top: 300,
          width: 300,
          fontSize: 24,
          fill: '#ffffff',
          parameters: [{ id: 'p-sku', param_name: 'sku', param_default_value: 'A-1' }],
        },
      ];
      const setUp = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        text_snippets: snippets,
      });
      expect(setUp.status, JSON.stringify(setUp.json)).toBe(200);
      const read = async () => (await client.request('GET', `/api/pic-snippet/${design.id}`)).json;
      const stored = async () => (await read()).data_bindings as unknown[];

      // tall enough for the whole panel in one screenshot
      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1400,
        height: 2000,
      });
      await press(page, 'Data');
      await waitForText(page, 'No data sources yet');
      await press(page, 'A web API', 'radio');
      await waitForText(page, 'Add a web API');
      // {id} from the design's parameter sku, {lang} a fixed value; one path fills product.
      await (await findByRole(page, 'combobox', 'Fill {id} from')).select('sku');
      await (await findByRole(page, 'combobox', 'Fill {lang} from')).select('\u0000fixed');
      await fillField(page, 'Fixed value of {lang}', 'en');
      await fillField(page, 'Field path 1', 'items[0].name');
      await (await findByRole(page, 'combobox', 'Fills parameter 1')).select('product');
      // The sample fetch uses the parameter's fallback until another sample is typed.
      await waitForText(page, 'Product A-1 (en)');
      await waitForText(page, 'Sample record (id A-1, lang en)');
      const panel = async (name: string) =>
        (await page.$('.data-panel'))!.screenshot({ path: `test-results/${name}.png` });
      await panel('e2e-data-api-1-sample');

      // Each failure says what happened, and no sample shows.
      const states: [string, string][] = [
        ['broken', 'The API answered 500.'],
        ['slow', 'The API timed out: no answer within 2 seconds.'],
        ['moved', 'The address was refused'],
        ['empty', 'The API answered with no data for these values.'],
      ];
      for (const [sample, message] of states) {
        await fillField(page, 'Sample value of sku', sample);
        await waitForText(page, message);
        await panel(`e2e-data-api-2-${sample}`);
      }
      await fillField(page, 'Sample value of sku', 'B-2');
      await waitForText(page, 'Product B-2 (en)');

      // A path that does not parse is a field error; nothing is bound.
      await fillField(page, 'Field path 1', 'items[0');
      await press(page, 'Add binding');
      await waitForText(page, 'The path items[0');
      expect(await stored()).toEqual([]);
      await fillField(page, 'Field path 1', 'items[0].name');
      await press(page, 'Add binding');
      await waitForText(page, '{id} ← URL parameter sku');
      await waitForText(page, '{lang} = en');
      await waitForText(page, 'items[0].name → product');
      await waitForSaved(page);
      const binding = {
        source: 'api',
        source_id: apiId,
        key_param: '',
        fields: [{ field: 'items[0].name', param: 'product' }],
        url_values: [
          { name: 'id', param: 'sku', value: '' },
          { name: 'lang', param: '', value: 'en' },
        ],
      };
      await expect.poll(stored, POLL).toEqual([binding]);
      await panel('e2e-data-api-3-bound');

      // One undo step takes it away, redo puts it back; both are saved.
      await press(page, 'Undo');
      await waitForText(page, 'No data sources yet');
      await waitForSaved(page);
      await expect.poll(stored, POLL).toEqual([]);
      await press(page, 'Redo');
      await waitForText(page, 'items[0].name → product');
      await waitForSaved(page);
      await expect.poll(stored, POLL).toEqual([binding]);
      await page.close();

      // The render URL's sku selects the product: the same pixels as the name typed in the URL.
      const image = (query: string) => render(design.public_id, query);
      const differ = (a: Rendered, b: Rendered) => areaDifference(a, b, 600, 120);
      const looked = await image('sku=C-3');
      expect(apiHits).toContain('/products/C-3?lang=en');
      const typed = await image(`sku=C-3&product=${encodeURIComponent('Product C-3 (en)')}`);
      expect(differ(looked, typed)).toBeLessThan(0.5);
      const missing = await image('sku=none');
      expect(differ(missing, await image('sku=none&product=Mug'))).toBeLessThan(0.5);
      expect(differ(looked, missing)).toBeGreaterThan(0.8);
      await writeFile('test-results/e2e-data-api-4-render.png', looked.bytes);
      await writeFile('test-results/e2e-data-api-5-render-missing.png', missing.bytes);

      // The export screen says which parameter selects the record (and that a store's key
      // parameter the design does not declare must be added to the URL by hand); with a timer
      // counting from the first open and a rule, it says what the URL and the link need too.
      const current = await read();
      const storeBinding = {
        source: 'store',
        source_id: 'store-of-this-team',
        key_param: 'code',
        fields: [{ field: 'Name', param: 'product' }],
      };
      const withMore = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: current.version,
        data_bindings: [binding, storeBinding],
        graphics_data: [
          countdownSticker(
            { mode: 'evergreen', start: 'first_open', durationSeconds: 3600, frames: 2 },
            { dynamicStickerParamName: 'start_at', top: 380, width: 300, height: 100 },
          ),
        ],
        rules: [
          {
            id: 'mugs',
            name: 'Mugs',
            conditions: [
              { kind: 'parameter', param_name: 'sku', operator: 'equals', value: 'A-1' },
            ],
            variant: { base_image: null, show_stickers: [], hide_stickers: [] },
            link_url: 'https://example.com/mugs',
          },
        ],
      });
      expect(withMore.status, JSON.stringify(withMore.json)).toBe(200);
      const exportPage = await browser().newPage();
      await exportPage.setViewport({ width: 1400, height: 1100 });
      exportPage.setDefaultTimeout(TIMEOUT_MS);
      exportPage.on('pageerror', (error) => errors.push(String(error)));
      await signIn(exportPage, base, DEMO_USER.email, DEMO_USER.password);
      await exportPage.goto(`${base}/pic-snippet/${design.id}/export`, {
        waitUntil: 'domcontentloaded',
        timeout: 60_000,
      });
      await press(exportPage, 'Got it');
      await waitForText(exportPage, "The URL's values of code and sku select the records");
      await waitForText(exportPage, 'code is not a parameter of this PicSnippet');
      await waitForText(exportPage, "The timer counts from each recipient's first open");
      await waitForText(exportPage, 'values in the URL (product or sku)');
      await waitForText(exportPage, 'Link the image to the click-through link');
      const hints = await exportPage.$('[data-testid="export-open-time-hints"]');
      await hints!.screenshot({ path: 'test-results/e2e-data-api-6-export-hints.png' });
      await snap(exportPage, 'e2e-data-api-7-export');
      expect(errors).toEqual([]);
      await exportPage.close();
    },
  );

  it(
    'tells a plain member of the team to ask an owner or admin instead of failing',
    { timeout: 120_000 },
    async () => {
      const base = stack().url;
      const owner = await signedIn(base, DEMO_USER.email);
      const design = await createDesign(owner, { title: 'Data for a member' });
      // The admin user joins the demo team as a plain member and works in it.
      const member = await signedIn(base, 'admin@example.com');
      const me = await member.request('GET', '/user/current');
      const { db } = await import('#lib/db/index.ts');
      await db()
        .Membership.put({ teamId: 'team-demo', userId: me.json.id as string, role: 'member' })
        .go();
      const switched = await member.request('PUT', '/settings/companies/team-demo/switch');
      expect(switched.status, JSON.stringify(switched.json)).toBe(200);

      const page = await browser().newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, 'admin@example.com', 'demo-password');
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');
      await press(page, 'Data');
      await waitForText(page, 'Ask a team owner or admin to connect data sources.');
      await waitForText(page, 'No data sources yet');
      await snap(page, 'e2e-data-6-member');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
