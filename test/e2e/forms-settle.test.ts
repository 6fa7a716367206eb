/// <reference lib="dom" />
/**
 * Nothing a user types is lost while a page settles: each public form (sign-in, registration,
 * forgot and reset password, invitation acceptance) is typed into the moment its field
 * appears, while the session check (`GET /user/current`), the page's script chunks and the
 * invitation lookup are held back by request interception, and the request the form sends must
 * carry what was typed.
 *
 * "The moment its field appears" is a user who clicks into the field as soon as it is drawn: a
 * MutationObserver in the page focuses it in the same task in which it is attached, and the
 * keys are then typed through the browser's input pipeline into whatever has focus. A page that
 * remounts the form, resets its values or moves focus away while it settles loses them. What the
 * forms then show (a refusal, "the link is on its way", the invitation's team) is in the
 * component tests (web/src/features/auth/SignInForm.test.tsx,
 * web/src/pages/PasswordResetPages.test.tsx, web/src/features/registration/AccountStep.test.tsx,
 * PlanStep.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, HTTPRequest, Page } from 'puppeteer-core';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { TestClient } from '../support/client.ts';
import { POLL, TIMEOUT_MS, byRole, press } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

/** How long each kind of request is held back (ms): a slow machine on a slow connection. */
const DELAY_MS = { session: 1_500, chunk: 800, lookup: 2_500 } as const;

/** A page whose slow requests are held back, with the bodies of the calls it sent. */
interface SlowPage {
  page: Page;
  /** Parsed JSON bodies of the page's POST requests, by path, in order. */
  posted: Map<string, unknown[]>;
}

/** The request's hold-back, in ms (0: sent at once). */
function delayOf(request: HTTPRequest): number {
  const { pathname } = new URL(request.url());
  if (pathname === '/user/current') return DELAY_MS.session;
  // The entry script comes with the page; the chunks it loads later are the route's and the
  // shared modules'.
  if (pathname.startsWith('/assets/') && pathname.endsWith('.js') && !/\/index-/.test(pathname))
    return DELAY_MS.chunk;
  if (pathname.startsWith('/invitations/')) return DELAY_MS.lookup;
  return 0;
}

/**
 * Opens a page in `context` whose session check, script chunks and lookups are slowed, and that
 * focuses the field matching `firstField` as soon as it is attached, on every document it loads.
 */
async function openSlowPage(context: BrowserContext, firstField?: string): Promise<SlowPage> {
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const posted = new Map<string, unknown[]>();
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.method() === 'POST') {
      const path = new URL(request.url()).pathname;
      let body: unknown;
      try {
        body = JSON.parse(request.postData() ?? 'null');
      } catch {
        body = request.postData();
      }
      posted.set(path, [...(posted.get(path) ?? []), body]);
    }
    const delay = delayOf(request);
    const go = () => void request.continue().catch(() => undefined);
    if (delay > 0) setTimeout(go, delay);
    else go();
  });
  await page.evaluateOnNewDocument((initial) => {
    const w = window as unknown as {
      claimField: (selector: string) => void;
      fieldClaimed: boolean;
    };
    let wanted: string | undefined;
    // Fields that were there when the claim was made (the page being left) do not count.
    let present = new Set<Element>();
    const observer = new MutationObserver(() => take());
    function take() {
      if (!wanted) return;
      const field = Array.from(document.querySelectorAll<HTMLElement>(wanted)).find(
        (element) => !present.has(element),
      );
      if (!field) return;
      wanted = undefined;
      observer.disconnect();
      field.focus();
      w.fieldClaimed = true;
    }
    w.fieldClaimed = false;
    w.claimField = (selector) => {
      wanted = selector;
      present = new Set(Array.from(document.querySelectorAll(selector)));
      w.fieldClaimed = false;
      observer.observe(document, { childList: true, subtree: true });
      take();
    };
    if (initial) w.claimField(initial);
  }, firstField);
  return { page, posted };
}

/** From now on, the next field matching `selector` to appear takes focus the moment it does. */
async function claimNext(page: Page, selector: string): Promise<void> {
  await page.evaluate(
    (s) => (window as unknown as { claimField: (s: string) => void }).claimField(s),
    selector,
  );
}

/** Waits for the claimed field to appear (and take focus), then types `text` as keys. */
async function typeOnAppearance(page: Page, text: string): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { fieldClaimed: boolean }).fieldClaimed, {
    timeout: TIMEOUT_MS,
    polling: 'mutation',
  });
  await page.keyboard.type(text);
}

