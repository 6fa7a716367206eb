/// <reference lib="dom" />
/**
 * Sign-in through the built SPA in headless Chromium (docs/adr/0009-sessions-and-csrf.md "Sessions
 * and CSRF"): the password signs in with a session the API knows, and Sign out ends it; the second
 * factor, the password reset through the e-mailed link, and the session kept alive. What the forms
 * show on their own (labels, field errors, busy states, the "Password changed" notice) is in the
 * component tests (web/src/features/auth/SignInForm.test.tsx,
 * web/src/pages/PasswordResetPages.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { POLL, TIMEOUT_MS, signIn } from '../support/aria.ts';
import { advancePageClock, fakePageClock, pageIntervals } from '../support/page-clock.ts';

const stack = useLocalStack({ web: 'preview', warmChromium: false });
const browser = useTestBrowser();

describe('sign-in page', () => {
  it('signs in with a session the API knows, and Sign out ends it', async () => {
    const page = await browser().newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${stack().url}/login`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('input[name="email"]', { timeout: TIMEOUT_MS });
    await page.type('input[name="email"]', 'demo@example.com');
    await page.type('input[name="password"]', 'demo-password');
    await page.screenshot({ path: 'test-results/e2e-sign-in.png' });
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });
    const me = await page.evaluate(async () => {
      const res = await fetch('/user/current', {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
      return { status: res.status, body: (await res.json()) as { email?: string } };
    });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('demo@example.com');
    const cookies = await browser().defaultBrowserContext().cookies();
    const session = cookies.find((c) => c.name === 'picsnippets_session');
    expect(session?.httpOnly).toBe(true);

    // Sign out: POST /logout with the CSRF headers (a GET is refused), then home, signed out.
    const logout = page.waitForResponse((r) => new URL(r.url()).pathname === '/logout');
    await page.click('[data-testid="session-nav"] button');
    const answer = await logout;
    expect([answer.request().method(), answer.status()]).toEqual(['POST', 200]);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="session-nav"]')?.textContent?.includes('Sign in'),
      { timeout: TIMEOUT_MS },
    );
    const after = await page.evaluate(async () => {
      const res = await fetch('/user/current', {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
      });
      return res.status;
    });
    expect(after).toBe(401);
    await page.close();
  });

  it('asks for the authentication code when two-factor authentication is on', async () => {
    // Set up an account with two-factor on, through the API.
    const { TestClient } = await import('../support/client.ts');
    const { generate } = await import('otplib');
    const api = new TestClient(stack().url);
    const password = 'copper-meadow-58';
    await api.request('POST', '/register', {
      name: 'Tove Twofactor',
      email: 'tove@example.org',
      team: 'Tove Team',
      password,
      password_confirmation: password,
      terms: true,
      plan: 'free',
    });
    const secret = (await api.request('POST', '/settings/two-factor-auth', {})).json
      .secret as string;
    const earlier = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
    expect((await api.request('POST', '/settings/two-factor-auth', { code: earlier })).status).toBe(
      200,
    );

    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${stack().url}/login`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('input[name="email"]', { timeout: TIMEOUT_MS });
    await page.type('input[name="email"]', 'tove@example.org');
    await page.type('input[name="password"]', password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('input[name="code"]', { timeout: TIMEOUT_MS });
    await page.screenshot({ path: 'test-results/e2e-sign-in-code.png' });
    await page.type('input[name="code"]', await generate({ secret }));
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });
    await context.close();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const base = stack().url;
    // An account of this file's own: the seeded logins are shared with the files after this one.
    const email = uniqueEmail('forgetful');
    await ownTeam(base, email);
    await page.goto(`${base}/login`, { waitUntil: 'networkidle0' });
    await page.locator('a[href="/password/reset"]').setTimeout(TIMEOUT_MS).click();
    await page.waitForSelector('input[name="email"]', { timeout: TIMEOUT_MS });
    await page.type('input[name="email"]', email);
    await page.click('button[type="submit"]');
    await page.waitForFunction(
      () => document.body.innerText.includes('we have e-mailed a password reset link'),
      { timeout: TIMEOUT_MS },
    );
    await page.screenshot({ path: 'test-results/e2e-password-forgot.png' });

    const mails = (await (await fetch(`${base}/__outbox.json`)).json()) as Array<{
      to: string;
      text: string;
    }>;
    const mail = mails.find((m) => m.to === email && m.text.includes('/password/reset/'));
    const link = /https?:\/\/\S+\/password\/reset\/\S+/.exec(mail?.text ?? '')?.[0];
    expect(link, 'reset link in the outbox').toBeDefined();
    // The e-mail carries the public URL; open the same path on this stack.
    const url = new URL(link!);
    await page.goto(`${base}${url.pathname}${url.search}`, { waitUntil: 'networkidle0' });
    await expect
      .poll(() => page.$eval('input[name="email"]', (el) => (el as HTMLInputElement).value), POLL)
      .toBe(email);

    await page.type('input[name="password"]', 'fresh-juniper-42');
    await page.type('input[name="password_confirmation"]', 'fresh-juniper-42');
    await page.screenshot({ path: 'test-results/e2e-password-reset.png' });
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/login', { timeout: TIMEOUT_MS });
    await page.waitForSelector('input[name="email"]', { timeout: TIMEOUT_MS });
    await page.type('input[name="email"]', email);
    await page.type('input[name="password"]', 'fresh-juniper-42');
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });

    // The link works once.
    const again = await fetch(`${base}/password/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({
        token: url.pathname.split('/').pop(),
        email: email,
        password: 'other-juniper-99',
        password_confirmation: 'other-juniper-99',
      }),
    });
    expect(again.status).not.toBe(200);
    await context.close();
  });

  it('keeps a signed-in session alive with PUT /spark/token once 240 s have passed', async () => {
    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    // The page's clock stands still until the test moves it; its check every 5 s runs as the
    // clock passes each 5 s (docs/security.md "Sessions and tokens"), so 240 s take no waiting.
    await fakePageClock(page);
    // The page's calls of /spark/token: the check calls fetch at once, so a call is listed here
    // as soon as the clock has passed the check that made it (the network's events come later).
    await page.evaluateOnNewDocument(() => {
      const w = window as unknown as { refreshCalls: string[] };
      w.refreshCalls = [];
      const realFetch = window.fetch.bind(window);
      window.fetch = (input, init) => {
        if (String(input).endsWith('/spark/token')) w.refreshCalls.push(init?.method ?? 'GET');
        return realFetch(input, init);
      };
    });
    const refreshCalls = () =>
      page.evaluate(() => (window as unknown as { refreshCalls: string[] }).refreshCalls);
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/spark/token')) refreshes.push(request.method());
    });
    const base = stack().url;
    await signIn(page, base, 'demo@example.com', 'demo-password');
    // Signed in: the 5 s check is set (beside the bell's poll of the notifications).
    await expect.poll(() => pageIntervals(page), POLL).toContain(5_000);

    // 47 checks, up to 235 s: no refresh yet.
    await advancePageClock(page, 235_000);
    expect(await refreshCalls()).toEqual([]);
    // The check at 240 s refreshes, once.
    const answered = page.waitForResponse((r) => r.url().endsWith('/spark/token'), {
      timeout: TIMEOUT_MS,
    });
    await advancePageClock(page, 5_000);
    expect(await refreshCalls()).toEqual(['PUT']);
    const response = await answered;
    expect(response.request().method()).toBe('PUT');
    expect(response.status()).toBe(200);
    expect(refreshes).toEqual(['PUT']);
    await context.close();
  });
});
