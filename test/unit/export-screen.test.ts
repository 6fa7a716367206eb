/**
 * The export screen's pure rules (docs/export.md "The screen": "Export", docs/export.md "The
 * screen" export validations, docs/export.md "The screen" HTML width and alignment; docs/export.md
 * "The screen" sticker rules; docs/export.md): when Generate is enabled, the PDF toggle and the
 * platforms it leaves, repeated parameter names, link normalisation, the value editors read from a
 * design, the preview URL, the generated outputs, and the Generate form's rules.
 */
import { describe, expect, it } from 'vitest';
import { EXPORT_MESSAGES, normaliseLinkUrl } from '#shared/export-url.ts';
import { DEFAULT_VIDALYTICS_OPTIONS } from '#shared/providers/index.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import {
  exportRows,
  generateEnabled,
  generateOutputs,
  htmlWidth,
  opensFromSamePath,
  pdfBlock,
  platformOptions,
  previewUrl,
  repeatedNames,
  rowProblem,
  showCustomDataIntro,
  type ExportDesign,
  type ExportRow,
  type GenerateOptions,
} from '../../web/src/features/export/model.ts';
import {
  ExportFormSchema,
  type ExportFormValues,
} from '../../web/src/features/export/useExportForm.ts';

const BASE = 'https://cdn.example.com/r/demo-welcome';
const KLAVIYO_FIRST_NAME = "{{ first_name|default:'' }}";

/** A design answer as GET /api/pic-snippet/{id} gives it (two snippets share `first_name`). */
function design(extra: Record<string, unknown> = {}): ExportDesign {
  return toExportDesign({
    id: 'd1',
    title: 'Welcome',
    version: 3,
    base_url: BASE,
    preview_url: `${BASE}/v3?__preview=1`,
    canvas_width: 1000,
    canvas_height: 600,
    merge_tag_provider: 'klaviyo',
    merge_tag_choices: [
      { key: 'first_name', merge_tag_name: 'First name', merge_tag_value: KLAVIYO_FIRST_NAME },
      { key: 'hostedIcon1', merge_tag_name: '', merge_tag_value: 'https://x.example/a.png' },
    ],
    text_snippets: [
      {
        parameters: [
          {
            id: 'p1',
            param_name: 'first_name',
            param_default_value: 'there',
            merge_tag_value: KLAVIYO_FIRST_NAME,
          },
        ],
      },
      {
        parameters: [
          { id: 'p2', param_name: 'first_name', param_default_value: ' ', merge_tag_value: null },
          { id: 'p3', param_name: 'city', param_default_value: 'Lisboa', merge_tag_value: null },
        ],
      },
    ],
    graphics_data: [
      { uuid: 's0', stickerType: 'plain' },
      {
        uuid: 's1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'hostedImage',
        dynamicStickerParamName: 'hostedIcon1',
        dynamicStickerUrl: 'https://x.example/fallback.png',
      },
    ],
    ...extra,
  });
}

/** The rows with values by key. */
const withValues = (rows: ExportRow[], values: Record<string, string>) =>
  rows.map((r) => (r.key in values ? { ...r, merge_tag_value: values[r.key]! } : r));

describe('the value editors of a design', () => {
  it('lists text parameters in order, then dynamic stickers with their saved choice', () => {
    const rows = exportRows(design());
    expect(rows.map((r) => [r.key, r.param_name, r.merge_tag_value, r.merge_tag_name])).toEqual([
      ['p1', 'first_name', KLAVIYO_FIRST_NAME, 'First name'],
      ['p2', 'first_name', '', ''],
      ['p3', 'city', '', ''],
      ['sticker:s1', 'hostedIcon1', 'https://x.example/a.png', ''],
    ]);
    expect(rows[1]!.fallback).toBe('');
    expect(rows[3]!.dynamicStickerType).toBe('hostedImage');
  });

  it('flags a parameter name used twice, not names used once (spec 001 §5)', () => {
    expect([...repeatedNames(exportRows(design()))]).toEqual(['first_name']);
    const single = design({
      text_snippets: [
        { parameters: [{ id: 'a', param_name: 'first_name', param_default_value: 'x' }] },
      ],
    });
    expect(repeatedNames(exportRows(single)).size).toBe(0);
  });
});

