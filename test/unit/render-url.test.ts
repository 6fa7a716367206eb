import { describe, expect, it } from 'vitest';
import {
  decodeComponent,
  densePath,
  parseRenderPath,
  parseRenderQuery,
  renderPath,
} from '#shared/render-url.ts';

describe('parseRenderPath (spec 001 §7)', () => {
  it.each([
    ['/r/demo-welcome', { publicId: 'demo-welcome' }],
    ['/r/demo-welcome.jpg', { publicId: 'demo-welcome', format: 'jpeg' }],
    ['/r/demo-welcome.JPEG', { publicId: 'demo-welcome', format: 'jpeg' }],
    ['/r/demo-welcome.png', { publicId: 'demo-welcome', format: 'png' }],
    ['/r/demo-welcome/v7', { publicId: 'demo-welcome', cacheId: 'v7' }],
    ['/r/demo-welcome/v7.png', { publicId: 'demo-welcome', cacheId: 'v7', format: 'png' }],
    ['/r/demo-welcome/pdf', { publicId: 'demo-welcome', format: 'pdf' }],
    ['/r/demo-welcome/v7/pdf', { publicId: 'demo-welcome', cacheId: 'v7', format: 'pdf' }],
    ['/r/demo-welcome/v7/pdf.pdf', { publicId: 'demo-welcome', cacheId: 'v7', format: 'pdf' }],
    // docs/export.md "Image formats": by the extension only.
    ['/r/demo-welcome.webp', { publicId: 'demo-welcome', format: 'webp' }],
    ['/r/demo-welcome/v7.AVIF', { publicId: 'demo-welcome', cacheId: 'v7', format: 'avif' }],
  ])('%s', (path, expected) => {
    expect(parseRenderPath(path)).toEqual(expected);
  });

  it.each(['/x/demo', '/r/', '/r/a/b/c/d', '/r/bad%20id', '/r/../etc', '/r/a/b/c'])(
    'refuses %s',
    (path) => {
      expect(parseRenderPath(path)).toBeUndefined();
    },
  );
});

describe('density in the render path (docs/export.md "Density")', () => {
  it.each([
    ['/r/demo-welcome@2x.jpg', { publicId: 'demo-welcome', format: 'jpeg', density: 2 }],
    ['/r/demo-welcome@3x.png', { publicId: 'demo-welcome', format: 'png', density: 3 }],
    ['/r/demo-welcome@2x', { publicId: 'demo-welcome', density: 2 }],
    ['/r/demo-welcome@1x.jpg', { publicId: 'demo-welcome', format: 'jpeg' }],
    ['/r/demo-welcome@2x.webp', { publicId: 'demo-welcome', format: 'webp', density: 2 }],
    ['/r/demo-welcome@2x.avif', { publicId: 'demo-welcome', format: 'avif', density: 2 }],
    [
      '/r/demo-welcome/v7@2x.jpg',
      { publicId: 'demo-welcome', cacheId: 'v7', format: 'jpeg', density: 2 },
    ],
    ['/r/demo-welcome/v7@3x', { publicId: 'demo-welcome', cacheId: 'v7', density: 3 }],
    [
      '/r/demo-welcome/v7@2x.pdf',
      { publicId: 'demo-welcome', cacheId: 'v7', format: 'pdf', density: 2 },
    ],
    ['/r/demo-welcome@2x.gif', { publicId: 'demo-welcome', density: 2 }],
  ])('%s', (path, expected) => {
    expect(parseRenderPath(path)).toEqual(expected);
  });

  it.each([
    '/r/demo-welcome@4x.jpg',
    '/r/demo-welcome@2.jpg',
    '/r/demo-welcome@2x@2x.jpg',
    '/r/demo@2x/v7.jpg',
    '/r/@2x.jpg',
    '/r/demo-welcome.jpg@2x',
  ])('refuses %s', (path) => {
    expect(parseRenderPath(path)).toBeUndefined();
  });

  it.each([
    ['/r/k3f9a2.jpg', '/r/k3f9a2@2x.jpg'],
    ['/r/k3f9a2/v7.png?first_name=Ana', '/r/k3f9a2/v7@2x.png?first_name=Ana'],
    ['https://cdn.example.com/r/k3f9a2/v7', 'https://cdn.example.com/r/k3f9a2/v7@2x'],
    ['/r/k3f9a2/v7/pdf?a=1.5', '/r/k3f9a2/v7@2x.pdf?a=1.5'],
    ['/r/k3f9a2@3x.jpg', '/r/k3f9a2@3x.jpg'],
  ])('densePath(%s) is %s, and reads back', (path, dense) => {
    expect(densePath(path, 2)).toBe(dense);
    const bare = dense.replace(/^https:\/\/[^/]+/, '').split('?')[0]!;
    expect(parseRenderPath(bare)?.density).toBe(dense.includes('@3x') ? 3 : 2);
  });

  it('densePath at 1× is the path', () => {
    expect(densePath('/r/k3f9a2.jpg', 1)).toBe('/r/k3f9a2.jpg');
  });
});

describe('parseRenderQuery: values arrive raw from platforms', () => {
  it('reads + as a space and decodes escapes', () => {
    expect(parseRenderQuery('first_name=Ana+Mar%C3%ADa')).toEqual({ first_name: 'Ana María' });
  });

  it('never fails on a malformed escape', () => {
    expect(parseRenderQuery('first_name=100%&x=%E0%A4%A')).toEqual({
      first_name: '100%',
      x: '%E0%A4%A',
    });
    expect(decodeComponent('%ZZ%41')).toBe('%ZZA');
  });

  it('glues a stray & back onto the value it split', () => {
    expect(parseRenderQuery('company=Tom%20&%20Jerry&first_name=Ana')).toEqual({
      company: 'Tom & Jerry',
      first_name: 'Ana',
    });
  });

  it('treats __proto__ as an ordinary name', () => {
    const q = parseRenderQuery('__proto__=x&a=1');
    expect(q.a).toBe('1');
    expect(Object.getPrototypeOf(q)).toBeNull();
  });

  it('keeps emoji, RTL and CJK intact', () => {
    const value = 'Zoë 😀 李伟 مرحبا שלום';
    expect(parseRenderQuery(`n=${encodeURIComponent(value)}`)).toEqual({ n: value });
  });
});

describe('renderPath: what the SPA builds, the render service reads back', () => {
  it('percent-encodes keys and values (a space is %20) and parses back to the same values', () => {
    const values = { first_name: 'Zoë & Ana', 'a+b': '50% off', empty: '' };
    const path = renderPath('demo-welcome.png', values);
    expect(path).toBe(
      '/r/demo-welcome.png?first_name=Zo%C3%AB%20%26%20Ana&a%2Bb=50%25%20off&empty=',
    );
    const [pathname, query] = path.split('?');
    expect(parseRenderPath(pathname!)).toEqual({ publicId: 'demo-welcome', format: 'png' });
    expect({ ...parseRenderQuery(query!) }).toEqual(values);
    expect(renderPath('demo-welcome', {})).toBe('/r/demo-welcome');
  });
});
