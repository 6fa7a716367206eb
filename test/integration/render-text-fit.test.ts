/**
 * A long real name in a narrow text box, through the real render on the local stack
 * (docs/editor.md "Text fitting"): the render's lines are read back by OCR, and every line
 * ends at a space or after a hyphen, never inside a word, so the lines joined give the name
 * again.
 *
 * Seen to fail on the render page built from shared/scene/draw.ts as it was before
 * line-break.ts (fabric's wrap at spaces, then breaks between any two characters once the
 * minimum size is reached): it read "Hi Bartholomew-Alex / andrina von Longna / me-Smythe".
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTeamId, demoDesignCopyIn, ownTeam, uniqueEmail } from '../support/designs.ts';
import { blockReader, readWhiteLines } from '../support/ocr.ts';
import { fetchImage, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const NAME = 'Bartholomew-Alexandrina von Longname-Smythe';
/** The snippet's box on the 1000x625 demo photo, px: narrower than "Bartholomew-Alexandrina". */
const BOX = { left: 60, top: 60, width: 300 };

let ocr: Worker;
beforeAll(async () => {
  ocr = await blockReader();
});
afterAll(async () => {
  await ocr?.terminate();
});

/** The name's snippet: white Noto Sans 36 px (30 px at least) with a dark outline, in {@link BOX}. */
const greeting = {
  id: 'greeting',
  text: 'Hi {{name}}',
  original_text: 'Hi {{name}}',
  fontFamily: 'Noto Sans',
  fontSize: 36,
  minFontSize: 30,
  fill: '#ffffff',
  stroke: '#000000',
  strokeWidth: 2,
  ...BOX,
  height: 50,
  parameters: [{ id: 'p-name', param_name: 'name', param_default_value: 'there' }],
};

/**
 * Joins read lines as a reader would: straight on after a line that ends in a hyphen, with a
 * space otherwise.
 */
const joined = (lines: string[]) =>
  lines.reduce(
    (text, line) => (text === '' || text.endsWith('-') ? text + line : `${text} ${line}`),
    '',
  );

describe('a long name in a narrow box', () => {
  it(
    'breaks only at spaces and after hyphens, at a size where every word fits',
    { timeout: 60_000 },
    async () => {
      const owner = await ownTeam(stack().url, uniqueEmail('text-fit'));
      const design = await demoDesignCopyIn(await currentTeamId(owner));
      const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
        version: 1,
        text_snippets: [greeting],
        graphics_data: [],
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);

      const image = await fetchImage(
        `${stack().url}${design.render}.png?name=${encodeURIComponent(NAME)}`,
      );
      expect(image.res.status).toBe(200);
      await mkdir('test-results', { recursive: true });
      await writeFile('test-results/render-text-fit.png', image.bytes);
      const lines = await readWhiteLines(ocr, image.bytes, {
        left: BOX.left - 5,
        top: BOX.top - 5,
        width: BOX.width + 10,
        height: 300,
      });
      expect(lines.length, lines.join(' / ')).toBeGreaterThan(1);
      expect(joined(lines), lines.join(' / ')).toBe(`Hi ${NAME}`);
      expect(lines.filter((line) => line.startsWith('-'))).toEqual([]);
    },
  );

  it(
    'stays above the next text below it, shrinking rather than covering it',
    { timeout: 60_000 },
    async () => {
      // Mutation check: with the box reaching down to the canvas's margin (the rule before),
      // the name's third line at 36 px ran over "SALE" and neither read back.
      const owner = await ownTeam(stack().url, uniqueEmail('text-fit-below'));
      const design = await demoDesignCopyIn(await currentTeamId(owner));
      const sale = { ...greeting, id: 'sale', text: 'SALE', original_text: 'SALE', parameters: [] };
      const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
        version: 1,
        text_snippets: [greeting, { ...sale, top: 180, height: 50 }],
        graphics_data: [],
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      const image = await fetchImage(
        `${stack().url}${design.render}.png?name=${encodeURIComponent(NAME)}`,
      );
      expect(image.res.status).toBe(200);
      await writeFile('test-results/render-text-fit-below.png', image.bytes);
      const region = { left: BOX.left - 5, width: BOX.width + 10 };
      const name = await readWhiteLines(ocr, image.bytes, { ...region, top: 55, height: 125 });
      expect(joined(name), name.join(' / ')).toBe(`Hi ${NAME}`);
      const below = await readWhiteLines(ocr, image.bytes, { ...region, top: 178, height: 56 });
      expect(below).toEqual(['SALE']);
    },
  );
});
