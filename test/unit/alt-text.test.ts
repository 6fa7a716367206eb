/**
 * Alt text per recipient (shared/alt-text.ts; docs/export.md "Alt text"): the design's template
 * or its texts joined, resolved with values and fallbacks as the render draws them, and written
 * into each platform's merge-tag syntax with its fallback where the syntax has one; escaped in
 * the HTML snippet.
 */
import { describe, expect, it } from 'vitest';
import {
  altTemplate,
  exportAltText,
  MAX_ALT_TEXT_LENGTH,
  resolveAltText,
} from '#shared/alt-text.ts';
import { buildHtmlSnippet } from '#shared/export-url.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import { exportAlt, exportRows } from '../../web/src/features/export/model.ts';

const parameters = [
  { param_name: 'first_name', merge_tag_value: '', fallback: 'friend' },
  { param_name: 'city', merge_tag_value: '', fallback: '' },
];
const withTag = (first: string, city = '') => [
  { ...parameters[0]!, merge_tag_value: first },
  { ...parameters[1]!, merge_tag_value: city },
];
const TEMPLATE = 'Hello {{first_name}}, sale in {{ city }}!';

describe('the template', () => {
  it('is the design’s own, else its texts joined, tidied and bounded', () => {
    expect(altTemplate({ alt_text: '  Hi  {{first_name}} ', text_snippets: [{ text: 'x' }] })).toBe(
      'Hi {{first_name}}',
    );
    expect(
      altTemplate({
        alt_text: null,
        text_snippets: [{ text: 'Hello {{first_name}}!' }, { text: ' ' }, { text: '20%\noff' }],
      }),
    ).toBe('Hello {{first_name}}! · 20% off');
    expect(altTemplate({ alt_text: '', text_snippets: [] })).toBe('');
    expect(altTemplate({ alt_text: 'x'.repeat(900), text_snippets: [] }).length).toBe(
      MAX_ALT_TEXT_LENGTH,
    );
  });

  it('resolves with a recipient’s values, else the fallbacks', () => {
    expect(resolveAltText(TEMPLATE, { first_name: 'Ana', city: 'Lyon' }, {})).toBe(
      'Hello Ana, sale in Lyon!',
    );
    expect(
      resolveAltText(TEMPLATE, { first_name: '  ' }, { first_name: 'friend', city: ' ' }),
    ).toBe('Hello friend, sale in !');
    expect(resolveAltText('{{unknown}} deal', {}, {})).toBe('deal');
  });
});

describe('the export per platform', () => {
  it('writes Klaviyo’s tags with the fallback', () => {
    expect(
      exportAltText(
        TEMPLATE,
        'klaviyo',
        withTag("{{ first_name|default:'' }}", "{{ city|default:'' }}"),
      ),
    ).toBe("Hello {{ first_name|default:'friend' }}, sale in {{ city|default:'' }}!");
  });

  it('writes Shopify’s Liquid tags with the fallback', () => {
    expect(
      exportAltText(TEMPLATE, 'shopify', withTag("{{ customer.first_name | default: '' }}")),
    ).toBe("Hello {{ customer.first_name | default: 'friend' }}, sale in !");
  });

  it('writes Keap’s and ManyChat’s tags, which have no fallback syntax', () => {
    expect(exportAltText(TEMPLATE, 'infusionsoft', withTag('~Contact.FirstName~'))).toBe(
      'Hello ~Contact.FirstName~, sale in !',
    );
    expect(exportAltText(TEMPLATE, 'manychat', withTag('{{first_name}}'))).toBe(
      'Hello {{first_name}}, sale in !',
    );
  });

  it('leaves a fallback with a quote out of the tag rather than break it', () => {
    const quoted = [
      {
        param_name: 'first_name',
        merge_tag_value: "{{ first_name|default:'' }}",
        fallback: "O'Neil",
      },
    ];
    expect(exportAltText('Hi {{first_name}}', 'klaviyo', quoted)).toBe(
      "Hi {{ first_name|default:'' }}",
    );
  });

  it('writes typed text as typed, and the fallback without a choice', () => {
    expect(exportAltText(TEMPLATE, 'klaviyo', withTag('Dear reader'))).toBe(
      'Hello Dear reader, sale in !',
    );
    expect(exportAltText(TEMPLATE, '', withTag('*|FNAME|*'))).toBe('Hello *|FNAME|*, sale in !');
    expect(exportAltText(TEMPLATE, 'klaviyo', parameters)).toBe('Hello friend, sale in !');
  });

  it('writes the fallbacks for a web page, whose values are in its own address', () => {
    expect(exportAltText(TEMPLATE, 'mywebsite', withTag('?first_name'))).toBe(
      'Hello friend, sale in !',
    );
  });

  it('is escaped in the HTML snippet while the platform still finds its tags', () => {
    const alt = exportAltText(
      '{{first_name}} & "friends" <3',
      'klaviyo',
      withTag("{{ first_name|default:'' }}"),
    );
    expect(buildHtmlSnippet('https://x/r/a', { alt })).toContain(
      `alt="{{ first_name|default:'friend' }} &amp; &quot;friends&quot; &lt;3"`,
    );
  });
});

describe('the export screen’s alt text', () => {
  it('reads the design as the API answers it, and writes its rows’ tags and fallbacks', () => {
    const design = toExportDesign({
      id: 'design-1',
      title: 'Spring',
      text_snippets: [
        {
          text: 'Hello {{first_name}}!',
          parameters: [{ id: 'p1', param_name: 'first_name', param_default_value: 'friend' }],
        },
      ],
      alt_text: null,
    });
    const rows = exportRows(design).map((row) => ({
      ...row,
      merge_tag_value: "{{ first_name|default:'' }}",
    }));
    expect(exportAlt(design, 'klaviyo', rows)).toBe("Hello {{ first_name|default:'friend' }}!");
    expect(
      exportAlt({ ...design, alt_text: 'Sale for {{first_name}}' }, 'shopify', exportRows(design)),
    ).toBe('Sale for friend');
  });
});
