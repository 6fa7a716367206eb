/**
 * The export URL builder (docs/export.md "What Generate writes"; docs/export.md) and the round-trip
 * property: for every provider, a URL built with its merge tags, with sample recipient values
 * substituted the way that platform substitutes them (then normalised as a mail client or browser
 * does), resolves in the render service to exactly those values. Web pages run the real
 * web-tracking script.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXPORT_MESSAGES,
  ExportError,
  buildHtmlSnippet,
  buildRenderUrl,
  buildWebTrackingSnippet,
  buildWistiaScript,
  canGenerate,
  exportProblems,
  normaliseLinkUrl,
  type ExportParameter,
  type RenderUrlInput,
} from '#shared/export-url.ts';
import { DesignDocumentSchema } from '#shared/design.ts';
import { PROVIDERS, providerOf, type Provider } from '#shared/providers/index.ts';
import { parseRenderPath, parseRenderQuery } from '#shared/render-url.ts';
import { isUnfilledMergeTag, resolveSnippetText } from '#shared/scene/resolve.ts';
import { WEB_TRACKING_SCRIPT } from '#shared/web-tracking-script.ts';
import { normaliseValues } from '#functions/render/open-time.ts';
import { deliver, fakeImage, runInPage } from '../support/platforms.ts';

const BASE = 'https://cdn.example.com/r/demo-welcome';
const param = (param_name: string, merge_tag_value: string): ExportParameter => ({
  param_name,
  merge_tag_value,
});

/** A design with two text parameters, as the render service reads it. */
const design = DesignDocumentSchema.parse({
  image_id: 'img',
  base_image_key: 'library/autumn.jpg',
  text_snippets: [
    {
      id: 's1',
      text: '{{first_name}}|{{last_name}}',
      width: 800,
      left: 0,
      top: 0,
      parameters: [
        { id: 'p1', param_name: 'first_name', param_default_value: 'Friend' },
        { id: 'p2', param_name: 'last_name', param_default_value: ' ' },
      ],
    },
  ],
});

/** The two parameters mapped to the provider's first two catalogue tags (or typed tags). */
function parametersFor(provider: Provider): ExportParameter[] {
  const catalogue = provider.catalogue().map((c) => c.merge_tag_value);
  const tags =
    provider.source === 'page'
      ? ['first_name', 'lname']
      : provider.source === 'text'
        ? ['{first_name}', '{last_name}']
        : [catalogue[0]!, catalogue[1]!];
  return [
    { param_name: 'first_name', merge_tag_value: tags[0]! },
    { param_name: 'last_name', merge_tag_value: tags[1]! },
  ];
}

/** The values the render service draws for a URL: parse, keep declared, resolve the text. */
function drawnValues(
  url: URL,
  cacheId?: string,
): {
  query: Record<string, string>;
  values: Record<string, string>;
  text: string;
} {
  // Generate's cache id travels in the path and is read back (docs/export.md "Cache id").
  expect(parseRenderPath(url.pathname)).toEqual({
    publicId: 'demo-welcome',
    ...(cacheId ? { cacheId } : {}),
  });
  const query = parseRenderQuery(url.search);
  const values = Object.fromEntries(normaliseValues(design, query));
  return { query, values, text: resolveSnippetText(design.text_snippets[0]!, values) };
}

/**
 * Values a recipient may have: the hard cases (`&`, `+`, `%`, `=`, `#`, quotes, `$` patterns, other
 * scripts; docs/adr/0022-export-and-merge-tags.md "Export and merge tags"), and arbitrary Unicode
 * text.
 */
const SAMPLES = [
  'Ana & Zoë',
  'C++ fan',
  'Ana María',
  '😀🎉 Ünïcødé',
  'مرحبا שלום',
  '李伟',
  '100%',
  'a=b&c',
  '#1 fan',
  "O'Hara",
  '$$! $& $1',
];
const usable = (v: string) =>
  v.trim() !== '' && !isUnfilledMergeTag(v) && Array.from(v).length <= 255;
const anyValue = fc
  .oneof(fc.constantFrom(...SAMPLES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }))
  .filter(usable);
/**
 * What a raw platform (Keap, ManyChat, fixyourfunnel, Custom typed tags) can carry: no `+`
 * (read as a space), `%` (an escape), `#` (a fragment), `&` (a new pair), tab or newline
 * (dropped by URL parsers), nor spaces at the ends (trimmed from a URL's end).
 */
