/**
 * Fonts in the render service (docs/fonts.md; docs/fonts.md "The render page"): a design's
 * fontFamily is drawn with its own files through `@font-face` on the warm page — a hosted family, a
 * built-in name, or the team's uploaded font — from the product's own bucket, and an unknown family
 * falls back to the default font. Chromium, DynamoDB Local and s3rver are real.
 *
 * The designs and the uploaded font are a team's of this file's own (on Pro as data, as the seed
 * puts the demo team), under public ids of their own; the file starts the stack's render browser
 * afresh, so the page's loaded fonts are this file's renders' (docs/testing.md "One stack per
 * worker": the warm page of a shared stack has drawn the files before this one).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { currentTeamId, ownTeam, setTeamPlan, uniqueEmail } from '../support/designs.ts';
import { makeTtf } from '../support/fonts.ts';
import { putDesign } from '../support/render-designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const url = (path: string) => `${stack().url}${path}`;
/** Where the demo design's "Hello {{first_name}}!" is drawn (1000x625 canvas). */
const textBand = { left: 50, top: 200, width: 900, height: 220 };

/** A public id of this file's own. */
const TAG = randomUUID().slice(0, 8);
const id = (name: string) => `${name}-${TAG}`;

/** The team the designs are drawn for, and its owner (signed in). */
let owner: TestClient;
let fontTeam = '';

beforeAll(async () => {
  owner = await ownTeam(stack().url, uniqueEmail('render-fonts'));
  fontTeam = await currentTeamId(owner);
  await setTeamPlan(fontTeam, 'pro-monthly');
  // A fresh render page: it has drawn nothing yet (what the first test reads), as after a cold
  // start. The next file gets the page this file leaves, as after any relaunch.
  const { closeBrowser, getRenderPage } = await import('#functions/render/browser.ts');
  await closeBrowser();
  await getRenderPage();
});

/** Adds a copy of the demo design whose text snippets use `fontFamily` (unchanged without one). */
async function designWithFont(publicId: string, fontFamily?: string, teamId = fontTeam) {
  const { db } = await import('#lib/db/index.ts');
  const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
  const doc = demo.document as { text_snippets: Array<Record<string, unknown>> };
  const snippets = fontFamily
    ? doc.text_snippets.map((s) => ({ ...s, fontFamily, fontSize: 72 }))
    : doc.text_snippets;
  await putDesign(publicId, teamId, { ...doc, text_snippets: snippets });
}

const render = (publicId: string, name = 'Ana') =>
  fetchImage(url(`/r/${publicId}.png?first_name=${name}`));

const differ = (a: Buffer, b: Buffer) => meanDifference(a, b, 1000, textBand);

describe('fonts in the render page', () => {
  // First in the file: the stack's page has drawn nothing yet, so what is loaded after this
  // render is what this render loaded.
  it("loads a Latin name's own family only, not the fallback families' subsets holding Latin letters", async () => {
    // A copy of the demo design: "Hello {{first_name}}!" in Noto Sans bold.
    await designWithFont(id('font-noto'));
    const drawn = await render(id('font-noto'), 'Zoe');
    expect(drawn.res.status).toBe(200);
    const { getRenderPage } = await import('#functions/render/browser.ts');
    const loaded = await (
      await getRenderPage()
    ).evaluate(() =>
      [...(document.fonts as unknown as Iterable<FontFace>)]
        .filter((f) => f.status === 'loaded')
        .map((f) => f.family.replace(/"/g, '')),
    );
    expect(loaded).toContain('Noto Sans');
    // Each of these has a subset holding ASCII; loading the whole family list fetched them all.
    for (const family of ['Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans SC', 'Noto Sans KR'])
      expect(loaded).not.toContain(family);
  });

  it('draws a hosted family (Lobster) differently from the fallback family', async () => {
    await designWithFont(id('font-lobster'), 'Lobster');
    await designWithFont(id('font-unknown'), 'No Such Family');
    await designWithFont(id('font-journal'), 'Journal');
    const lobster = await render(id('font-lobster'));
    const unknown = await render(id('font-unknown'));
    const journal = await render(id('font-journal'));
    expect(lobster.res.status).toBe(200);
    expect(lobster.res.headers.get('cache-control')).not.toBe('no-store');
    expect(differ(lobster.pixels, unknown.pixels)).toBeGreaterThan(2);
    // Unknown families fall back to the default font, Journal (docs/editor.md "Messages",
    // docs/fonts.md "The catalogue").
    expect(differ(unknown.pixels, journal.pixels)).toBeLessThan(0.5);
  });

  it('keeps loaded faces in the warm page: a second render of the family does no font work', async () => {
    await designWithFont(id('font-lobster-again'), 'Lobster');
    await render(id('font-lobster-again'), 'Ben');
    const { getRenderPage } = await import('#functions/render/browser.ts');
    const page = await getRenderPage();
    const state = await page.evaluate(() => {
      const lobster = [...(document.fonts as unknown as Iterable<FontFace>)].filter(
        (f) => f.family.replace(/"/g, '') === 'Lobster',
      );
      return {
        loaded: lobster.filter((f) => f.status === 'loaded').length,
        registered: lobster.length,
        ready: document.fonts.check('normal normal 72px "Lobster"', 'Hello Ben!'),
      };
    });
    expect(state.registered).toBeGreaterThan(1); // unicode-range subsets
    expect(state.loaded).toBeGreaterThanOrEqual(1); // the latin subset only
    expect(state.loaded).toBeLessThan(state.registered);
    expect(state.ready).toBe(true);
  });

  it("draws a team's uploaded font, and never for another team's design", async () => {
    const form = new FormData();
    // Lobster's own glyphs under a family name of the team's (test/support/fonts.ts).
    form.append('file', new Blob([new Uint8Array(makeTtf('Acme Render'))]), 'acme-render.ttf');
    const stored = await owner.request('POST', '/storeFont', form);
    expect(stored.status).toBe(201);
    // The render service re-reads a team's font list at most every 3 s for an unknown family
    // (an earlier test rendered one for this team): its clock, this process's, is moved past that
    // rather than waited for.
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3100);
    onTestFinished(() => later.mockRestore());

    await designWithFont(id('font-custom'), 'Acme Render');
    // Another team of this file's own (a seeded team may carry other files' settings, such as a
    // watermark, that would change its render).
    const other = await ownTeam(stack().url, uniqueEmail('fonts-other'));
    const otherTeamId = await currentTeamId(other);
    await designWithFont(id('font-custom-other-team'), 'Acme Render', otherTeamId);
    const custom = await render(id('font-custom'));
    const lobster = await render(id('font-lobster'));
    const fallback = await render(id('font-unknown'));
    const otherTeam = await render(id('font-custom-other-team'));
    expect(differ(custom.pixels, fallback.pixels)).toBeGreaterThan(2);
    expect(differ(custom.pixels, lobster.pixels)).toBeLessThan(1);
    expect(differ(otherTeam.pixels, fallback.pixels)).toBeLessThan(0.5);
  });
});
