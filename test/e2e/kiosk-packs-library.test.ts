/// <reference lib="dom" />
/**
 * The kiosk's Sticker packs and Image library tabs through the built SPA in headless Chromium
 * (docs/kiosk.md "Sticker packs": "Kiosk (packs)", docs/accounts.md "Error answers in the SPA" pack
 * messages; docs/kiosk.md "Sticker packs", "The global image library"): an admin searches the
 * packs, removes one and restores it, seeing the spec's messages come and go (cleared after 2 s),
 * then edits a library photo's tags, which a reload shows kept. Screenshots land in
 * test-results/e2e-kiosk-*.png.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  POLL,
  fillField,
  findByRole,
  listText,
  press,
  snap,
  waitForText,
  waitForTextGone,
  openKiosk,
  search,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** The value of the text field labelled `label`. */
async function valueOf(page: Page, label: string): Promise<string> {
  const field = await findByRole(page, 'textbox', label);
  return field.evaluate((el) => (el as HTMLInputElement).value);
}

// One admin's visit in steps that build on each other (vitest runs them in order).
describe('the kiosk: sticker packs and the image library', () => {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const admin = (): Page => {
    if (!page) throw new Error('no page: an earlier step failed');
    return page;
  };
  afterAll(async () => {
    await context?.close();
  });

  it('lists the packs and searches them', async () => {
    context = await browser().createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await openKiosk(page, stack().url, 'stickers');
    await expect.poll(() => listText(admin(), 'Sticker packs'), POLL).toContain('Celebration');
    expect(await listText(admin(), 'Sticker packs')).toContain('Arrows & Badges');
    await snap(admin(), 'e2e-kiosk-1-packs');

    await search(admin(), 'Search packs', 'drink');
    await expect.poll(() => listText(admin(), 'Sticker packs'), POLL).not.toContain('Celebration');
    expect(await listText(admin(), 'Sticker packs')).toContain('Food & Drink');
  });

  it('removes and restores a pack, showing each message until it clears', async () => {
    await press(admin(), 'Remove Food & Drink');
    await waitForText(admin(), 'The pack was successfully deleted.');
    await expect.poll(() => listText(admin(), 'Sticker packs'), POLL).toContain('Removed');
    await snap(admin(), 'e2e-kiosk-2-pack-removed');
    await waitForTextGone(admin(), 'The pack was successfully deleted.');

    await press(admin(), 'Restore Food & Drink');
    await waitForText(admin(), 'The pack was successfully restored.');
    await expect.poll(() => listText(admin(), 'Sticker packs'), POLL).not.toContain('Removed');
    await waitForTextGone(admin(), 'The pack was successfully restored.');
  });

  it('edits the tags of a library photo, kept after a reload', async () => {
    await press(admin(), 'Image library', 'tab');
    await admin().waitForFunction(() => location.hash === '#/library');
    await expect.poll(() => listText(admin(), 'Global image library'), POLL).toContain('Kite');
    await snap(admin(), 'e2e-kiosk-3-library');

    await fillField(admin(), 'Tags of Kite (optional)', 'Sky, summer,  SKY ');
    await press(admin(), 'Save tags of Kite');
    await waitForText(admin(), 'The tags were saved.');
    await expect.poll(() => valueOf(admin(), 'Tags of Kite (optional)'), POLL).toBe('sky, summer');

    await search(admin(), 'Search by title or tag', 'summer');
    await expect
      .poll(() => listText(admin(), 'Global image library'), POLL)
      .not.toContain('Autumn');
    expect(await listText(admin(), 'Global image library')).toContain('Kite');

    await admin().reload({ waitUntil: 'networkidle0' });
    await expect.poll(() => valueOf(admin(), 'Tags of Kite (optional)'), POLL).toBe('sky, summer');
    await snap(admin(), 'e2e-kiosk-4-library-tags');
  });
});
