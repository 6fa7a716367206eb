/// <reference lib="dom" />
/**
 * Signed render URLs through the built SPA in headless Chromium (docs/developer-api.md "Signed
 * render URLs"): the company settings' Developer tab makes the signing secret (shown once), and
 * the export screen's "Require signed URLs" turns the requirement on, after which an unsigned
 * render URL answers the fallback and Generate gives a names-form signed URL. Screenshots land in
 * test-results/e2e-signed-urls-*.png.
 */
import { describe, expect, it } from 'vitest';
import { signRenderPath } from '#functions/render/signature.ts';
import { TestClient } from '../support/client.ts';
import { createDesign } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { POLL, findByRole, press, signIn, snap, waitForText } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

/** Why the render answered the fallback, or null when it drew the URL. */
async function renderReason(url: string): Promise<string | null> {
  const res = await fetch(url.startsWith('http') ? url : `${stack().url}${url}`);
  await res.arrayBuffer();
  return res.headers.get('x-render-reason');
}

describe('signed render URLs', () => {
  it('makes the secret in the Developer tab and requires signatures on the export screen', async () => {
    const api = new TestClient(stack().url);
    expect((await api.login('demo@example.com')).status).toBe(200);
    const teamId = (await api.request('GET', '/settings/companies/current')).json.id as string;
    const design = await createDesign(api, { title: 'Signed only' });

    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signIn(page, stack().url, 'demo@example.com', 'demo-password');
    await page.goto(`${stack().url}/settings/companies/${teamId}#/developer`, {
      waitUntil: 'networkidle0',
    });
    await findByRole(page, 'tab', 'Developer');
    await waitForText(page, 'This company has no signing secret yet.');
    await press(page, 'Create signing secret');
    await waitForText(page, 'Signing secret made');
    const secret = await (
      await findByRole(page, 'textbox', 'New signing secret')
    ).evaluate((el) => (el as HTMLInputElement).value);
    expect(secret).toMatch(/^pss_[\w-]{43}$/);
    await snap(page, 'e2e-signed-urls-1-secret');
    await press(page, 'I have stored it');
    await waitForText(page, 'This company has a signing secret, made');
    expect(await page.content()).not.toContain(secret);
    await findByRole(page, 'combobox', 'Keep the current secret working for');
    await snap(page, 'e2e-signed-urls-2-rotate');

    await page.goto(`${stack().url}/pic-snippet/${design.id}/export`, {
      waitUntil: 'networkidle0',
    });
    // The screen opens with its introduction to custom data.
    await press(page, 'Got it');
    const box = await findByRole(page, 'checkbox', 'Require signed URLs');
    expect(await box.evaluate((el) => (el as HTMLInputElement).checked)).toBe(false);
    await box.click();
    await waitForText(page, 'Saved: only signed URLs draw this design.');
    await box.scrollIntoView();
    await snap(page, 'e2e-signed-urls-3-required');

    // Unsigned: the fallback; signed with the secret the page showed: drawn.
    await expect
      .poll(() => renderReason(`/r/${design.public_id}?first_name=Ana`), POLL)
      .toBe('signature-missing');
    const signed = signRenderPath(secret, 'values', `/r/${design.public_id}`, [
      { name: 'first_name', value: 'Ana' },
    ]);
    expect(await renderReason(signed)).toBeNull();

    // Generate signs the URL's names: the URL it gives draws, one with a parameter added does not.
    await press(page, 'Generate');
    const link = await (await page.waitForSelector('[data-testid="export-link"]'))!.evaluate(
      (el) => (el as HTMLInputElement).value,
    );
    expect(link).toMatch(/\?__sf=names&__sig=[\w-]{43}(?:&|$)/);
    await snap(page, 'e2e-signed-urls-4-generated');
    expect(await renderReason(link)).toBeNull();
    expect(await renderReason(`${link}&first_name=Eve`)).toBe('signature-invalid');
    await context.close();
  });
});
