/// <reference lib="dom" />
/**
 * A recipient votes in a poll through the built SPA in headless Chromium (docs/polls.md
 * "Voting"): the e-mail's answer link opens the vote page, which counts nothing until "Vote for
 * …" is pressed; then the results show, the page goes on to the answer's link, and the design's
 * image draws the new percentages. Opening the link again shows that the first vote counts.
 * Screenshots land in test-results/e2e-polls-*.png.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';
import { useTestBrowser } from '../support/browser.ts';
import { POLL, findByRole, press, snap, waitForText } from '../support/aria.ts';

const stack = useLocalStack({ web: 'preview' });
const browser = useTestBrowser();

describe('polls', () => {
  it('votes through the e-mail’s link on a click, and the image shows the results', async () => {
    const owner = await ownTeam(stack().url, uniqueEmail('polls-e2e'));
    const design = await demoDesignCopyIn(await currentTeamId(owner));
    const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
      version: 1,
      graphics_data: [
        {
          uuid: 'poll-e2e',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'poll',
          left: 250,
          top: 120,
          width: 600,
          height: 400,
          scaleX: 0.85,
          scaleY: 0.85,
          poll: {
            question: 'Where should we go next?',
            options: [
              { label: 'Mountains', url: `${stack().url}/status` },
              { label: 'Seaside', url: '' },
              { label: 'City', url: '' },
            ],
            voter_parameter: 'first_name',
            results_ttl_s: 10,
          },
        },
      ],
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const image = async () => {
      const res = await fetch(`${stack().url}${design.render}.png?first_name=Render`);
      return Buffer.from(await res.arrayBuffer());
    };
    const before = await image();

    const context = await browser().createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 480, height: 800 });
    const link = `${stack().url}/l/${design.publicId}?first_name=Ana&__vote=1`;
    await page.goto(link, { waitUntil: 'networkidle0' });
    expect(new URL(page.url()).pathname).toBe('/poll');
    await findByRole(page, 'heading', 'Where should we go next?');
    const vote = await findByRole(page, 'button', 'Vote for “Seaside”');
    await snap(page, 'e2e-polls-1-ballot');
    // Opening the page counted nothing.
    const ballot = await owner.request(
      'GET',
      `/api/polls/ballot?link=${encodeURIComponent(`/l/${design.publicId}?first_name=Zed&__vote=0`)}`,
    );
    expect(ballot.json.voted).toBeNull();

    await vote.click();
    await waitForText(page, 'Thanks for voting!');
    await waitForText(page, '1 vote in all.');
    await snap(page, 'e2e-polls-2-results');

    // The same recipient's link to another answer: the first vote counts. Anyone can write
    // this unsigned link, so the page learns only after the click that a vote stands, not which.
    await page.goto(`${stack().url}/l/${design.publicId}?first_name=Ana&__vote=0`, {
      waitUntil: 'networkidle0',
    });
    await press(page, 'Vote for “Mountains”');
    await waitForText(page, 'You have already voted in this poll. Your first vote counts.');
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).not.toContain('Thanks for voting!');
    expect(shown).not.toContain('(your vote)');
    expect(new URL(page.url()).pathname).toBe('/poll');
    await snap(page, 'e2e-polls-3-already');

    // Another recipient's answer with a link goes on to it after the thanks.
    await page.goto(`${stack().url}/l/${design.publicId}?first_name=Bo&__vote=0`, {
      waitUntil: 'networkidle0',
    });
    await press(page, 'Vote for “Mountains”');
    await page.waitForFunction(() => location.pathname === '/status', POLL);

    // The image draws the results: it differs from the one before any vote.
    await expect
      .poll(
        async () => {
          const after = await image();
          const a = await sharp(before).raw().toBuffer();
          const b = await sharp(after).raw().toBuffer();
          let differing = 0;
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
          return differing;
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBeGreaterThan(1000);
    await context.close();
  });
});
