/// <reference lib="dom" />
/**
 * The export screen through the built SPA in headless Chromium (docs/export.md; docs/export.md "The
 * screen" "Export screen", docs/export.md "The screen": "Export", docs/adr/0023-team-roles.md "Team
 * roles" `can_export_pdf`): the demo user opens the export screen of the demo design from its show
 * page, meets the custom-data intro and hides it for good, chooses Klaviyo, maps `first_name` to
 * Klaviyo's first-name tag, generates, and the HTML's image URL, with "Ana" substituted as Klaviyo
 * does, draws what the render of first_name=Ana draws. The PDF toggle works for the demo team
 * (Pro); a free team gets the plan message with the Upgrade link. Screenshots land in
 * test-results/e2e-export-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { providerOf } from '#shared/providers/index.ts';
import { densePath } from '#shared/render-url.ts';
import {
  OWN_TEAM_PASSWORD,
  createDesign,
  ownTeam,
  signedIn,
  uniqueEmail,
  useDemoDesignCopy,
} from '../support/designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser, type TestBrowser } from '../support/browser.ts';
import {
  byRole,
  findByRole,
  POLL,
  press,
  signIn,
  snap,
  TIMEOUT_MS,
  waitForText,
} from '../support/aria.ts';

// The preview and the substituted URL are drawn by the render service: it needs its Chromium.
const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const PASSWORD = 'demo-password';
/** This file's copy of the seeded demo design: Generate keeps its version. */
const welcome = useDemoDesignCopy();
const klaviyo = providerOf('klaviyo');
const FIRST_NAME_TAG = klaviyo.mergeTag('first_name');
/** Where "Hello {first_name}!" is drawn on the demo design, px (as the round-trip test reads it). */
const textBand = { left: 50, top: 200, width: 900, height: 220 };

/** A page of a fresh browser context, signed in as `email`, at 1366×900, errors collected. */
async function signedInPage(b: TestBrowser, email: string, password = PASSWORD) {
  const context = await b.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1366, height: 900 });
  page.setDefaultTimeout(TIMEOUT_MS);
  // Pages wait for renders; the machine is shared, so navigations get more time.
  page.setDefaultNavigationTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await signIn(page, stack().url, email, password);
  return { context, page, errors };
}

/** Chooses `value` in the select labelled `label`, as a user does. */
async function choose(page: Page, label: string, value: string) {
  await findByRole(page, 'combobox', label);
  await page.select(byRole('combobox', label), value);
}

/** Opens the export screen and closes the custom-data intro with the given button. */
async function openExport(page: Page, designId: string, closeWith: string) {
  await page.goto(`${stack().url}/pic-snippet/${designId}/export`, { waitUntil: 'networkidle0' });
  await findByRole(page, 'dialog', 'Custom data for each recipient');
  await press(page, closeWith);
  await page.waitForFunction(() => !document.querySelector('dialog[open]'), {
    timeout: TIMEOUT_MS,
  });
}

/** Whether the button named `name` is usable (not `aria-disabled`). */
const enabled = (page: Page, name: string) =>
  page.$eval(byRole('button', name), (el) => el.getAttribute('aria-disabled') !== 'true');

