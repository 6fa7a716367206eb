/// <reference lib="dom" />
/**
 * Session expiry keeps the work (docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry
 * keeps the work": "HTTP 401: the client logs out and opens a session-expired modal"): a 401 in the
 * middle of filling a settings form or editing a design opens the modal, the user signs in again in
 * it, and the page goes on with what was typed and the editor's unsaved changes, which are then
 * saved. The session ends as it does when it times out: the browser's session cookie is gone, so
 * the next call is answered
 * 401. The modal's own behaviour (the address filled in, focus on the password, Esc folding it into
 * a bar) is in web/src/components/SessionExpiredModal.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import {
  OWN_TEAM_PASSWORD,
  ownTeam,
  signedIn,
  uniqueEmail,
  useDemoDesignCopy,
} from '../support/designs.ts';
import { DEMO_USER } from '../support/editor-page.ts';
import {
  POLL,
  TIMEOUT_MS,
  fillField,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
  waitForTextGone,
} from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();
/** This file's copy of the seeded demo design: it saves changes to it. */
const welcome = useDemoDesignCopy();

const MODAL_TITLE = 'Your session has expired';

/** Ends the session as a timeout would: the browser no longer has its session cookie. */
async function endSession(context: BrowserContext): Promise<void> {
  const cookies = await context.cookies();
  const session = cookies.filter((c) => c.name === 'picsnippets_session');
  expect(session.length, 'a session cookie to end').toBe(1);
  await context.deleteCookie(...session);
}

/**
 * The value of the page's field named `name` (by CSS: behind an open modal the page is inert,
 * out of the accessibility tree).
 */
const valueOf = (page: Page, name: string) =>
  page.$eval(`main input[name="${name}"]`, (el) => (el as HTMLInputElement).value);

/**
 * Signs in again in the open session-expired modal, whose address is filled in (the modal's
 * fields and focus: web/src/components/SessionExpiredModal.test.tsx).
 */
async function signInAgain(page: Page, secret = DEMO_USER.password): Promise<void> {
  const dialog = await findByRole(page, 'alertdialog', MODAL_TITLE);
  const password = await dialog.waitForSelector('input[name="password"]', { timeout: TIMEOUT_MS });
  await password!.type(secret);
  await press(page, 'Sign in');
  await waitForTextGone(page, MODAL_TITLE);
}

describe('session expiry keeps the work', () => {
  it('keeps a settings form’s values through signing in again from the modal', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const base = stack().url;
    // A user of its own: the name it saves would otherwise rename the seeded Dana Demo for
    // the files after it on the same stack (the kiosk's user search looks for her).
    const email = uniqueEmail('session-expiry');
    await ownTeam(base, email);
    await signIn(page, base, email, OWN_TEAM_PASSWORD);
    await page.goto(`${base}/settings#/profile`, { waitUntil: 'networkidle0' });
    await findByRole(page, 'textbox', 'Name');
    await fillField(page, 'Name', 'Desi Renamed');
    await fillField(page, 'New password', 'half-typed');

    await endSession(context);
    const contact: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/settings/contact')) contact.push(request.postData());
    });
    await press(page, 'Save contact details');
    await findByRole(page, 'alertdialog', MODAL_TITLE);
    await snap(page, 'e2e-session-expired-modal');
    // The page behind is as the user left it.
    expect(await valueOf(page, 'name')).toBe('Desi Renamed');

    await signInAgain(page, OWN_TEAM_PASSWORD);
    expect(page.url()).toBe(`${base}/settings#/profile`);
    expect(await valueOf(page, 'name')).toBe('Desi Renamed');
    expect(await page.$eval('input[name="password"]', (el) => (el as HTMLInputElement).value)).toBe(
      'half-typed',
    );
    await press(page, 'Save contact details');
    await waitForText(page, 'Your contact details were saved.');
    expect(JSON.parse(String(contact.at(-1)))).toMatchObject({ name: 'Desi Renamed' });
    await context.close();
  });

  it('keeps the editor’s unsaved changes and saves them after signing in again', async () => {
    const base = stack().url;
    const api = await signedIn(base, DEMO_USER.email);
    const designId = welcome().designId;
    const snippetCount = async () =>
      ((await api.request('GET', `/api/pic-snippet/${designId}`)).json.text_snippets as unknown[])
        .length;
    const before = await snippetCount();

    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await signIn(page, base, DEMO_USER.email, DEMO_USER.password);
    await page.goto(`${base}/pic-snippet/${designId}/edit`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="editor-canvas"] .canvas-container', {
      timeout: TIMEOUT_MS,
    });
    await endSession(context);
    await press(page, 'Add text snippet');
    await findByRole(page, 'alertdialog', MODAL_TITLE);
    await snap(page, 'e2e-session-expired-editor');
    const saveState = () => page.$eval('[data-testid="save-state"]', (el) => el.textContent ?? '');
    await expect.poll(saveState, POLL).toContain('Not saved');
    expect(await snippetCount()).toBe(before);

    await signInAgain(page);
    expect(page.url()).toBe(`${base}/pic-snippet/${designId}/edit`);
    await expect.poll(saveState, POLL).toMatch(/^✓ ?Saved/);
    expect(await snippetCount()).toBe(before + 1);
    await context.close();
  });
});