describe('Generate (spec 001 §4)', () => {
  const rows = exportRows(design());
  const filled = withValues(rows, { p2: KLAVIYO_FIRST_NAME, p3: 'Porto' });

  it('needs a value for every parameter and the loaded preview', () => {
    const state = { provider: 'klaviyo', previewLoaded: true, embedCode: '' };
    expect(generateEnabled({ ...state, rows })).toBe(false);
    expect(generateEnabled({ ...state, rows: filled })).toBe(true);
    expect(generateEnabled({ ...state, rows: filled, previewLoaded: false })).toBe(false);
  });

  it('refuses while a value breaks its rule (over 255 characters, a bad sticker URL)', () => {
    const state = { provider: 'klaviyo', previewLoaded: true, embedCode: '' };
    expect(generateEnabled({ ...state, rows: withValues(filled, { p3: 'x'.repeat(256) }) })).toBe(
      false,
    );
    expect(
      generateEnabled({ ...state, rows: withValues(filled, { 'sticker:s1': 'ftp://x/a.png' }) }),
    ).toBe(false);
  });

  it('is always enabled for web tracking, and for Wistia and Vidalytics once an embed code is pasted', () => {
    const none = { rows, previewLoaded: false };
    expect(generateEnabled({ ...none, provider: 'mywebsite', embedCode: '' })).toBe(true);
    expect(generateEnabled({ ...none, provider: 'wistia', embedCode: '' })).toBe(false);
    expect(generateEnabled({ ...none, provider: 'wistia', embedCode: '  ' })).toBe(false);
    expect(generateEnabled({ ...none, provider: 'vidalytics', embedCode: '<div>' })).toBe(true);
  });
});

describe('the PDF toggle (spec 001 §4, §6)', () => {
  it('needs can_export_pdf, and is unavailable for website, Wistia and Vidalytics', () => {
    expect(pdfBlock('klaviyo', false)).toBe('plan');
    expect(pdfBlock('klaviyo', true)).toBeNull();
    expect(pdfBlock(null, true)).toBeNull();
    for (const p of ['mywebsite', 'wistia', 'vidalytics'])
      expect(pdfBlock(p, true)).toBe('provider');
  });

  it('removes those platforms from the list when on', () => {
    const off = platformOptions(false).map((p) => p.value);
    const on = platformOptions(true).map((p) => p.value);
    expect(off).toEqual(expect.arrayContaining(['mywebsite', 'wistia', 'vidalytics', 'klaviyo']));
    expect(off).toHaveLength(10);
    expect(on).not.toContain('mywebsite');
    expect(on).not.toContain('wistia');
    expect(on).not.toContain('vidalytics');
    expect(on).toContain('klaviyo');
    expect(on).toContain('');
    expect(on).toHaveLength(7);
  });
});

describe('values (spec 001 §5, spec 000 §5)', () => {
  const sticker = exportRows(design())[3]!;
  const check = (value: string, type = sticker.dynamicStickerType) =>
    rowProblem('klaviyo', { ...sticker, dynamicStickerType: type, merge_tag_value: value });

  it('accepts webp for a hosted image, refuses other files and schemes', () => {
    expect(check('https://x.example/a.webp')).toBeNull();
    expect(check('https://x.example/a.txt')).toBe(
      'Image not found. We support jpg, jpeg, png, gif and svg',
    );
    expect(check('javascript:alert(1)')).toBe('Invalid URL');
  });

  it('accepts a screenshot URL without a protocol, and checks a Gravatar e-mail', () => {
    expect(check('example.com/pricing', 'screenShot')).toBeNull();
    expect(check('not a url', 'screenShot')).toBe('Invalid URL');
    expect(check('ana@example.com', 'gravatar')).toBeNull();
    expect(check('ana', 'gravatar')).toBe('Invalid email');
  });

  it('allows 255 characters and refuses 256', () => {
    const text = exportRows(design())[2]!;
    expect(rowProblem('klaviyo', { ...text, merge_tag_value: 'é'.repeat(255) })).toBeNull();
    expect(rowProblem('klaviyo', { ...text, merge_tag_value: 'é'.repeat(256) })).toBe(
      'Value may not be greater than 255 character!',
    );
  });
});

