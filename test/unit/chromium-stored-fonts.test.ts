/**
 * A Chromium stored unpacked (`CHROMIUM_PATH`, as a container image holds it:
 * docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md "Fresh cold start: Chromium stored
 * unpacked") gets the `fonts.conf` beside it when the temp folder is empty, so a fresh sandbox
 * draws with the same fonts as one that unpacked.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumEnv } from '#functions/render/browser.ts';

let root: string;
/** An empty temp folder: nothing unpacked there (the machine's own /tmp may hold an unpack). */
let emptyTmp: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'stored-chromium-'));
  emptyTmp = join(root, 'empty-tmp');
  await mkdir(emptyTmp);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('chromiumEnv with Chromium stored unpacked', () => {
  it('points FONTCONFIG_FILE at the fonts.conf beside the stored binary', async () => {
    const stored = join(root, 'opt', 'chromium');
    await mkdir(join(stored, 'fonts'), { recursive: true });
    await writeFile(join(stored, 'fonts', 'fonts.conf'), '<fontconfig/>');
    const env = chromiumEnv({
      PATH: '/usr/bin',
      TMPDIR: emptyTmp,
      CHROMIUM_PATH: join(stored, 'chromium'),
    });
    expect(env.FONTCONFIG_FILE).toBe(join(stored, 'fonts', 'fonts.conf'));
    // The setting itself is not handed to Chromium.
    expect(env.CHROMIUM_PATH).toBeUndefined();
  });

  it('leaves FONTCONFIG_FILE unset when neither place has a fonts.conf', () => {
    const env = chromiumEnv({
      PATH: '/usr/bin',
      TMPDIR: emptyTmp,
      CHROMIUM_PATH: join(root, 'none', 'chromium'),
    });
    expect(env.FONTCONFIG_FILE).toBeUndefined();
  });
});
