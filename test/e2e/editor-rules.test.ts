/// <reference lib="dom" />
/**
 * A rule built in the editor's rules panel (docs/rules.md): a country rule with its own text and
 * click-through link, added with labelled controls, undone and redone with the editor's history,
 * saved; the panel's preview shows the saved design as the picked rule; the render URL shows the
 * rule to a viewer in France and the rule link sends them to the rule's page. Screenshots:
 * test-results/e2e-rules-*.png.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { TIMEOUT_MS, byRole, fillField, findByRole, press, snap } from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { createDesign, signedIn } from '../support/designs.ts';
import { DEMO_USER, openEditorPage } from '../support/editor-page.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const FR_LINK = 'https://shop.example.com/fr';

const waitForSaved = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="save-state"]')?.textContent?.includes('Saved'),
    { timeout: TIMEOUT_MS },
  );

/** Types into the field labelled `label` and presses Enter, which applies it. */
async function enter(page: Page, label: string, value: string): Promise<void> {
  await fillField(page, label, value);
  await page.keyboard.press('Enter');
}

interface RuleJson {
  id: string;
  conditions: Array<Record<string, unknown>>;
  variant: { texts: Record<string, string> };
  link_url: string | null;
}

describe('rules panel', () => {
  it(
    'builds a country rule with its text and link, undoes and redoes it, previews it, and the render and link follow it',
    { timeout: 180_000 },
    async () => {
      const base = stack().url;
      const client = await signedIn(base, DEMO_USER.email);
      const design = await createDesign(client, { title: 'Rules' });
      const setUp = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
        version: design.version,
        html_link_url: 'https://shop.example.com/',
        text_snippets: [
          {
            id: 'hello',
            text: 'Hello {{name}}',
            left: 20,
            top: 20,
            width: 500,
            fontSize: 60,
            fill: '#ffffff',
            parameters: [{ id: 'p-name', param_name: 'name', param_default_value: 'there' }],
          },
        ],
      });
      expect(setUp.status).toBe(200);
      const stored = async () =>
        (await client.request('GET', `/api/pic-snippet/${design.id}`)).json.rules as RuleJson[];

      const { page, errors } = await openEditorPage(browser(), base, design.id, {
        width: 1400,
        height: 1000,
      });

      await press(page, 'Rules');
      await findByRole(page, 'button', 'Add rule');
      await snap(page, 'e2e-rules-1-empty');

      await press(page, 'Add rule');
      await findByRole(page, 'heading', '1. Rule 1');
      await enter(page, 'Name', 'France');
      await findByRole(page, 'heading', '1. France');
      // Country is the first kind offered.
      await press(page, 'Add condition');
      await enter(page, 'Countries', 'fr');
      await enter(page, 'Text 1 (empty: as designed)', 'Bonjour {{name}}');
      await enter(page, 'Click-through link', FR_LINK);
      await waitForSaved(page);
      let rules = await stored();
      expect(rules).toHaveLength(1);
      expect(rules[0]).toMatchObject({
        name: 'France',
        conditions: [{ kind: 'country', countries: ['FR'] }],
        variant: { texts: { hello: 'Bonjour {{name}}' } },
        link_url: FR_LINK,
      });

      // A bad link is refused where it was typed, and nothing changes.
      await enter(page, 'Click-through link', 'javascript:alert(1)');
      await page.waitForSelector('.field__error');
      await snap(page, 'e2e-rules-2-refused');
      await enter(page, 'Click-through link', FR_LINK);

      // Undo takes the link away, redo puts it back; both are saved.
      await press(page, 'Undo');
      await page.waitForFunction(
        (l) =>
          Array.from(document.querySelectorAll('label')).some(
            (x) =>
              x.textContent === l &&
              (document.getElementById(x.htmlFor) as HTMLInputElement).value === '',
          ),
        {},
        'Click-through link',
      );
      await waitForSaved(page);
      await expect.poll(async () => (await stored())[0]!.link_url).toBeNull();
      await press(page, 'Redo');
      await waitForSaved(page);
      await expect.poll(async () => (await stored())[0]!.link_url).toBe(FR_LINK);
      rules = await stored();

      // The preview shows the saved design as the picked rule.
      const pick = await findByRole(page, 'combobox', 'Show the saved design as');
      await pick.select(rules[0]!.id);
      await page.waitForFunction(
        (id) =>
          Array.from(document.querySelectorAll<HTMLImageElement>('.rules-panel__preview')).some(
            (img) => img.complete && img.naturalWidth > 0 && img.src.includes(`__rule=${id}`),
          ),
        {},
        rules[0]!.id,
      );
      const panel = await page.$('.editor-panel');
      await panel!.screenshot({ path: 'test-results/e2e-rules-3-panel.png' });
      const preview = await page.$('.rules-panel__preview');
      await preview!.screenshot({ path: 'test-results/e2e-rules-5-preview-image.png' });
      await snap(page, 'e2e-rules-4-preview');

      // A viewer in France sees the rule and clicks through to its page; others get the design's.
      const france = await fetch(`${base}/r/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'FR' },
      });
      expect(france.headers.get('x-render-rule')).toBe(`rule:${rules[0]!.id}`);
      const click = await fetch(`${base}/l/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'FR' },
        redirect: 'manual',
      });
      expect(click.headers.get('location')).toBe(FR_LINK);
      const elsewhere = await fetch(`${base}/l/${design.public_id}?name=Ana`, {
        headers: { 'cloudfront-viewer-country': 'DE' },
        redirect: 'manual',
      });
      expect(elsewhere.headers.get('location')).toBe('https://shop.example.com/');
      expect(page.locator(byRole('button', 'Delete France'))).toBeTruthy();
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
