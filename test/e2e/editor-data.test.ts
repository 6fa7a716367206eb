/// <reference lib="dom" />
/**
 * A data store bound in the editor's data panel (docs/editor.md "Data sources";
 * docs/data-sources.md "Binding a design"): the demo owner uploads a products table, opens the
 * panel, sees a sample record, maps the column Name to the design's parameter, undoes and redoes
 * the binding, and the render URL with `?sku=…` draws the looked-up name; removing the binding is
 * saved too. Screenshots: test-results/e2e-data-*.png.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { findByRole, press, signIn, snap, TIMEOUT_MS, waitForText } from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { DEMO_USER, openEditorPage, waitForSaved } from '../support/editor-page.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

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
      const image = async (query: string) => {
        const img = await fetchImage(`${base}/r/${design.public_id}.png?${query}`);
        expect(img.res.status).toBe(200);
        return img;
      };
      // Mean difference inside the text's area (the snippet sits at 20,20 and is 500 px wide).
      const differ = (a: Awaited<ReturnType<typeof image>>, b: Awaited<ReturnType<typeof image>>) =>
        meanDifference(a.pixels, b.pixels, a.width, {
          left: 0,
          top: 0,
          width: Math.min(560, a.width),
          height: Math.min(140, a.height),
        });
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