describe('the link URL (spec 001 §7 "normalised html_link_url")', () => {
  it('adds https:// when no scheme is written and refuses other schemes', () => {
    expect(normaliseLinkUrl(' shop.example.com/sale ')).toBe('https://shop.example.com/sale');
    expect(normaliseLinkUrl('http://shop.example.com')).toBe('http://shop.example.com/');
    expect(normaliseLinkUrl('')).toBe('');
    expect(normaliseLinkUrl('javascript:alert(1)')).toBeUndefined();
    expect(normaliseLinkUrl('mailto:ana@example.com')).toBeUndefined();
  });
});

describe('the Generate form’s rules', () => {
  const values: ExportFormValues = {
    pdf: false,
    imageFormat: 'jpeg',
    width: '100',
    align: 'center',
    link: '',
    embedCode: '',
    vidalytics: DEFAULT_VIDALYTICS_OPTIONS,
    accessToken: '',
  };

  it('gives Generate the normalised link and a whole width from 1 to 100', () => {
    const checked = ExportFormSchema.parse({ ...values, link: ' shop.example.com ', width: '250' });
    expect(checked.link).toBe('https://shop.example.com/');
    expect(checked.width).toBe(100);
    expect(ExportFormSchema.parse({ ...values, width: '33.6' }).width).toBe(htmlWidth('33.6'));
  });

  it('refuses a link that is not a web link, on the link field, with the spec’s message', () => {
    const result = ExportFormSchema.safeParse({ ...values, link: 'javascript:alert(1)' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['link', EXPORT_MESSAGES.linkInvalid],
    ]);
  });
});

describe('the preview URL', () => {
  it('carries typed values only: a merge tag shows the fallback, as for a recipient without it', () => {
    const rows = withValues(exportRows(design()), { p3: 'São Paulo & Co' });
    const url = new URL(previewUrl(design(), 'klaviyo', rows));
    expect(url.pathname).toBe('/r/demo-welcome/v3');
    expect(url.searchParams.get('__preview')).toBe('1');
    expect(url.searchParams.get('city')).toBe('São Paulo & Co');
    expect(url.searchParams.has('first_name')).toBe(false);
    expect(url.searchParams.get('hostedIcon1')).toBe('https://x.example/a.png');
  });

  it('leaves out a value that breaks its rule', () => {
    const rows = withValues(exportRows(design()), { 'sticker:s1': 'ftp://x/a.png' });
    expect(new URL(previewUrl(design(), 'klaviyo', rows)).searchParams.has('hostedIcon1')).toBe(
      false,
    );
  });
});