/** The last JSON body the page POSTed to `path`, or undefined. */
const lastBody = (posted: Map<string, unknown[]>, path: string): unknown =>
  posted.get(path)?.at(-1);

/** The link matching `pattern` in the newest e-mail to `to` that has one, in the local outbox. */
async function linkSentTo(to: string, pattern: RegExp): Promise<URL> {
  const mails = (await (await fetch(`${stack().url}/__outbox.json`)).json()) as Array<{
    to: string;
    text: string;
  }>;
  const link = mails
    .filter((m) => m.to === to)
    .map((m) => pattern.exec(m.text)?.[0])
    .findLast((found) => found !== undefined);
  expect(link, `a link in the e-mail to ${to}`).toBeDefined();
  return new URL(link!);
}

/** Types into the field labelled `label` (already settled), after what it holds. */
async function typeInto(page: Page, label: string, text: string): Promise<void> {
  const field = await page.waitForSelector(byRole('textbox', label), { timeout: TIMEOUT_MS });
  await field!.click();
  await page.keyboard.type(text);
}

describe('forms keep what is typed while the page settles', () => {
  it('sign-in, opened from the header, sends the address typed as its field appeared', async () => {
    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context);
    await page.goto(`${stack().url}/`, { waitUntil: 'domcontentloaded' });
    // The header offers sign-in once the (slow) session check has answered.
    await page.waitForSelector(byRole('link', 'Sign in'), { timeout: TIMEOUT_MS });
    await claimNext(page, 'input[name="email"]');
    await press(page, 'Sign in', 'link');
    await typeOnAppearance(page, 'demo@example.com');
    await typeInto(page, 'Password', 'demo-password');
    await press(page, 'Sign in');
    await expect
      .poll(() => lastBody(posted, '/login'), POLL)
      .toEqual({ email: 'demo@example.com', password: 'demo-password' });
    await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });
    await context.close();
  });

  it('sign-in, opened directly, keeps keys typed before the session check answers', async () => {
    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context, 'input[name="email"]');
    await page.goto(`${stack().url}/login`, { waitUntil: 'domcontentloaded' });
    await typeOnAppearance(page, 'demo@example.com');
    await typeInto(page, 'Password', 'wrong-password');
    await press(page, 'Sign in');
    await expect
      .poll(() => lastBody(posted, '/login'), POLL)
      .toEqual({ email: 'demo@example.com', password: 'wrong-password' });
    await context.close();
  });

  it('forgot password, opened from sign-in, sends the address typed as its field appeared', async () => {
    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context);
    await page.goto(`${stack().url}/login`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('a[href="/password/reset"]', { timeout: TIMEOUT_MS });
    await claimNext(page, 'input[name="email"]');
    await press(page, 'Forgot your password?', 'link');
    await typeOnAppearance(page, 'admin@example.com');
    await press(page, 'Send the reset link');
    await expect
      .poll(() => lastBody(posted, '/password/email'), POLL)
      .toEqual({ email: 'admin@example.com' });
    await context.close();
  });

  it('shows the page a link opens once the click is handled, so keys go to its form', async () => {
    // The sign-in suite waits for no page change after a click, only for a field named
    // "email", which the sign-in page being left has too. A navigation rendered as a transition
    // kept the sign-in form on screen, taking keys, after the click had been handled.
    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context);
    await page.goto(`${stack().url}/login`, { waitUntil: 'networkidle0' });
    for (let round = 0; round < 3; round++) {
      await page.locator('a[href="/password/reset"]').setTimeout(TIMEOUT_MS).click();
      expect(await page.$eval('main h1', (h) => h.textContent)).toBe('Reset your password');
      await page.goBack();
      await page.waitForSelector('a[href="/password/reset"]', { timeout: TIMEOUT_MS });
    }
    await page.locator('a[href="/password/reset"]').setTimeout(TIMEOUT_MS).click();
    await page.waitForSelector('input[name="email"]', { timeout: TIMEOUT_MS });
    await page.type('input[name="email"]', 'admin@example.com');
    await page.click('button[type="submit"]');
    await expect
      .poll(() => lastBody(posted, '/password/email'), POLL)
      .toEqual({ email: 'admin@example.com' });
    await context.close();
  });

  it('reset password, opened from the e-mailed link, sends the password typed at once', async () => {
    const base = stack().url;
    const api = new TestClient(base);
    const email = 'reset.settle@example.org';
    const password = 'copper-meadow-58';
    expect(
      (
        await api.request('POST', '/register', {
          name: 'Rhea Reset',
          email,
          team: 'Rhea Team',
          password,
          password_confirmation: password,
          terms: true,
          plan: 'free',
        })
      ).status,
    ).toBeLessThan(300);
    expect((await new TestClient(base).request('POST', '/password/email', { email })).status).toBe(
      200,
    );
    const url = await linkSentTo(email, /https?:\/\/\S+\/password\/reset\/\S+/);

    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context, 'input[name="password"]');
    await page.goto(`${base}${url.pathname}${url.search}`, { waitUntil: 'domcontentloaded' });
    await typeOnAppearance(page, 'fresh-juniper-42');
    await typeInto(page, 'Confirm new password', 'fresh-juniper-42');
    await press(page, 'Save the new password');
    await expect
      .poll(() => lastBody(posted, '/password/reset'), POLL)
      .toMatchObject({
        email,
        password: 'fresh-juniper-42',
        password_confirmation: 'fresh-juniper-42',
      });
    await page.waitForFunction(() => location.pathname === '/login', { timeout: TIMEOUT_MS });
    await context.close();
  });

  it('registration, opened from sign-in, sends the name typed as its field appeared', async () => {
    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context);
    await page.goto(`${stack().url}/login`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector(byRole('link', 'Create an account'), { timeout: TIMEOUT_MS });
    await claimNext(page, 'input[name="name"]');
    await press(page, 'Create an account', 'link');
    await typeOnAppearance(page, 'Nell Newcomer');
    await typeInto(page, 'E-mail address', 'nell.settle@example.org');
    await typeInto(page, 'Company name', 'Nell Prints');
    await typeInto(page, 'Password', 'lantern-orchard-73');
    await typeInto(page, 'Confirm password', 'lantern-orchard-73');
    await press(page, 'I accept the terms of service', 'checkbox');
    await press(page, 'Continue');
    await expect
      .poll(() => lastBody(posted, '/if-mail-exists'), POLL)
      .toEqual({ email: 'nell.settle@example.org' });
    await press(page, 'Create account');
    await expect
      .poll(() => lastBody(posted, '/register'), POLL)
      .toMatchObject({
        name: 'Nell Newcomer',
        email: 'nell.settle@example.org',
        team: 'Nell Prints',
      });
    await page.waitForFunction(() => location.pathname === '/confirmation', {
      timeout: TIMEOUT_MS,
    });
    await context.close();
  });

  it('invitation acceptance keeps the name typed before the invitation answers', async () => {
    const base = stack().url;
    const owner = new TestClient(base);
    expect((await owner.login('demo@example.com')).status).toBe(200);
    const me = (await owner.request('GET', '/user/current')).json as { current_team_id: string };
    const invited = 'iris.settle@example.org';
    const sent = await owner.request(
      'POST',
      `/settings/companies/${encodeURIComponent(me.current_team_id)}/invitations`,
      { email: invited },
    );
    expect(sent.status).toBeLessThan(300);
    const url = await linkSentTo(invited, /https?:\/\/\S+\/register\?invitation=[\w-]+/);

    const context = await browser().createBrowserContext();
    const { page, posted } = await openSlowPage(context, 'input[name="name"]');
    await page.goto(`${base}${url.pathname}${url.search}`, { waitUntil: 'domcontentloaded' });
    await typeOnAppearance(page, 'Iris Invitee');
    // The invitation answers later and fills in the address the user has not touched.
    await expect
      .poll(() => page.$eval('input[name="email"]', (el) => (el as HTMLInputElement).value), POLL)
      .toBe(invited);
    expect(await page.$eval('input[name="name"]', (el) => (el as HTMLInputElement).value)).toBe(
      'Iris Invitee',
    );
    await typeInto(page, 'Company name', 'Iris Prints');
    await typeInto(page, 'Password', 'lantern-orchard-73');
    await typeInto(page, 'Confirm password', 'lantern-orchard-73');
    await press(page, 'I accept the terms of service', 'checkbox');
    await press(page, 'Continue');
    await press(page, 'Create account');
    await expect
      .poll(() => lastBody(posted, '/register'), POLL)
      .toMatchObject({
        name: 'Iris Invitee',
        email: invited,
        invitation: url.searchParams.get('invitation'),
      });
    await context.close();
  });
});
