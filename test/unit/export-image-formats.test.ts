/**
 * WebP and AVIF on the export screen (docs/export.md "Image formats"): a web page or video
 * player's render URL ends in `.webp` or `.avif` when chosen, an e-mail platform's never does,
 * a countdown design keeps its `.gif`, and the render reads the extension back.
 */
import { describe, expect, it } from 'vitest';
import { buildRenderUrl } from '#shared/export-url.ts';
import { parseRenderPath } from '#shared/render-url.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import { urlInput } from '../../web/src/features/export/model.ts';

const design = (graphics: unknown[] = []) =>
  toExportDesign({
    id: 'd1',
    title: 'Sale',
    base_url: 'https://cdn.example/r/abc',
    graphics_data: graphics,
    text_snippets: [],
  });

describe('image formats on the export screen', () => {
  it('ends a web page’s and a video player’s URL in the chosen format', () => {
    expect(buildRenderUrl(urlInput(design(), 'mywebsite', [], false, 'v7', 'webp'))).toBe(
      'https://cdn.example/r/abc/v7.webp',
    );
    expect(buildRenderUrl(urlInput(design(), 'wistia', [], false, null, 'avif'))).toBe(
      'https://cdn.example/r/abc.avif',
    );
    expect(buildRenderUrl(urlInput(design(), 'mywebsite', [], false, 'v7', 'jpeg'))).toBe(
      'https://cdn.example/r/abc/v7',
    );
    expect(parseRenderPath('/r/abc/v7.webp')).toEqual({
      publicId: 'abc',
      cacheId: 'v7',
      format: 'webp',
    });
  });

  it('never gives an e-mail platform WebP or AVIF, nor a countdown design', () => {
    expect(buildRenderUrl(urlInput(design(), 'klaviyo', [], false, 'v7', 'webp'))).toBe(
      'https://cdn.example/r/abc/v7',
    );
    const timed = design([
      {
        uuid: 't',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'countdown',
        dynamicStickerParamName: 'countdownt',
        dynamicStickerUrl: '',
        countdown: { mode: 'fixed', frames: 10 },
      },
    ]);
    expect(buildRenderUrl(urlInput(timed, 'mywebsite', [], false, 'v7', 'avif'))).toBe(
      'https://cdn.example/r/abc/v7.gif',
    );
  });
});
