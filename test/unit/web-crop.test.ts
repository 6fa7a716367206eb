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