describe('export screen', () => {
  it(
    'maps first_name to Klaviyo, generates, and the substituted image URL draws "Hello Ana!"',
    { timeout: 240_000 },
    async () => {
      const base = stack().url;
      const { context, page, errors } = await signedInPage(browser(), 'demo@example.com');
      await context.overridePermissions(base, ['clipboard-read', 'clipboard-write']);

      // The show page offers Export in a new window.
      await page.goto(`${base}/pic-snippet/${welcome().designId}`, { waitUntil: 'networkidle0' });
      const exportLink = await findByRole(page, 'link', 'Export (opens in a new window)');
      expect(
        await exportLink.evaluate((a) => [a.getAttribute('href'), a.getAttribute('target')]),
      ).toEqual([`/pic-snippet/${welcome().designId}/export`, '_blank']);

      // The intro shows until "Don't show it again" (docs/export.md "The screen", customDataModal =
      // 0).
      await page.goto(`${base}/pic-snippet/${welcome().designId}/export`, {
        waitUntil: 'networkidle0',
      });
      await findByRole(page, 'dialog', 'Custom data for each recipient');
      await snap(page, 'e2e-export-1-intro');
      await press(page, "Don't show it again");
      expect(await page.evaluate(() => localStorage.getItem('customDataModal'))).toBe('0');
      await page.reload({ waitUntil: 'networkidle0' });
      await findByRole(page, 'combobox', 'Platform');
      expect(await page.$('dialog[open]')).toBeNull();

      // Klaviyo's "First name" fills first_name by its name (docs/export.md "The screen").
      await choose(page, 'Platform', 'klaviyo');
      await waitForText(page, '✓ platform saved');
      await findByRole(page, 'combobox', 'Merge field for first_name');
      await waitForText(page, 'Live fields need a connection');
      await waitForText(page, 'Matched by name');
      await snap(page, 'e2e-export-2-klaviyo');

      const value = await findByRole(page, 'textbox', 'Value of first_name');
      expect(await value.evaluate((el) => (el as HTMLInputElement).value)).toBe(FIRST_NAME_TAG);
      await waitForText(page, '✓ values saved');
      await page.waitForFunction(
        (sel) => document.querySelector(sel)?.getAttribute('aria-disabled') !== 'true',
        { timeout: 60_000 },
        'button[aria-describedby$="-generate-hint"]',
      );
      await press(page, 'Generate');
      const html = await (await page.waitForSelector('[data-testid="export-html"]'))!.evaluate(
        (el) => (el as HTMLTextAreaElement).value,
      );
      const link = await page.$eval(
        '[data-testid="export-link"]',
        (el) => (el as HTMLInputElement).value,
      );
      // Copy gives feedback (headless Chromium may refuse the clipboard: then the text is
      // selected and the status says how to copy it).
      await page.bringToFront();
      await press(page, 'Copy HTML');
      await page.waitForFunction(
        () => /HTML copied|blocked copying/.test(document.body.innerText),
        { timeout: TIMEOUT_MS },
      );
      // From the top: the sticky preview then sits beside the settings in the full-page shot.
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, 'e2e-export-3-generated');

      // The HTML's image is the direct link's 2× form, at the 1× width (docs/export.md
      // "Density"), with the tag Klaviyo fills in.
      const dense = /<img src="([^"]+)" width="(\d+)"/.exec(html)!;
      expect(dense[1]!.replace(/&amp;/g, '&')).toBe(densePath(link, 2));
      const src = link;
      // Generate names the design's current version (docs/export.md "Cache id").
      const version = (
        await (
          await signedIn(base, 'demo@example.com')
        ).request('GET', `/api/pic-snippet/${welcome().designId}`)
      ).json.version as number;
      const cacheId = new RegExp(`^${welcome().render}/v(\\d+)$`).exec(new URL(src).pathname);
      expect(cacheId, src).not.toBeNull();
      expect(Number(cacheId![1])).toBeLessThanOrEqual(version);
      expect(src).toContain(klaviyo.urlTag('first_name'));
      // What Klaviyo sends to Ana (its own substitution, docs/providers.md), drawn for real.
      const forAna = src.replace(klaviyo.urlTag('first_name'), () => klaviyo.substitute('Ana'));
      const delivered = await fetchImage(forAna);
      const reference = await fetchImage(`${base}${welcome().render}?first_name=Ana`);
      const fallback = await fetchImage(`${base}${welcome().render}`);
      expect(delivered.res.status).toBe(200);
      expect(delivered.res.headers.get('cache-control')).not.toBe('no-store');
      expect([delivered.width, delivered.height]).toEqual([reference.width, reference.height]);
      expect(meanDifference(delivered.pixels, reference.pixels, reference.width, textBand)).toBe(0);
      const delivered2x = await fetchImage(densePath(forAna, 2));
      expect(delivered2x.res.status).toBe(200);
      expect([delivered2x.width, delivered2x.height]).toEqual([
        reference.width * 2,
        reference.height * 2,
      ]);
      expect(Number(dense[2])).toBe(reference.width);
      expect(
        meanDifference(delivered.pixels, fallback.pixels, reference.width, textBand),
      ).toBeGreaterThan(2);

      // The choices were saved (PUT …/provider and …/choices).
      const api = await signedIn(base, 'demo@example.com');
      const saved = (await api.request('GET', `/api/pic-snippet/${welcome().designId}`)).json;
      expect(saved.merge_tag_provider).toBe('klaviyo');
      const parameters = (
        saved.text_snippets as Array<{ parameters: Array<Record<string, unknown>> }>
      )[0]!.parameters;
      expect(parameters[0]!.merge_tag_value).toBe(FIRST_NAME_TAG);

      // PDF for the Pro team: allowed, and the platforms that show an image leave the list.
      await press(page, 'PDF');
      await page.waitForSelector(`${byRole('button', 'PDF')}[aria-pressed="true"]`);
      const platforms = await page.$$eval(`${byRole('combobox', 'Platform')} option`, (options) =>
        options.map((o) => (o as HTMLOptionElement).value),
      );
      expect(platforms).toContain('klaviyo');
      expect(platforms).not.toContain('mywebsite');
      expect(platforms).not.toContain('wistia');
      expect(platforms).not.toContain('vidalytics');
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(
        'This feature is available only for Pro plans.',
      );
      // From the top: the sticky preview then sits beside the settings in the full-page shot.
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, 'e2e-export-4-pdf');
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'a window of the export path opened from the export screen reloads it and closes (spec 001 §4)',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await signedInPage(browser(), 'demo@example.com');
      await openExport(page, welcome().designId, "Don't show it again");
      await findByRole(page, 'combobox', 'Platform');
      // A mark that a reload wipes out.
      await page.evaluate(() => Object.assign(window, { __beforeReload: true }));
      const opened = new Promise<void>((resolve) => {
        context.once('targetcreated', () => resolve());
      });
      // As Keap's authorisation window does when it comes back to the export path.
      await page.evaluate((url) => void window.open(url, 'keap-authorisation'), page.url());
      await opened;
      await page.waitForFunction(() => !('__beforeReload' in window), { timeout: 60_000 });
      await findByRole(page, 'combobox', 'Platform');
      // The second window closed itself: only the export screen is left.
      await expect.poll(async () => (await context.pages()).length, POLL).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'a free team gets the Pro message with the Upgrade link instead of PDF; Vidalytics says what its script does',
    { timeout: 180_000 },
    async () => {
      const base = stack().url;
      // A free team of this file's own: the seeded free team (the admin's) may have been
      // subscribed by a file before this one on the same stack.
      const email = uniqueEmail('free-export');
      const owner = await ownTeam(base, email);
      const teamId = (await owner.request('GET', '/user/current')).json.current_team_id as string;
      const design = await createDesign(owner, { title: 'Free team export' });
      const { context, page, errors } = await signedInPage(browser(), email, OWN_TEAM_PASSWORD);
      await openExport(page, design.id, 'Got it');
      await waitForText(page, 'This feature is available only for Pro plans.');
      const upgrade = await findByRole(page, 'link', 'Upgrade');
      expect(await upgrade.evaluate((a) => a.getAttribute('href'))).toBe(
        `/settings/companies/${teamId}#/subscription`,
      );
      await press(page, 'PDF');
      expect(
        await page.$eval(byRole('button', 'PDF'), (el) => el.getAttribute('aria-pressed')),
      ).toBe('false');
      // "Got it" closes the intro for now only.
      await page.reload({ waitUntil: 'networkidle0' });
      await findByRole(page, 'dialog', 'Custom data for each recipient');
      await press(page, 'Got it');
      await snap(page, 'e2e-export-5-free-team');

      const labelsNow = () =>
        page.$$eval('label', (all) => all.map((l) => l.textContent?.trim() ?? ''));
      expect(await labelsNow()).toContain('HTML width (%)');

      // Vidalytics: the screen says what the script does not do, and the script needs the embed.
      await choose(page, 'Platform', 'vidalytics');
      await waitForText(page, 'What the Vidalytics script does');
      expect(await enabled(page, 'Generate')).toBe(false);
      // A script, not HTML: the HTML width, alignment and link are not offered.
      await waitForText(page, 'Vidalytics gets a script, not HTML');
      const labels = await labelsNow();
      expect(labels).not.toContain('HTML width (%)');
      expect(labels).not.toContain('Alignment');
      const embed = await findByRole(page, 'textbox', 'Video embed code');
      await embed.type(
        '<div id="vidalytics_embed_Emb2"></div><script>(function(){})(window, document, ' +
          "'Vidalytics', 'vidalytics_embed_Emb2', 'https://fast.vidalytics.com/embeds/Acc1/Emb2/');</script>",
      );
      await press(page, 'Generate');
      const script = await (await page.waitForSelector('[data-testid="export-script"]'))!.evaluate(
        (el) => (el as HTMLTextAreaElement).value,
      );
      expect(script).toContain('"containerId":"vidalytics_embed_Emb2"');
      expect(script).toContain('it does not change the Vidalytics player itself');
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, 'e2e-export-6-vidalytics');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
