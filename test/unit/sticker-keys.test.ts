/**
 * Which sticker images a render may read from the assets bucket: public files only
 * (functions/render/stickers.ts `stickerAssetKey`).
 */
import { describe, expect, it } from 'vitest';
import { stickerAssetKey } from '#functions/render/stickers.ts';

describe('stickerAssetKey', () => {
  it.each([
    ['files/stickers/party/cake.png', 'files/stickers/party/cake.png'],
    ['/files/uploads/team-demo/3f2a.png', 'files/uploads/team-demo/3f2a.png'],
  ])('draws the public file %s', (url, key) => {
    expect(stickerAssetKey(url)).toBe(key);
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
    expect(stickerAssetKey(url)).toBeNull();
  });
});
