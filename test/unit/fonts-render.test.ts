import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { UrlRefused } from '#lib/ssrf.ts';
import { customFaceFamily, fontFile, sceneFonts } from '#functions/render/fonts.ts';
import type { ResolvedScene, ResolvedTextLayer } from '#shared/scene/resolve.ts';

const layer = (fontFamily: string): ResolvedTextLayer => ({
  id: fontFamily,
  text: 'Hello Ana!',
  left: 10,
  top: 10,
  width: 400,
  fontFamily,
  fontWeight: 'normal',
  fontStyle: 'normal',
  underline: false,
  textAlign: 'left',
  angle: 0,
  fill: 'black',
  stroke: null,
  strokeWidth: 0,
  fontSize: 32,
  minFontSize: 16,
});
const scene = (...families: string[]): ResolvedScene => ({
  width: 600,
  height: 400,
  images: [],
  texts: families.map(layer),
});

describe('sceneFonts: the faces a render needs beyond the page’s own', () => {
  beforeEach(() => {
    delete process.env.FONT_CDN_URL;
    resetConfig();
  });
  afterEach(() => {
    delete process.env.FONT_CDN_URL;
    resetConfig();
  });

  it('needs nothing, and reads no team list, for built-in, hosted and bundled families', async () => {
    const source = vi.fn(async () => []);
    const out = await sceneFonts(scene('Journal', 'Lobster', 'Noto Sans'), 'team-a', source);
    expect(out.faces).toEqual([]);
    expect(out.scene.texts.map((t) => t.fontFamily)).toEqual(['Journal', 'Lobster', 'Noto Sans']);
    expect(source).not.toHaveBeenCalled();
  });

  it("registers a team's upload under a name of that team, so teams never share a face", async () => {
    const font = {
      family: 'Acme Brand',
      url: '/files/fonts/custom/team-a/x.ttf',
      format: 'truetype' as const,
    };
    const a = await sceneFonts(scene('Acme Brand'), 'team-a', async () => [font]);
    const as = customFaceFamily('team-a', 'Acme Brand');
    expect(as).not.toBe(customFaceFamily('team-b', 'Acme Brand'));
    expect(a.scene.texts[0]!.fontFamily).toBe(as);
    expect(a.faces).toEqual([
      { family: as, url: font.url, format: 'truetype', weight: 400, style: 'normal' },
    ]);
    // Another team without that upload draws the default font.
    const b = await sceneFonts(scene('Acme Brand'), 'team-b', async () => []);
    expect(b.faces).toEqual([]);
    expect(b.scene.texts[0]!.fontFamily).toBe('Acme Brand');
  });

  it('asks the CDN through the page’s own origin, and only when one is configured', async () => {
    expect((await sceneFonts(scene('Inter'), undefined, async () => [])).faces).toEqual([]);
    process.env.FONT_CDN_URL = 'https://cdn.example/fontsource/fonts';
    resetConfig();
    const out = await sceneFonts(scene('Inter'), undefined, async () => []);
    expect(out.faces.map((f) => f.url)).toEqual([
      '/cdn-fonts/inter/latin-400-normal.woff2',
      '/cdn-fonts/inter/latin-ext-400-normal.woff2',
    ]);
  });
});

describe('fontFile: the only font paths the render page may load', () => {
  it.each([
    '/files/photos/secret.jpg',
    '/files/fonts/custom/../../static-layers/x.png',
    '/files/fonts/custom/../x.png',
    '/files/fonts/hosted/../b.woff2',
    '/files/fonts/hosted/lobster/../../../etc',
    '/static-layers/design/v1.png',
    '/cdn-fonts/inter/latin-700-normal.woff2',
    '/cdn-fonts/../x/latin-400-normal.woff2',
    '/cdn-fonts/inter/latin-400-normal.woff2?x=http://169.254.169.254/',
  ])('refuses %s', (path) => {
    expect(fontFile(path)).toBeUndefined();
  });

  it('fetches CDN files through the SSRF guard: a CDN base on a private address is refused', async () => {
    process.env.FONT_CDN_URL = 'https://127.0.0.1/fontsource/fonts';
    resetConfig();
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      expect(await fontFile('/cdn-fonts/inter/latin-400-normal.woff2')).toBeUndefined();
      const error = warn.mock.calls
        .map(([, fields]) => (fields as { error?: unknown } | undefined)?.error)
        .find((e) => e instanceof UrlRefused);
      expect(error).toMatchObject({ reason: 'address' });
    } finally {
      warn.mockRestore();
      delete process.env.FONT_CDN_URL;
      resetConfig();
    }
  });

  it('answers nothing for a CDN path while no CDN is configured', async () => {
    delete process.env.FONT_CDN_URL;
    resetConfig();
    expect(await fontFile('/cdn-fonts/inter/latin-400-normal.woff2')).toBeUndefined();
  });
});
