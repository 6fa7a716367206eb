/// <reference lib="dom" />
/**
 * A poll from the editor to a vote (docs/polls.md "In the e-mail", "Voting"): the poll is added
 * from the Stickers panel and set up in its panel (question, answers), the export screen writes
 * one answer link per option, and a recipient's link opens the one-click confirm page, which
 * counts the vote on its button and shows the results. Screenshots: test-results/e2e-poll-journey-*.png.
 */
import { describe, expect, it } from 'vitest';
import {
  TIMEOUT_MS,
  byRole,
  findByRole,
  press,
  signIn,
  snap,
  waitForText,
} from '../support/aria.ts';
import { useTestBrowser } from '../support/browser.ts';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { waitForSaved } from '../support/editor-page.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();
const PASSWORD = 'design-walnut-27';

describe('a poll from the editor to a vote', () => {
  it(
    'is built in the editor, exported with its answer links, and voted on',
    { timeout: 300_000 },
    async () => {
      const base = stack().url;
      const email = uniqueEmail('poll-journey');
      const owner = await ownTeam(base, email);
      const design = await demoDesignCopyIn(await currentTeamId(owner));
      const page = await browser().newPage();
      await page.setViewport({ width: 1366, height: 1000 });
      page.setDefaultTimeout(TIMEOUT_MS);
      page.setDefaultNavigationTimeout(90_000);
      await signIn(page, base, email, PASSWORD);
      await page.goto(`${base}/pic-snippet/${design.designId}/edit`, { waitUntil: 'networkidle0' });

      await press(page, 'Stickers');
      const add = await page.waitForSelector('button[aria-label^="Add Poll"]');
      await add!.click();
      await page.locator(byRole('textbox', 'Question')).fill('Tea or coffee?');
      await page.locator(byRole('textbox', 'Answer 1')).fill('Tea');
      await page.locator(byRole('textbox', 'Answer 2')).fill('Coffee');
      await waitForSaved(page);
      await snap(page, 'e2e-poll-journey-1-editor');
      const saved = (await owner.request('GET', `/api/pic-snippet/${design.designId}`)).json;
      const poll = (saved.graphics_data as Array<Record<string, unknown>>).find((s) => s.poll)!;
      expect(poll.poll).toMatchObject({ question: 'Tea or coffee?' });

      await page.goto(`${base}/pic-snippet/${design.designId}/export`, {
        waitUntil: 'networkidle0',
      });
      await findByRole(page, 'dialog', 'Custom data for each recipient');
      await press(page, 'Got it');
      await findByRole(page, 'combobox', 'Platform');
      await page.select(byRole('combobox', 'Platform'), 'klaviyo');
      await waitForText(page, '✓ platform saved');
      await page.waitForFunction(
        (sel) => document.querySelector(sel)?.getAttribute('aria-disabled') !== 'true',
        { timeout: 60_000 },
        'button[aria-describedby$="-generate-hint"]',
      );
      await press(page, 'Generate');
      const html = await (await page.waitForSelector('[data-testid="export-html"]'))!.evaluate(
        (el) => (el as HTMLTextAreaElement).value,
      );
      await snap(page, 'e2e-poll-journey-2-export');
      const hrefs = [...html.matchAll(/<a href="([^"]*__vote=\d)"[^>]*>([^<]*)<\/a>/g)].map(
        (m) => ({ href: m[1]!.replaceAll('&amp;', '&'), label: m[2] }),
      );
      expect(hrefs.map((h) => h.label)).toEqual(['Tea', 'Coffee']);
      // The platform fills the tag in; here Ana is the recipient.
      const coffee = hrefs[1]!.href.replace(/first_name=[^&]*/, 'first_name=Ana');
      expect(hrefs[1]!.href).toContain('&__vote=1');

      const reader = await browser().createBrowserContext();
      const recipient = await reader.newPage();
      await recipient.setViewport({ width: 480, height: 800 });
      await recipient.goto(coffee, { waitUntil: 'networkidle0' });
      expect(new URL(recipient.url()).pathname).toBe('/poll');
      await findByRole(recipient, 'heading', 'Tea or coffee?');
      await snap(recipient, 'e2e-poll-journey-3-confirm');
      await press(recipient, 'Vote for “Coffee”');
      await waitForText(recipient, 'Thanks for voting!');
      await waitForText(recipient, '1 vote in all.');
      await snap(recipient, 'e2e-poll-journey-4-results');
      const results = (await owner.request('GET', `/api/pic-snippet/${design.designId}/poll/votes`))
        .json;
      expect(JSON.stringify(results)).toContain('"option":1');
      await reader.close();
    },
  );
});
