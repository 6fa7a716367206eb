/// <reference lib="dom" />
/**
 * Accessible queries for e2e tests: find controls the way a user (or a screen reader) does, by
 * role and accessible name, through Puppeteer's ARIA selectors (`::-p-aria(...)`). Every helper
 * waits up to `TIMEOUT_MS` for its element.
 */
import type { ElementHandle, Page } from 'puppeteer-core';

/** How long a helper waits for what it looks for, in ms. */
export const TIMEOUT_MS = 20_000;

/**
 * Options for `expect.poll` on what settles after an action (focus moved in a timer or effect,
 * a list reloaded, a value set from an answer): the suite's wait, checked every 100 ms.
 */
export const POLL = { timeout: TIMEOUT_MS, interval: 100 };

/** The ARIA selector for the element of `role` whose accessible name is exactly `name`. */
export const byRole = (role: string, name: string): string =>
  `::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`;

/** Waits for the element of `role` named `name` and returns it. */
export async function findByRole(
  page: Page,
  role: string,
  name: string,
): Promise<ElementHandle<Element>> {
  const element = await page.waitForSelector(byRole(role, name), { timeout: TIMEOUT_MS });
  if (!element) throw new Error(`no ${role} named "${name}"`);
  return element;
}

/** Clicks the button (or other `role`) named `name`. */
export async function press(page: Page, name: string, role = 'button'): Promise<void> {
  await page.locator(byRole(role, name)).setTimeout(TIMEOUT_MS).click();
}

/**
 * Replaces the value of the text field labelled `label` with `value`, typing it once, and checks
 * that the field kept it: a form that drops typed input (a reset by a late answer, a field
 * replaced while typed into) fails here rather than being typed into again
 * (docs/adr/0039-forms-keep-what-is-typed-while-a-page-settles.md "Forms keep what is typed while a
 * page settles").
 * @throws Error naming the field, what was typed and what it holds.
 */
export async function fillField(page: Page, label: string, value: string): Promise<void> {
  await page.locator(byRole('textbox', label)).setTimeout(TIMEOUT_MS).fill(value);
  const kept = await page
    .$eval(byRole('textbox', label), (el) => ('value' in el ? String(el.value) : null))
    .catch(() => null); // gone after typing (the page moved on): nothing left to check
  if (kept !== null && kept !== value) {
    throw new Error(
      `the field "${label}" dropped typed input: typed ${JSON.stringify(value)}, holds ${JSON.stringify(kept)}`,
    );
  }
}

/** Waits until the page's visible text contains `text`. */
export async function waitForText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.body.innerText.includes(t),
    { timeout: TIMEOUT_MS },
    text,
  );
}

/** Waits until the page's visible text no longer contains `text`. */
export async function waitForTextGone(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => !document.body.innerText.includes(t),
    { timeout: TIMEOUT_MS },
    text,
  );
}

/**
 * The visible text of the focused element, or '' when focus is on the page's body (lost): for
 * `expect.poll`, as apps move focus after the render that shows an outcome.
 */
export async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    return focused instanceof HTMLElement && focused !== document.body ? focused.innerText : '';
  });
}

/** The visible text of an element. */
export async function textOf(element: ElementHandle<Element>): Promise<string> {
  return element.evaluate((el) => (el as HTMLElement).innerText);
}

/**
 * The visible text of the list named `name` (e.g. by its heading), or '' while there is none:
 * for `expect.poll`, as lists reload after the action that changed them.
 */
export async function listText(page: Page, name: string): Promise<string> {
  const list = await page.$(byRole('list', name));
  return list ? textOf(list) : '';
}

/**
 * The texts that describe the form control labelled `label` (its `aria-describedby`: hint and
 * errors), joined by spaces: what a screen reader reads after the label.
 */
export async function descriptionOf(page: Page, role: string, label: string): Promise<string> {
  const element = await findByRole(page, role, label);
  return element.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** Signs in through the SPA's /login page and waits for the dashboard it lands on. */
export async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/login`, { waitUntil: 'networkidle0' });
  await fillField(page, 'E-mail address', email);
  await fillField(page, 'Password', password);
  await press(page, 'Sign in');
  await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: TIMEOUT_MS });
}

/**
 * Signs in as the seeded platform admin (admin@example.com) and opens the kiosk on `tab`
 * (`announcements`, `users`, `stickers`, …), waiting until the network settles.
 */
export async function openKiosk(page: Page, base: string, tab: string): Promise<void> {
  await signIn(page, base, 'admin@example.com', 'demo-password');
  await page.goto(`${base}/spark/kiosk#/${tab}`, { waitUntil: 'networkidle0' });
}

/** Types `text` into the search box labelled `label`. */
export async function search(page: Page, label: string, text: string): Promise<void> {
  await page.locator(byRole('searchbox', label)).setTimeout(TIMEOUT_MS).fill(text);
}

/** Saves a full-page screenshot as `test-results/{name}.png`. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
}
