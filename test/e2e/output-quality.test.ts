/// <reference lib="dom" />
/**
 * The editor's "Output quality" settings as a user meets them (docs/editor.md "Output
 * quality"): the toolbar disclosure opens on today's defaults, a quality past the bounds shows
 * its field error and saves nothing, then quality 92, progressive and "Sharper small text"
 * are set by keyboard and saved, and the render URL's JPEG is progressive with 4:4:4 sampling
 * (read with sharp's metadata); Escape closes the panel; Undo takes the 4:4:4 back, and the
 * render follows.
 * Screenshots: test-results/e2e-output-quality-*.png.
 */
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { createDesign, ownTeam } from '../support/designs.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { waitForSaved } from '../support/editor-page.ts';
import {
  TIMEOUT_MS,
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'design-walnut-27';
const QUALITY = 'JPEG quality (1–100)';
const PROGRESSIVE = 'Progressive';
const SHARPER = 'Sharper small text (4:4:4 colour)';

const checked = async (page: Page, name: string) =>
  (await findByRole(page, 'checkbox', name)).evaluate((el) => (el as HTMLInputElement).checked);

/** The JPEG the render URL answers now, with what sharp reads of it. */
async function renderedJpeg(url: string) {
  const res = await fetch(url);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, meta: await sharp(bytes).metadata() };
}

describe('output quality in the editor', () => {
  it(
    'sets quality, progressive and 4:4:4, saves them, and the render URL follows',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const email = `output-quality-${Date.now()}@example.com`;
      const client = await ownTeam(base, email);
      const design = await createDesign(client, { title: 'Small print' });
      const renderUrl = `${base}/r/${design.public_id}.jpg?__preview=1`;

      // Today's render: baseline, 4:2:0.
      const before = await renderedJpeg(renderUrl);
      expect(before.meta.isProgressive).toBe(false);
      expect(before.meta.chromaSubsampling).toBe('4:2:0');

      const page = await browser().newPage();
      await page.setViewport({ width: 1400, height: 900 });
      page.setDefaultTimeout(TIMEOUT_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container');

      // The disclosure, opened by keyboard: today's values, Reset off.
      const summary = await page.waitForSelector('summary.output-quality__summary');
      expect(await summary!.evaluate((el) => el.textContent)).toContain('JPEG 86');
      await summary!.focus();
      await page.keyboard.press('Enter');
      const field = await findByRole(page, 'spinbutton', QUALITY);
      expect(await field.evaluate((el) => (el as HTMLInputElement).value)).toBe('86');
      expect(await checked(page, PROGRESSIVE)).toBe(false);
      expect(await checked(page, SHARPER)).toBe(false);
      expect(
        await (
          await findByRole(page, 'button', 'Reset to default')
        ).evaluate((el) => (el as HTMLButtonElement).disabled),
      ).toBe(true);
      await waitForText(page, 'About the default file size.');
      await snap(page, 'e2e-output-quality-1-open');

      // Past the bounds: the field's error, nothing saved.
      await page.locator(byRole('spinbutton', QUALITY)).fill('150');
      await page.keyboard.press('Enter');
      await waitForText(page, 'Enter a whole number from 1 to 100.');
      expect(await field.evaluate((el) => el.getAttribute('aria-invalid'))).toBe('true');
      await snap(page, 'e2e-output-quality-2-error');
      const unsaved = await client.request('GET', `/api/pic-snippet/${design.id}`);
      expect(unsaved.json.quality).toEqual({
        quality: 86,
        progressive: false,
        chromaSubsampling: '4:2:0',
      });

      // 92, progressive and sharper small text: saved.
      await page.locator(byRole('spinbutton', QUALITY)).fill('92');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => !document.body.innerText.includes('Enter a whole number from 1 to 100.'),
      );
      for (const name of [PROGRESSIVE, SHARPER]) {
        await (await findByRole(page, 'checkbox', name)).focus();
        await page.keyboard.press('Space');
      }
      await waitForSaved(page);
      expect(await checked(page, PROGRESSIVE)).toBe(true);
      expect(await checked(page, SHARPER)).toBe(true);
      await waitForText(page, '× the default file size.');
      expect(await summary!.evaluate((el) => el.textContent)).toContain(
        'JPEG 92, progressive, 4:4:4',
      );
      await snap(page, 'e2e-output-quality-3-set');
      const saved = await client.request('GET', `/api/pic-snippet/${design.id}`);
      expect(saved.json.quality).toEqual({
        quality: 92,
        progressive: true,
        chromaSubsampling: '4:4:4',
      });

      // The render URL's JPEG: progressive, 4:4:4, larger than before.
      const after = await pollUntil(
        'a progressive 4:4:4 render',
        () => renderedJpeg(renderUrl),
        (r) => r.meta.isProgressive === true && r.meta.chromaSubsampling === '4:4:4',
      );
      expect(after.bytes.length).toBeGreaterThan(before.bytes.length);

      // Escape closes the panel; the focus is back on its button.
      await page.keyboard.press('Escape');
      expect(
        await page.$eval('details.output-quality', (el) => (el as HTMLDetailsElement).open),
      ).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');

      // Undo takes back the last change (4:4:4); the render follows.
      await press(page, 'Undo');
      await waitForSaved(page);
      expect(await summary!.evaluate((el) => el.textContent)).toContain('JPEG 92, progressive');
      await summary!.focus();
      await page.keyboard.press('Enter');
      expect(await checked(page, SHARPER)).toBe(false);
      expect(await checked(page, PROGRESSIVE)).toBe(true);
      const undone = await pollUntil(
        'a progressive 4:2:0 render',
        () => renderedJpeg(renderUrl),
        (r) => r.meta.isProgressive === true && r.meta.chromaSubsampling === '4:2:0',
      );
      expect(undone.meta.format).toBe('jpeg');
      await snap(page, 'e2e-output-quality-4-undone');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
