/// <reference lib="dom" />
/**
 * Templates and bundles through the built SPA in headless Chromium (docs/templates.md "Screens",
 * docs/templates.md "Model", docs/editor.md "Messages"; docs/templates.md): the admin saves a
 * design as a template with tags from the editor (a duplicate tag refused), into a new bundle;
 * assigns the bundle to the demo team with the add-teams modal ("No any result." first); the demo
 * user finds the Bonus tab in the editor's Templates panel and the template on the dashboard, makes
 * a design from the bundle template and lands in the editor, where they add a sticker from a pack
 * and a favourite and upload a photo and use it; the admin deactivates the template, then deletes
 * it after 'Delete Template ?'. And the admin removes the design open in the editor from its bundle
 * (Bonus tab), after which the Save as template modal starts over (docs/templates.md "Model").
 * Screenshots land in test-results/e2e-templates-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { ElementHandle, Page } from 'puppeteer-core';
import {
  createDesign,
  currentTeamId,
  OWN_TEAM_PASSWORD,
  ownAdmin,
  signedIn,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser, type TestBrowser } from '../support/browser.ts';
import {
  POLL,
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  TIMEOUT_MS,
  waitForText,
  waitForTextGone,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

const TITLE = 'Autumn invitation';
const OTHER = 'Old flyer';
const BUNDLE = 'E2E Bonus';

/** A page of its own browser context (its own cookies), signed in as `email`. */
async function pageAs(b: TestBrowser, email: string, password = 'demo-password'): Promise<Page> {
  const context = await b.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1366, height: 900 });
  page.setDefaultTimeout(TIMEOUT_MS);
  await signIn(page, stack().url, email, password);
  return page;
}

/** Waits until every preview image on the page has loaded (the render service draws them). */
const waitForPreviews = (page: Page) =>
  page.waitForFunction(
    () =>
      document.images.length > 0 &&
      Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
    { timeout: 60_000 },
  );

/** Types into the focused-by-label text field and presses Enter. */
async function typeAndEnter(page: Page, label: string, text: string): Promise<void> {
  const field = await findByRole(page, 'textbox', label);
  await field.type(text);
  await field.press('Enter');
}

