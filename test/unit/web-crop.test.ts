/**
 * Live web crops' shared rules (shared/scene/web-crop.ts; docs/web-crops.md): which URL templates
 * are accepted (a value never chooses the site), how a recipient's values fill one, and the
 * settings' messages.
 */
import { describe, expect, it } from 'vitest';
import {
  WEB_CROP_MESSAGES,
  WebCropSchema,
  expandUrlTemplate,
  isUrlTemplate,
} from '#shared/scene/web-crop.ts';

describe('URL templates', () => {
  it('take merge fields after the site’s address only', () => {
    for (const ok of [
      'https://shop.example/p/{{sku}}',
      'https://shop.example/search?q={{ term }}&lang=en',
      'http://127.0.0.1:8080/{{a}}/{{b}}#x',
      'https://shop.example/fixed',
    ])
      expect(isUrlTemplate(ok), ok).toBe(true);
    for (const bad of [
      'https://{{host}}/p',
      'https://shop.example{{path}}',
      'https://shop.{{tld}}/p',
      '{{url}}',
      'javascript:alert(1)//{{x}}',
      'ftp://shop.example/{{x}}',
      `https://shop.example/${'a'.repeat(2048)}`,
    ])
      expect(isUrlTemplate(bad), bad).toBe(false);
  });

  it('fill each field with its value as one encoded URL part', () => {
    expect(
      expandUrlTemplate('https://shop.example/p/{{sku}}?c={{city}}', {
        sku: ' A/12?x#y ',
        city: 'São Paulo',
      }),
    ).toBe('https://shop.example/p/A%2F12%3Fx%23y?c=S%C3%A3o%20Paulo');
    expect(
      expandUrlTemplate('https://shop.example/p/{{sku}}', { sku: 'x'.repeat(300) })!.length,
    ).toBe('https://shop.example/p/'.length + 255);
  });

  it('keep a hostile value inside its own part: never another site, port or path', () => {
    const template = 'https://shop.example/api/p/{{sku}}/details?c={{city}}';
    for (const sku of [
      '../../admin',
      '..%2f..%2fadmin',
      '%2e%2e',
      '..\\admin',
      '@evil.example',
      '\\\\evil.example',
      '//evil.example:8080/x',
      'http://169.254.169.254/latest',
      '１２７．０．０．１',
      '[::1]',
      '0x7f000001',
      '0177.0.0.1',
      '2130706433',
      '．．',
    ]) {
      const url = new URL(expandUrlTemplate(template, { sku, city: '..' })!);
      expect(url.origin, sku).toBe('https://shop.example');
      expect(url.pathname, sku).toMatch(/^\/api\/p\/[^/]+\/details$/);
    }
  });

  it('give nothing for a value that would be a `.` or `..` segment of the path', () => {
    const template = 'https://shop.example/api/p/{{sku}}/details';
    for (const sku of ['..', '.', ' .. '])
      expect(expandUrlTemplate(template, { sku }), sku).toBeUndefined();
    // Two fields in one segment that make `..` together.
    expect(
      expandUrlTemplate('https://shop.example/api/{{a}}{{b}}/x', { a: '.', b: '.' }),
    ).toBeUndefined();
    expect(expandUrlTemplate('https://shop.example/api/%2E{{a}}/x', { a: '.' })).toBeUndefined();
    // Dots inside a longer value, or in the query, are the value's own.
    expect(expandUrlTemplate(template, { sku: 'a..b' })).toBe(
      'https://shop.example/api/p/a..b/details',
    );
    expect(expandUrlTemplate('https://shop.example/p?q={{q}}', { q: '..' })).toBe(
      'https://shop.example/p?q=..',
    );
    // The team's own template may hold dot segments of its own.
    expect(expandUrlTemplate('https://shop.example/a/../p/{{sku}}', { sku: 'x' })).toBe(
      'https://shop.example/a/../p/x',
    );
  });

  it('give nothing when a field has no usable value', () => {
    expect(expandUrlTemplate('https://shop.example/p/{{sku}}', {})).toBeUndefined();
    expect(expandUrlTemplate('https://shop.example/p/{{sku}}', { sku: ' ' })).toBeUndefined();
    expect(expandUrlTemplate('https://shop.example/p/{{sku}}', { sku: '{{sku}}' })).toBeUndefined();
  });
});

describe('crop settings', () => {
  const problems = (input: unknown) => {
    const parsed = WebCropSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  };

  it('need a selector, a safe template and a refresh from a minute to a day', () => {
    expect(problems({ selector: '#price' })).toEqual([]);
    expect(WebCropSchema.parse({ selector: ' #price ' })).toEqual({
      selector: '#price',
      url_template: null,
      refresh_s: 3600,
    });
    expect(problems({ selector: '' })).toEqual([WEB_CROP_MESSAGES.selector]);
    expect(problems({ selector: 'a\nb' })).toEqual([WEB_CROP_MESSAGES.selector]);
    expect(problems({ selector: 'x'.repeat(201) })).toEqual([WEB_CROP_MESSAGES.selector]);
    expect(problems({ selector: 'a', url_template: 'https://{{h}}/' })).toEqual([
      WEB_CROP_MESSAGES.template,
    ]);
    expect(problems({ selector: 'a', refresh_s: 59 })).toEqual([WEB_CROP_MESSAGES.refresh]);
    expect(problems({ selector: 'a', refresh_s: 86_401 })).toEqual([WEB_CROP_MESSAGES.refresh]);
  });
});