describe('the generated outputs', () => {
  const rows = withValues(exportRows(design()), { p2: KLAVIYO_FIRST_NAME, p3: 'Porto' });
  const options = (extra: Partial<GenerateOptions> = {}): GenerateOptions => ({
    provider: 'klaviyo',
    rows,
    pdf: false,
    width: 100,
    align: 'center',
    link: '',
    embedCode: '',
    vidalytics: DEFAULT_VIDALYTICS_OPTIONS,
    origin: 'https://cdn.example.com',
    alt: 'Welcome',
    cacheId: null,
    ...extra,
  });

  it('gives Klaviyo the URL with its tag and the HTML with width, alignment and link', () => {
    const out = generateOutputs(
      design(),
      options({ width: 60, align: 'right', link: 'https://shop.example.com/' }),
    );
    expect(out.link).toBe(
      `${BASE}?first_name={{ first_name|default:''|urlencode }}&city=Porto&hostedIcon1=${encodeURIComponent('https://x.example/a.png')}`,
    );
    expect(out.script).toBeNull();
    const html = out.html!;
    expect(html).toMatch(/^<div style="text-align:right">/);
    expect(html).toContain('style="width:60%;height:auto;border:0;display:inline-block"');
    expect(html).toContain('<a href="https://shop.example.com/" target="_blank" rel="noopener">');
    // The 2× image at the 1× width (docs/export.md "Density"); the direct link stays 1×.
    expect(html).toContain(
      `src="${BASE}@2x?first_name={{ first_name|default:''|urlencode }}&amp;city=Porto`,
    );
    expect(html).toContain(' width="1000" ');
    expect(html).toContain('alt="Welcome"');
  });

  it('keeps the 1× image for a PDF, a countdown, a canvas too large at 2×, or an unsigned 2× path', () => {
    const src = (html: string | null) =>
      /src="([^"]*)"/.exec(html ?? '')![1]!.replaceAll('&amp;', '&');
    expect(src(generateOutputs(design(), options({ pdf: true })).html)).toMatch(
      new RegExp(`^${BASE}/pdf\\?`),
    );
    const timer = generateOutputs({ ...design(), timer_frames: 30 }, options());
    expect(src(timer.html)).toMatch(new RegExp(`^${BASE}\\.gif\\?`));
    expect(timer.html).not.toContain(' width="');
    const tall = generateOutputs(design({ canvas_height: 2500 }), options());
    expect(src(tall.html)).toMatch(new RegExp(`^${BASE}\\?`));
    const signature = `__sf=names&__sig=${'s'.repeat(43)}`;
    const unsigned2x = generateOutputs(design(), options({ signature }));
    expect(src(unsigned2x.html).startsWith(`${BASE}?${signature}&`)).toBe(true);
    const denseSignature = `__sf=names&__sig=${'d'.repeat(43)}`;
    const signed2x = generateOutputs(design(), options({ signature, denseSignature }));
    expect(src(signed2x.html).startsWith(`${BASE}@2x?${denseSignature}&`)).toBe(true);
    expect(signed2x.link.startsWith(`${BASE}?${signature}&`)).toBe(true);
  });

  it('offers web pages and players the 2× image too', () => {
    const page = generateOutputs(design(), options({ provider: 'mywebsite', cacheId: 'v12' }));
    expect(page.html).toContain(`srcset="${BASE}/v12 1x, ${BASE}/v12@2x 2x"`);
    const vidalytics = generateOutputs(
      design(),
      options({
        provider: 'vidalytics',
        embedCode: '<script src="https://fast.vidalytics.com/embeds/Acc1/Emb2/player.min.js">',
      }),
    );
    expect(vidalytics.script).toContain(`srcset: window.PicSnippets.url("${BASE}"`);
    expect(vidalytics.script).toContain(`window.PicSnippets.url("${BASE}@2x"`);
  });

  it('puts the cache id Generate got between the base URL and /pdf (spec 001 §7)', () => {
    const out = generateOutputs(design(), options({ cacheId: 'v12', pdf: true }));
    expect(out.link.startsWith(`${BASE}/v12/pdf?first_name=`)).toBe(true);
    expect(out.html).toContain(`src="${BASE}/v12/pdf?first_name=`);
    const page = generateOutputs(design(), options({ provider: 'mywebsite', cacheId: 'v12' }));
    expect(page.link).toBe(`${BASE}/v12`);
    expect(page.html).toContain(`data-picsnippet="${BASE}/v12"`);
  });

  it('puts a names-form signature first, before the values the platform fills in', () => {
    const signature = `__sf=names&__sig=${'s'.repeat(43)}`;
    const out = generateOutputs(design(), options({ signature }));
    // A recipient's value with a # cuts what follows it, never the signature.
    expect(out.link.startsWith(`${BASE}?${signature}&first_name=`)).toBe(true);
    const bare = generateOutputs(design(), options({ provider: 'mywebsite', signature }));
    expect(bare.link).toBe(`${BASE}?${signature}`);
  });

  it('leaves the link out when none is set, and writes the PDF form when asked', () => {
    const out = generateOutputs(design(), options({ pdf: true, align: 'left' }));
    expect(out.link.startsWith(`${BASE}/pdf?`)).toBe(true);
    expect(out.html).not.toContain('<a ');
    expect(out.html).toMatch(/^<div style="text-align:left">/);
  });

  it('gives a web page the tagged image and the script, without pairs in the URL', () => {
    const out = generateOutputs(design(), options({ provider: 'mywebsite' }));
    expect(out.link).toBe(BASE);
    expect(out.script).toMatch(
      /^<script src="https:\/\/cdn\.example\.com\/js\/picsnippets\.js\?v=[0-9a-f]{8}"><\/script>$/,
    );
    expect(out.html).toContain(`data-picsnippet="${BASE}"`);
  });

  it('needs a Wistia or Vidalytics embed code that names the video (spec 001 §5)', () => {
    expect(() =>
      generateOutputs(design(), options({ provider: 'wistia', embedCode: '<p>' })),
    ).toThrow('The video embed code is required.');
    const wistia = generateOutputs(
      design(),
      options({ provider: 'wistia', embedCode: '<div class="wistia_embed wistia_async_abc123">' }),
    );
    expect(wistia.html).toBeNull();
    expect(wistia.script).toContain('id: "abc123"');
    expect(() =>
      generateOutputs(design(), options({ provider: 'vidalytics', embedCode: '<div>' })),
    ).toThrow('The video embed code is required.');
    const vidalytics = generateOutputs(
      design(),
      options({
        provider: 'vidalytics',
        embedCode: '<script src="https://fast.vidalytics.com/embeds/Acc1/Emb2/player.min.js">',
        vidalytics: { default: true, pause: true, mobile: false },
      }),
    );
    expect(vidalytics.script).toContain(
      '"accountId":"Acc1","embedId":"Emb2","containerId":"vidalytics_embed_Emb2","slots":{"default":true,"pause":true,"mobile":false}',
    );
    // It says what it does not do: Vidalytics has no documented per-viewer thumbnail.
    expect(vidalytics.script).toContain('it does not change the Vidalytics player itself');
  });

  it('reads the HTML width as a percentage: default 100, at most 100', () => {
    expect(htmlWidth('')).toBe(100);
    expect(htmlWidth('abc')).toBe(100);
    expect(htmlWidth('150')).toBe(100);
    expect(htmlWidth('40.4')).toBe(40);
    expect(htmlWidth('0')).toBe(1);
  });
});

describe('the window rules (spec 001 §2, §4)', () => {
  const at = (pathname: string, origin = 'https://app.example.com') => ({ pathname, origin });

  it('hands over to an opener of the same path only', () => {
    const self = at('/pic-snippet/d1/export');
    expect(opensFromSamePath(self, { location: at('/pic-snippet/d1/export') })).toBe(true);
    expect(opensFromSamePath(self, { location: at('/pic-snippet/d1') })).toBe(false);
    expect(
      opensFromSamePath(self, { location: at('/pic-snippet/d1/export', 'https://evil.example') }),
    ).toBe(false);
    expect(opensFromSamePath(self, null)).toBe(false);
    const crossOrigin = {
      get location(): Location {
        throw new DOMException('Blocked', 'SecurityError');
      },
    };
    expect(opensFromSamePath(self, crossOrigin)).toBe(false);
  });

  it('shows the custom-data intro until customDataModal is 0', () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(showCustomDataIntro(storage(null))).toBe(true);
    expect(showCustomDataIntro(storage('1'))).toBe(true);
    expect(showCustomDataIntro(storage('0'))).toBe(false);
    expect(showCustomDataIntro(null)).toBe(true);
  });
});