describe('templates and bundles', () => {
  it(
    'admin saves a template into a bundle for the demo team, who use it; admin deactivates and deletes it',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const adminApi = await signedIn(base, 'admin@example.com');
      const design = await createDesign(adminApi, { title: TITLE });

      // The admin opens the design and saves it as a template (docs/templates.md "Model": "Create a
      // template").
      const admin = await pageAs(browser(), 'admin@example.com');
      await admin.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'domcontentloaded' });
      await press(admin, 'Save as template');
      await findByRole(admin, 'dialog', 'Create a template');
      await typeAndEnter(admin, 'Tags', 'Autumn');
      await typeAndEnter(admin, 'Tags', 'invitation');
      await typeAndEnter(admin, 'Tags', ' AUTUMN ');
      await waitForText(admin, 'Current tag is already added.');
      await typeAndEnter(admin, 'New bundle name', BUNDLE);
      await waitForText(admin, `New: ${BUNDLE}`);
      await snap(admin, 'e2e-templates-1-save-modal');
      // The refusal clears after 3 s (docs/templates.md "Model").
      await waitForTextGone(admin, 'Current tag is already added.');
      await press(admin, 'Continue');
      await waitForText(admin, 'The template was saved.');
      // Now a template: the same modal reads Update (docs/templates.md "Model").
      await findByRole(admin, 'button', 'Update');
      await snap(admin, 'e2e-templates-2-saved');
      // It closes by itself 3 s after the success (docs/editor.md "Messages").
      await admin.waitForFunction(() => !document.querySelector('dialog[open]'), {
        timeout: TIMEOUT_MS,
      });

      // The Template Bundles tab: the new bundle, assigned to the demo team in the modal.
      await admin.goto(`${base}/dashboard?view=bundles`, { waitUntil: 'domcontentloaded' });
      await findByRole(admin, 'tab', 'Template Bundles');
      await admin.waitForSelector(`[data-testid="bundle-card"]`);
      await waitForText(admin, BUNDLE);
      await press(admin, `Add teams ${BUNDLE}`);
      await findByRole(admin, 'dialog', `Add teams to “${BUNDLE}”`);
      await (await findByRole(admin, 'searchbox', 'Search teams')).type('zzz-nobody');
      await waitForText(admin, 'No any result.');
      await snap(admin, 'e2e-templates-3-no-team');
      const search = await findByRole(admin, 'searchbox', 'Search teams');
      await search.click({ count: 3 });
      await search.type('Demo');
      await (await findByRole(admin, 'checkbox', 'Demo Team')).click();
      await snap(admin, 'e2e-templates-4-team-checked');
      await press(admin, 'Save Teams');
      await waitForText(admin, 'The teams were saved.');
      await admin.waitForFunction(
        (name) =>
          Array.from(document.querySelectorAll('[data-testid="bundle-card"]')).some(
            (card) =>
              card.textContent?.includes(name) &&
              card.querySelector('[data-testid="bundle-teams"]')?.textContent === '1 team',
          ),
        {},
        BUNDLE,
      );
      await snap(admin, 'e2e-templates-5-bundles');

      // The bundle edit page: a picture card per template, with Delete.
      await press(admin, `Edit ${BUNDLE}`, 'link');
      await admin.waitForFunction(() => /^\/template-bundle\/.+\/edit$/.test(location.pathname));
      await findByRole(admin, 'button', `Delete ${TITLE} from the bundle`);
      await waitForPreviews(admin);
      await snap(admin, 'e2e-templates-5b-bundle-edit');

      // The demo user: the template on the dashboard, and the Bonus tab in the editor.
      const demo = await pageAs(browser(), 'demo@example.com');
      await demo.goto(`${base}/dashboard?view=templates`, { waitUntil: 'domcontentloaded' });
      await findByRole(demo, 'button', `Use this template ${TITLE}`);
      expect(await demo.$(byRole('tab', 'Template Bundles'))).toBeNull();
      await waitForPreviews(demo);
      await snap(demo, 'e2e-templates-6-demo-dashboard');
      // The team's private bundle view lists the bundle with its template.
      await press(demo, 'Bonus Templates', 'tab');
      await findByRole(demo, 'region', BUNDLE);
      await findByRole(demo, 'button', `Use this template ${TITLE}`);
      await waitForPreviews(demo);
      await snap(demo, 'e2e-templates-6b-demo-bonus-dashboard');
      // A template link opened in the browser (an onboarding or marketing link) asks first,
      // then opens the copy in the editor (docs/adr/0019-design-api-shapes.md "Design API shapes").
      await demo.goto(`${base}/pic-snippet/${design.id}/createFromTemplate`, {
        waitUntil: 'domcontentloaded',
      });
      await findByRole(demo, 'heading', 'Make a design from this template');
      await snap(demo, 'e2e-templates-6c-template-link');
      await press(demo, 'Create my design');
      await demo.waitForFunction(
        (template) =>
          /^\/pic-snippet\/design-[^/]+\/edit$/.test(location.pathname) &&
          !location.pathname.includes(template),
        { timeout: TIMEOUT_MS },
        design.id,
      );
      await expect
        .poll(
          async () =>
            demo.$eval(byRole('textbox', 'Design title'), (el) => (el as HTMLInputElement).value),
          POLL,
        )
        .toBe(TITLE);

      await demo.goto(`${base}/pic-snippet/design-demo-welcome/edit`, {
        waitUntil: 'domcontentloaded',
      });
      await press(demo, 'Templates');
      await press(demo, 'Bonus', 'tab');
      await waitForText(demo, BUNDLE);
      await snap(demo, 'e2e-templates-7-bonus-tab');
      await (await findByRole(demo, 'button', `Use the template ${TITLE}`)).click();
      await findByRole(demo, 'alertdialog', 'Start a new PicSnippet from this template?');
      await press(demo, 'Use this template');
      await demo.waitForFunction(
        (old) =>
          /^\/pic-snippet\/design-[^/]+\/edit$/.test(location.pathname) &&
          !location.pathname.includes(old),
        { timeout: TIMEOUT_MS },
        'design-demo-welcome',
      );
      await findByRole(demo, 'textbox', 'Design title');
      await expect
        .poll(
          () =>
            demo.$eval(byRole('textbox', 'Design title'), (el) => (el as HTMLInputElement).value),
          POLL,
        )
        .toBe(TITLE);
      await snap(demo, 'e2e-templates-8-demo-editor');

      // In the design made from the template: a sticker from a pack, a favourite added from the
      // Favorites tab, and an uploaded photo used as the design's photo (docs/decisions.md).
      const madeId = decodeURIComponent(
        await demo.evaluate(() => location.pathname.split('/')[2]!),
      );
      const demoApi = await signedIn(base, 'demo@example.com');
      const made = async () =>
        (await demoApi.request('GET', `/api/pic-snippet/${encodeURIComponent(madeId)}`)).json as {
          image_id: string;
          graphics_data: unknown[];
        };
      const templateImage = (await made()).image_id;
      await press(demo, 'Stickers');
      const pack = await demo.waitForSelector('.library__pick[aria-label^="Open the "]');
      await pack!.click();
      await findByRole(demo, 'button', 'Back');
      // The test picks the pack's first sticker and favourites its third: wait for them. The
      // third, not the second: test/e2e/editor-image.test.ts toggles the demo user's favourite
      // of the second, maybe at the same time in the other worker.
      await demo.waitForFunction(
        () => document.querySelectorAll('.library__item .library__pick--sticker').length >= 3,
      );
      const tiles = await demo.$$('.library__item');
      await (await tiles[0]!.$('.library__pick'))!.click();
      await demo.waitForSelector('[data-testid="sticker-tools"]');
      const favourite = (await tiles[2]!.$eval('.library__pick', (b) =>
        b.getAttribute('aria-label'),
      ))!.replace(/^Add /, '');
      await press(demo, `Favourite ${favourite}`);
      await demo.waitForSelector(
        `.library__star[aria-label="Favourite ${favourite}"][aria-pressed="true"]`,
      );
      await press(demo, 'Favorites', 'tab');
      await press(demo, `Add ${favourite}`);
      await press(demo, 'Images');
      await press(demo, 'My Uploads', 'tab');
      const file = (await demo.waitForSelector(
        '.library__upload input[type="file"]',
      )) as ElementHandle<HTMLInputElement>;
      await file.uploadFile('infra/seed/photos/kite.jpg');
      const uploaded = await demo.waitForSelector('.library__pick[aria-label^="Use kite"]', {
        timeout: 60_000,
      });
      await uploaded!.click();
      await demo.waitForSelector('.library__pick[aria-label^="Use kite"][aria-pressed="true"]');
      await expect
        .poll(
          async () => {
            const now = await made();
            return { stickers: now.graphics_data.length, newPhoto: now.image_id !== templateImage };
          },
          { timeout: TIMEOUT_MS, interval: 500 },
        )
        .toEqual({ stickers: 2, newPhoto: true });
      await snap(demo, 'e2e-templates-8b-demo-sticker-and-photo');

      // The admin deactivates another template, then deletes it after the confirmation.
      const other = await createDesign(adminApi, { title: OTHER });
      const saved = await adminApi.request('POST', '/admin/template/save', {
        picSnippetId: other.id,
        imageTags: ['flyer'],
      });
      expect(saved.status).toBe(200);
      await admin.goto(`${base}/dashboard?view=templates`, { waitUntil: 'domcontentloaded' });
      await press(admin, `Deactivate ${OTHER}`);
      await waitForText(admin, 'The template was deactivated.');
      await press(admin, 'Disabled', 'radio');
      await findByRole(admin, 'button', `Activate ${OTHER}`);
      await press(admin, `Delete ${OTHER}`);
      await findByRole(admin, 'alertdialog', 'Delete Template ?');
      await snap(admin, 'e2e-templates-9-delete-confirm');
      await press(admin, 'Delete');
      await waitForText(admin, 'The template was deleted.');
      await waitForText(admin, 'No disabled templates');
      await snap(admin, 'e2e-templates-10-deleted');

      // Deleting the template open in the editor, from the panel's settings menu, leads to
      // /image (docs/templates.md "Model").
      await admin.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'domcontentloaded' });
      // The editor's chunk and fonts load slowly on a busy machine.
      await admin.waitForSelector(byRole('textbox', 'Design title'), { timeout: 60_000 });
      await press(admin, 'Templates');
      await press(admin, `Settings of ${TITLE}`);
      await snap(admin, 'e2e-templates-11-settings-menu');
      await press(admin, 'Delete');
      await findByRole(admin, 'alertdialog', 'Delete Template ?');
      await press(admin, 'Delete');
      await admin.waitForFunction(() => location.pathname === '/image', { timeout: TIMEOUT_MS });
      await waitForText(admin, 'The template was deleted');
      await snap(admin, 'e2e-templates-12-image-page');
    },
  );

  it(
    'admin removes the open design from its bundle in the Bonus tab: the save modal starts over',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      // An admin with a team of this file's own: the Bonus tab lists that team's bundles only,
      // whatever other files assign to the seeded admin's team meanwhile.
      const email = uniqueEmail('bundle-admin');
      const adminApi = await ownAdmin(base, email);
      const teamId = await currentTeamId(adminApi);
      const title = 'Winter card';
      const bundleName = 'E2E own bundle';
      const design = await createDesign(adminApi, { title });
      const saved = await adminApi.request('POST', '/admin/template/save', {
        picSnippetId: design.id,
        imageTags: ['winter', 'card'],
        templateBundles: [{ name: bundleName }],
      });
      const bundleId = (saved.json.bundles as Array<{ id: string; name: string }>).find(
        (b) => b.name === bundleName,
      )!.id;
      const assigned = await adminApi.request('POST', '/admin/templateBundle/assignTeams', {
        bundleId,
        teamIds: [teamId],
      });
      expect(assigned.status).toBe(200);

      const admin = await pageAs(browser(), email, OWN_TEAM_PASSWORD);
      await admin.goto(`${base}/pic-snippet/${design.id}/edit`, { waitUntil: 'domcontentloaded' });
      await admin.waitForSelector(byRole('textbox', 'Design title'), { timeout: 60_000 });
      // A template already: the modal reads "Update tags" with its tags.
      await press(admin, 'Save as template');
      await findByRole(admin, 'dialog', 'Update tags');
      await press(admin, 'Cancel');

      await press(admin, 'Templates');
      await press(admin, 'Bonus', 'tab');
      await findByRole(admin, 'region', bundleName);
      await press(admin, `Settings of ${title}`);
      await press(admin, 'Remove from bundle');
      await findByRole(admin, 'alertdialog', 'Are you sure?');
      await waitForText(admin, 'It is the design open here');
      await snap(admin, 'e2e-templates-13-remove-open-design');
      await press(admin, 'Remove');
      await waitForText(admin, 'The template was removed from the bundle.');
      // Its only bundle is empty now: the Bonus tab goes.
      await admin.waitForFunction(
        () =>
          !Array.from(document.querySelectorAll('[role="tab"]')).some(
            (t) => t.textContent === 'Bonus',
          ),
      );

      // docs/templates.md "Model": status "save", tags emptied, bundle cleared.
      await press(admin, 'Save as template');
      await findByRole(admin, 'dialog', 'Create a template');
      await findByRole(admin, 'button', 'Continue');
      const checked = await admin.$$eval(
        'dialog[open] input[type="checkbox"]',
        (boxes) => boxes.filter((b) => (b as HTMLInputElement).checked).length,
      );
      expect(checked).toBe(0);
      expect(await admin.$$('dialog[open] [data-testid="tag-chip"]')).toHaveLength(0);
      await snap(admin, 'e2e-templates-14-save-modal-again');
      const reread = await adminApi.request('GET', `/api/pic-snippet/${design.id}`);
      expect(reread.json).toMatchObject({ isTemplate: false, image_tags: [] });
    },
  );
});
