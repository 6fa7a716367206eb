/// <reference lib="dom" />
/**
 * A web placement from the export screen through the render URL (docs/export.md "Image
 * formats", "Alt text", "Density"): a new team's owner opens the export screen of a design reading
 * "Hello {{first_name}}!", chooses My website, picks WebP, then AVIF, and generates each time.
 * The HTML's image is the chosen format's URL with its 2× form in `srcset`, its `alt` says what
 * the image says for a visitor without values (the fallback: "Hello there!"), and each URL
 * answers an image of that format. Screenshot: test-results/e2e-export-web-formats.png.
 */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import {
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  OWN_TEAM_PASSWORD,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { byRole, snap } from '../support/aria.ts';
import { generateHtml, openExportScreen, signedInPage } from '../support/export-page.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

it(
  'exports WebP and AVIF images for a web page, with the alt text',
  { timeout: 240_000 },
  async () => {
    const base = stack().url;
    const email = uniqueEmail('web-formats');
    const owner = await ownTeam(base, email);
    const design = await demoDesignCopyIn(await currentTeamId(owner));

    const { page, errors } = await signedInPage(browser(), base, email, OWN_TEAM_PASSWORD);
    await openExportScreen(page, base, design.designId, 'mywebsite');
    for (const [format, type] of [
      ['webp', 'image/webp'],
      ['avif', 'image/avif'],
    ] as const) {
      await page.select(byRole('combobox', 'Image format'), format);
      const html = await generateHtml(page);
      const img = /<img [^>]*>/.exec(html)?.[0] ?? '';
      const attribute = (name: string) =>
        new RegExp(`\\s${name}="([^"]*)"`).exec(img)?.[1]?.replace(/&amp;/g, '&');
      const src = attribute('src');
      expect(src, html).toMatch(new RegExp(`/r/${design.publicId}/v\\d+\\.${format}(\\?|$)`));
      expect(attribute('srcset'), html).toContain(`@2x.${format}`);
      expect(attribute('alt'), html).toBe('Hello there!');
      const res = await fetch(new URL(src!, base));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'e2e-export-web-formats');
    expect(errors).toEqual([]);
    await page.close();
  },
);
