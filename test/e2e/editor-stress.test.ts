/// <reference lib="dom" />
/**
 * The stress preview (docs/editor.md) in the built SPA: the demo user opens the editor of a copy
 * of the demo design (its view counter this file's alone: other files render the seeded one on
 * the same stack), opens "Preview sample values", and sees six pictures drawn by the render
 * service, one per sample; the long sample really draws something else than the empty one (the
 * fallback), and the previews do not count as views of the design. Screenshot:
 * test-results/e2e-editor-stress.png.
 */
import { describe, expect, it } from 'vitest';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { findByRole, press, signIn, snap } from '../support/aria.ts';
import { signedIn, useDemoDesignCopy } from '../support/designs.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const demoCopy = useDemoDesignCopy();

describe('stress preview', () => {
  it('shows the design drawn with each sample value', { timeout: 180_000 }, async () => {
    const base = stack().url;
    const api = await signedIn(base, 'demo@example.com');
    const { designId, publicId } = demoCopy();
    const views = async () =>
      Number((await api.request('GET', `/api/pic-snippet/${designId}`)).json.counter ?? 0);
    const before = await views();

    const page = await browser().newPage();
    await page.setViewport({ width: 1440, height: 1000 });
    await signIn(page, base, 'demo@example.com', 'demo-password');
    await page.goto(`${base}/pic-snippet/${designId}/edit`, { waitUntil: 'networkidle0' });
    await press(page, 'Preview sample values');
    await findByRole(page, 'dialog', 'Preview with sample values');
    await page.waitForFunction(
      () => {
        const images = Array.from(
          document.querySelectorAll<HTMLImageElement>('.stress-sample__image'),
        );
        return images.length === 6 && images.every((i) => i.complete && i.naturalWidth > 0);
      },
      { timeout: 60_000 },
    );
    const samples = await page.$$eval('.stress-sample', (figures) =>
      figures.map((f) => ({
        caption: f.querySelector('figcaption strong')?.textContent ?? '',
        src: f.querySelector('img')!.getAttribute('src')!,
      })),
    );
    expect(samples.map((s) => s.caption)).toEqual([
      'Empty',
      '255 characters',
      'Emoji',
      'Arabic',
      'Hebrew',
      'Chinese',
    ]);
    for (const s of samples)
      expect(s.src).toMatch(new RegExp(`^/r/${publicId}/v\\d+\\?first_name=.*&__preview=1$`));
    await snap(page, 'e2e-editor-stress');

    // The long value draws another picture than the fallback.
    const empty = await fetchImage(`${base}${samples[0]!.src}`);
    const long = await fetchImage(`${base}${samples[1]!.src}`);
    expect(
      meanDifference(empty.pixels, long.pixels, empty.width, {
        left: 0,
        top: 0,
        width: empty.width,
        height: empty.height,
      }),
    ).toBeGreaterThan(2);
    // Previews are not views.
    expect(await views()).toBe(before);
    await page.close();
  });
});