const rawValue = anyValue.filter((v) => !/[+%#&\t\n\r]/.test(v) && v === v.trim());

describe('buildRenderUrl (spec 001 §7)', () => {
  const params: ExportParameter[] = [
    { param_name: 'first_name', merge_tag_value: "{{ first_name|default:'' }}" },
    { param_name: 'city', merge_tag_value: 'Lisboa & Porto' },
    { param_name: 'empty', merge_tag_value: '  ' },
  ];

  it('writes base_url, cache id, /pdf, then the pairs joined by &', () => {
    expect(
      buildRenderUrl({
        base_url: `${BASE}/`,
        cacheId: 'v3',
        pdf: true,
        provider: 'klaviyo',
        parameters: params,
      }),
    ).toBe(
      `${BASE}/v3/pdf?first_name={{ first_name|default:''|urlencode }}&city=Lisboa%20%26%20Porto`,
    );
    expect(buildRenderUrl({ base_url: BASE, provider: 'klaviyo', parameters: [] })).toBe(BASE);
  });

  it('starts ManyChat URLs with __format=manychat_json', () => {
    expect(
      buildRenderUrl({
        base_url: BASE,
        provider: 'manychat',
        parameters: [{ param_name: 'first_name', merge_tag_value: '{{first_name}}' }],
      }),
    ).toBe(`${BASE}?__format=manychat_json&first_name={{first_name}}`);
  });

  it('gives fixyourfunnel txt= only, and appends dynamic-sticker parameters', () => {
    expect(
      buildRenderUrl({
        base_url: BASE,
        provider: 'fixyourfunnel',
        parameters: [param('first_name', '{first_name}'), param('last_name', '{last_name}')],
        stickers: [param('qrCode1', 'https://shop.example.com/?a=1')],
      }),
    ).toBe(`${BASE}?txt={first_name}&qrCode1=https%3A%2F%2Fshop.example.com%2F%3Fa%3D1`);
  });

  it('sends a repeated parameter name once, with its first value', () => {
    expect(
      buildRenderUrl({
        base_url: BASE,
        provider: 'infusionsoft',
        parameters: ['', '~Contact.FirstName~', '~Contact.LastName~'].map((v) =>
          param('first_name', v),
        ),
      }),
    ).toBe(`${BASE}?first_name=~Contact.FirstName~`);
  });

  it('refuses the PDF form for web pages and video players (spec 001 §4)', () => {
    for (const provider of ['mywebsite', 'wistia', 'vidalytics']) {
      expect(() => buildRenderUrl({ base_url: BASE, pdf: true, provider, parameters: [] })).toThrow(
        ExportError,
      );
    }
  });
});

describe('round trip: every provider, sample recipient values (docs/export.md)', () => {
  it.each(PROVIDERS.map((p) => [p.label, p] as const))('%s', (_label, provider) => {
    const input: RenderUrlInput = {
      base_url: BASE,
      cacheId: 'v7',
      provider: provider.value,
      parameters: parametersFor(provider),
    };
    const arbitrary = provider.substitution === 'raw' ? rawValue : anyValue;
    fc.assert(
      fc.property(arbitrary, arbitrary, (first, last) => {
        const { query, values, text } = drawnValues(deliver(provider, input, [first, last]), 'v7');
        if (provider.urlForm === 'txt') {
          // One value travels: txt= fills the first parameter.
          expect(query.txt).toBe(first);
          expect(values).toEqual({ first_name: first });
        } else {
          expect(values).toEqual({ first_name: first, last_name: last });
          expect(text).toBe(`${first}|${last}`);
        }
        if (provider.urlForm === 'manychat') expect(query.__format).toBe('manychat_json');
      }),
      { numRuns: 150 },
    );
  });

  it('raw platforms keep spaces and a stray & but lose a + (the render service reads a space)', () => {
    const keap = providerOf('infusionsoft');
    const input: RenderUrlInput = {
      base_url: BASE,
      provider: 'infusionsoft',
      parameters: parametersFor(keap),
    };
    expect(drawnValues(deliver(keap, input, ['Tom & Jerry', 'x'])).values.first_name).toBe(
      'Tom & Jerry',
    );
    expect(drawnValues(deliver(keap, input, ['C++', 'x'])).values.first_name).toBe('C  ');
  });

  it('an unfilled tag (an empty field the platform left) shows the fallback', () => {
    const manychat = providerOf('manychat');
    const input: RenderUrlInput = {
      base_url: BASE,
      provider: 'manychat',
      parameters: parametersFor(manychat),
    };
    const url = new URL(buildRenderUrl(input));
    expect(drawnValues(url).text).toBe('Friend|');
  });
});

describe('HTML, web-tracking and Wistia snippets', () => {
  const input: RenderUrlInput = {
    base_url: BASE,
    provider: 'klaviyo',
    parameters: [
      { param_name: 'first_name', merge_tag_value: "{{ first_name|default:'' }}" },
      { param_name: 'last_name', merge_tag_value: "{{ last_name|default:'' }}" },
    ],
  };

  it('writes the image with & as &amp;, leaving the merge tags intact, aligned and linked', () => {
    const html = buildHtmlSnippet(buildRenderUrl(input), {
      width: 150,
      align: 'right',
      link: 'https://shop.example.com/?a=1&b=2',
    });
    expect(html).toBe(
      `<div style="text-align:right"><a href="https://shop.example.com/?a=1&amp;b=2" target="_blank" rel="noopener">` +
        `<img src="${BASE}?first_name={{ first_name|default:''|urlencode }}&amp;last_name={{ last_name|default:''|urlencode }}" alt="" style="width:100%;height:auto;border:0;display:inline-block"></a></div>`,
    );
    expect(buildHtmlSnippet(BASE, { width: 40 })).toContain('width:40%');
  });

  it('tags the web-tracking image with the parameters and the page names they come from', () => {
    const snippet = buildWebTrackingSnippet(
      {
        base_url: BASE,
        cacheId: 'v2',
        provider: 'mywebsite',
        parameters: [
          { param_name: 'first_name', merge_tag_value: '' },
          { param_name: 'last_name', merge_tag_value: 'lname' },
        ],
      },
      { origin: 'https://cdn.example.com', remember: true },
    );
    expect(snippet).toMatch(
      /^<script src="https:\/\/cdn\.example\.com\/js\/picsnippets\.js\?v=[0-9a-f]{8}"><\/script>\n/,
    );
    expect(snippet).toContain(
      `data-picsnippet="${BASE}/v2" data-picsnippet-params="first_name,last_name:lname" data-picsnippet-remember`,
    );
  });

  it('the script keeps values in localStorage for later pages when asked', () => {
    const storage = new Map<string, string>();
    const attrs = {
      'data-picsnippet': BASE,
      'data-picsnippet-params': 'first_name',
      'data-picsnippet-remember': '',
    };
    runInPage(
      [WEB_TRACKING_SCRIPT],
      'https://shop.example.com/a?first_name=Ana',
      [fakeImage(attrs)],
      storage,
    );
    const later = fakeImage(attrs);
    runInPage([WEB_TRACKING_SCRIPT], 'https://shop.example.com/b', [later], storage);
    expect(later.attrs.src).toBe(`${BASE}?first_name=Ana`);
    const forgetful = fakeImage({
      'data-picsnippet': BASE,
      'data-picsnippet-params': 'first_name',
    });
    runInPage([WEB_TRACKING_SCRIPT], 'https://shop.example.com/b', [forgetful], storage);
    expect(forgetful.attrs.src).toBe(BASE);
  });

  it('the Wistia script sets stillUrl to the render URL filled from the page', () => {
    const script = buildWistiaScript(
      {
        base_url: BASE,
        provider: 'wistia',
        parameters: [{ param_name: 'first_name', merge_tag_value: '' }],
      },
      {
        origin: 'https://cdn.example.com',
        embedCode: '<div class="wistia_embed wistia_async_abc123"></div>',
      },
    );
    const inline = /<script>\n([\s\S]*)<\/script>/.exec(script)![1]!;
    const window = runInPage(
      [WEB_TRACKING_SCRIPT, inline],
      'https://site.example.com/v?first_name=Zoë',
      [],
    );
    expect(window._wq).toEqual([
      { id: 'abc123', options: { stillUrl: `${BASE}?first_name=Zo%C3%AB` } },
    ]);
    expect(() =>
      buildWistiaScript(
        { base_url: BASE, provider: 'wistia', parameters: [] },
        { origin: 'https://cdn.example.com', embedCode: '' },
      ),
    ).toThrow(EXPORT_MESSAGES.embedCodeRequired);
  });
});

describe('the 2× image in the snippets (docs/export.md "Density")', () => {
  it('gives the e-mail image the 1× width attribute', () => {
    expect(buildHtmlSnippet(`${BASE}/v2@2x`, { imageWidth: 600 })).toContain(
      `<img src="${BASE}/v2@2x" width="600" alt=""`,
    );
    expect(buildHtmlSnippet(BASE)).not.toContain(' width="');
  });

  it('offers the web page both densities, and the script fills both from the address', () => {
    const snippet = buildWebTrackingSnippet(
      {
        base_url: BASE,
        cacheId: 'v2',
        format: 'webp',
        provider: 'mywebsite',
        parameters: [{ param_name: 'first_name', merge_tag_value: '' }],
      },
      { origin: 'https://cdn.example.com', dense: true, imageWidth: 600 },
    );
    expect(snippet).toContain(
      `srcset="${BASE}/v2.webp 1x, ${BASE}/v2@2x.webp 2x" data-picsnippet-2x="${BASE}/v2@2x.webp"`,
    );
    expect(snippet).toContain(' width="600"');
    const img = fakeImage({
      'data-picsnippet': `${BASE}/v2.webp`,
      'data-picsnippet-2x': `${BASE}/v2@2x.webp`,
      'data-picsnippet-params': 'first_name',
    });
    runInPage([WEB_TRACKING_SCRIPT], 'https://shop.example.com/a?first_name=Ana, Bo', [img]);
    expect(img.attrs.src).toBe(`${BASE}/v2.webp?first_name=Ana%2C%20Bo`);
    expect(img.attrs.srcset).toBe(
      `${BASE}/v2.webp?first_name=Ana%2C%20Bo 1x, ${BASE}/v2@2x.webp?first_name=Ana%2C%20Bo 2x`,
    );
  });

  it('gives Wistia the 2× still', () => {
    const script = buildWistiaScript(
      { base_url: BASE, cacheId: 'v2', provider: 'wistia', parameters: [] },
      {
        origin: 'https://cdn.example.com',
        embedCode: '<div class="wistia_embed wistia_async_abc123"></div>',
        dense: true,
      },
    );
    expect(script).toContain(`"${BASE}/v2@2x"`);
  });
});

describe('export validations (spec 001 §4, §5; spec 000 §5)', () => {
  it('limits values to 255 characters and checks fixed sticker values by kind', () => {
    const problems = exportProblems({
      base_url: BASE,
      provider: 'klaviyo',
      parameters: [{ param_name: 'first_name', merge_tag_value: 'x'.repeat(256) }],
      stickers: [
        {
          param_name: 'Gravatar1',
          dynamicStickerType: 'gravatar',
          merge_tag_value: 'not-an-email',
        },
        {
          param_name: 'Gravatar2',
          dynamicStickerType: 'gravatar',
          merge_tag_value: "{{ email|default:'' }}",
        },
        {
          param_name: 'hostedIcon1',
          dynamicStickerType: 'hostedImage',
          merge_tag_value: 'https://x.example/a.webp',
        },
        {
          param_name: 'hostedIcon2',
          dynamicStickerType: 'hostedImage',
          merge_tag_value: 'https://x.example/a.txt',
        },
        {
          param_name: 'hostedIcon3',
          dynamicStickerType: 'hostedImage',
          merge_tag_value: 'ftp://x.example/a.png',
        },
        {
          param_name: 'screenIcon1',
          dynamicStickerType: 'screenShot',
          merge_tag_value: 'example.com/page',
        },
      ],
    });
    expect(problems).toEqual({
      first_name: ['Value may not be greater than 255 character!'],
      Gravatar1: ['Invalid email'],
      hostedIcon2: ['Image not found. We support jpg, jpeg, png, gif and svg'],
      hostedIcon3: ['Invalid URL'],
    });
  });

  it('enables Generate by the spec rules', () => {
    const klaviyo = (value: string): RenderUrlInput => ({
      base_url: BASE,
      provider: 'klaviyo',
      parameters: [{ param_name: 'first_name', merge_tag_value: value }],
    });
    expect(canGenerate(klaviyo("{{ first_name|default:'' }}"), { previewLoaded: true })).toBe(true);
    expect(canGenerate(klaviyo("{{ first_name|default:'' }}"), { previewLoaded: false })).toBe(
      false,
    );
    expect(canGenerate(klaviyo(''), { previewLoaded: true })).toBe(false);
    const page = (provider: string): RenderUrlInput => ({
      base_url: BASE,
      provider,
      parameters: [{ param_name: 'a', merge_tag_value: '' }],
    });
    expect(canGenerate(page('mywebsite'), { previewLoaded: false })).toBe(true);
    expect(canGenerate(page('wistia'), { previewLoaded: true })).toBe(false);
    expect(
      canGenerate(page('vidalytics'), { previewLoaded: false, embedCode: '<div>…</div>' }),
    ).toBe(true);
  });

  it.each([
    ['', ''],
    ['   ', ''],
    [' shop.example.com/a ', 'https://shop.example.com/a'],
    ['example.com', 'https://example.com/'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['example.com:8080', 'https://example.com:8080/'],
    ['localhost:3000', 'https://localhost:3000/'],
    ['localhost:3000?utm=1#top', 'https://localhost:3000/?utm=1#top'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['https://shop.example.com/sale?c=1', 'https://shop.example.com/sale?c=1'],
    ['//example.com/x', 'https://example.com/x'],
    ['example.com/a b', 'https://example.com/a%20b'],
    ['bücher.de/katalog', 'https://xn--bcher-kva.de/katalog'],
    ['javascript:alert(1)', undefined],
    ['JavaScript:alert(1)', undefined],
    ['data:text/html,<b>x</b>', undefined],
    ['mailto:ana@example.com', undefined],
    ['tel:+15551234', undefined],
    ['ftp://x', undefined],
    ['exa mple.com', undefined],
    ['https://', undefined],
  ])('normalises the link URL %j to %j', (input, expected) => {
    expect(normaliseLinkUrl(input)).toBe(expected);
  });
});
