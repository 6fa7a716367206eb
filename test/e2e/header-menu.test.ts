/// <reference lib="dom" />
/**
 * The header on a phone-sized screen (375 × 812) through the built SPA in headless Chromium
 * (web/src/styles.css "site-menu"; components/AppShell.tsx): a platform admin's navigation, bell
 * and account corner fold behind "Menu", so the header is one row; the menu opens as a column
 * that fits the screen, and following a link folds it again. At 1280 px there is no "Menu"
 * button and the links sit in the header. The button's state, Esc giving focus back to it and
 * the links offered are in web/src/components/AppShell.test.tsx. Screenshots land in
 * test-results/e2e-header-menu-*.png.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { byRole, findByRole, press, signIn, snap } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** The header's height, px, and whether its content fits the screen's width. */
const header = (page: Page) =>
  page.$eval('.site-header', (el) => ({
    height: el.getBoundingClientRect().height,
    overflows: el.scrollWidth > document.documentElement.clientWidth,
  }));

/** Whether the element matching `selector` takes space on the page. */
const shown = (page: Page, selector: string) =>
  page.$eval(selector, (el) => el.getBoundingClientRect().height > 0).catch(() => false);

describe('the header menu on a narrow screen', () => {
  let context: BrowserContext | undefined;
  afterAll(async () => {
    await context?.close();
  });

  it('folds the navigation behind Menu, opens it as a column that fits, folds it on navigation', async () => {
    context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await signIn(page, stack().url, 'admin@example.com', 'demo-password');
    // Wide: the links are in the header, no Menu button.
    expect(await shown(page, byRole('link', 'Kiosk'))).toBe(true);
    expect(await shown(page, '.site-menu-toggle')).toBe(false);

    await page.setViewport({ width: 375, height: 812 });
    const closed = await header(page);
    expect(closed.overflows).toBe(false);
    // One row: the brand and the Menu button (a row is under 80 px).
    expect(closed.height).toBeLessThan(80);
    expect(await shown(page, byRole('link', 'Kiosk'))).toBe(false);
    await snap(page, 'e2e-header-menu-1-closed');

    const menu = await findByRole(page, 'button', 'Menu');
    await menu.click();
    for (const link of ['Home', 'Dashboard', 'Kiosk'])
      expect(await shown(page, byRole('link', link)), link).toBe(true);
    expect(await shown(page, byRole('button', 'Sign out'))).toBe(true);
    expect((await header(page)).overflows).toBe(false);
    await snap(page, 'e2e-header-menu-2-open');

    // Signed in on the dashboard: going Home is a navigation.
    await press(page, 'Home', 'link');
    await page.waitForFunction(() => location.pathname === '/');
    expect(await shown(page, byRole('link', 'Kiosk'))).toBe(false);
    expect((await header(page)).height).toBeLessThan(80);
  });
});
