/**
 * Which sticker images a render may read from the assets bucket: public files only
 * (shared/resources.ts `publicFileKey`).
 */
import { describe, expect, it } from 'vitest';
import { publicFileKey } from '#shared/resources.ts';

describe('publicFileKey', () => {
  it.each([
    ['files/stickers/party/cake.png', 'files/stickers/party/cake.png'],
    ['/files/uploads/team-demo/3f2a.png', 'files/uploads/team-demo/3f2a.png'],
  ])('draws the public file %s', (url, key) => {
    expect(publicFileKey(url)).toBe(key);
  });

  it.each([
    'static/design-demo-welcome/v3.png',
    'renders/demo-welcome.jpg',
    'files/../static/x.png',
    'files/stickers/../../static/x.png',
    'https://example.com/x.png',
    '//files/x.png',
    'files/x.png?y=1',
  ])('refuses %s', (url) => {
    expect(publicFileKey(url)).toBeNull();
  });
});
