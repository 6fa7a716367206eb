/**
 * A countdown design on the export screen (docs/adr/0058-countdown-timers.md "Countdown timers"):
 * its render URL ends in `.gif` (the animated GIF it answers), the render reads that path, and only
 * an evergreen timer asks for a value (its start).
 */
import { describe, expect, it } from 'vitest';
import { buildRenderUrl } from '#shared/export-url.ts';
import { parseRenderPath } from '#shared/render-url.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';
import { exportRows, urlInput } from '../../web/src/features/export/model.ts';

const timer = (uuid: string, mode: 'fixed' | 'evergreen', frames: number) => ({
  uuid,
  stickerType: 'dynamicSticker',
  dynamicStickerType: 'countdown',
  dynamicStickerParamName: `countdown${uuid}`,
  dynamicStickerUrl: '',
  countdown: { mode, frames },
});

const answer = (graphics: unknown[]) => ({
  id: 'd1',
  title: 'Sale',
  base_url: 'https://cdn.example/r/abc',
  graphics_data: graphics,
  text_snippets: [],
});

describe('a countdown design on the export screen', () => {
  it('has a .gif render URL, with or without a cache id, and a still for PDF', () => {
    const design = toExportDesign(answer([timer('1', 'fixed', 12), timer('2', 'evergreen', 40)]));
    expect(design.timer_frames).toBe(40);
    const rows = exportRows(design);
    // The fixed timer reads no value; the evergreen one reads its start.
    expect(rows.map((r) => r.param_name)).toEqual(['countdown2']);
    expect(buildRenderUrl(urlInput(design, null, [], false))).toBe('https://cdn.example/r/abc.gif');
    expect(buildRenderUrl(urlInput(design, null, rows, false, 'v7'))).toBe(
      'https://cdn.example/r/abc/v7.gif',
    );
    expect(buildRenderUrl(urlInput(design, null, [], true))).toBe('https://cdn.example/r/abc/pdf');
  });

  it('asks no value for a timer that counts from the first open', () => {
    const firstOpen = {
      ...timer('3', 'evergreen', 30),
      countdown: { mode: 'evergreen', start: 'first_open', frames: 30 },
    };
    const rows = exportRows(toExportDesign(answer([timer('2', 'evergreen', 30), firstOpen])));
    expect(rows.map((r) => r.param_name)).toEqual(['countdown2']);
  });

  it('keeps a design without a timer as it was', () => {
    const design = toExportDesign(answer([]));
    expect(design.timer_frames).toBeNull();
    expect(buildRenderUrl(urlInput(design, null, [], false))).toBe('https://cdn.example/r/abc');
  });

  it('is read back by the render: .gif leaves the format to the design (a GIF for a timer)', () => {
    expect(parseRenderPath('/r/abc.gif')).toEqual({ publicId: 'abc' });
    expect(parseRenderPath('/r/abc/v7.gif')).toEqual({ publicId: 'abc', cacheId: 'v7' });
    expect(parseRenderPath('/r/abc.png')).toEqual({ publicId: 'abc', format: 'png' });
  });
});
