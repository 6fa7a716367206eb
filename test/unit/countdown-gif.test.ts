/**
 * The render's countdown rules that need no browser (functions/render/countdown-gif.ts;
 * docs/adr/0058-countdown-timers.md "Countdown timers"): the test clock header is honoured only
 * under STAGE=test, the frame count keeps within the pixel cap, and the cache key's values hold the
 * seconds left instead of an evergreen timer's start parameter.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_GIF_PIXELS,
  TEST_NOW_HEADER,
  gifFrameCount,
  testClock,
  timerKeyValues,
} from '../../functions/render/countdown-gif.ts';
import { restoreDesign, type DesignDocument } from '../../shared/design.ts';
import { countdownSticker } from '../support/countdown.ts';

function design(
  countdown: Record<string, unknown>,
  over: Record<string, unknown> = {},
  sticker: Record<string, unknown> = {},
): DesignDocument {
  return restoreDesign({
    image_id: 'i',
    base_image_key: 'k',
    canvas_width: 600,
    canvas_height: 200,
    text_snippets: [],
    graphics_data: [countdownSticker(countdown, { uuid: 't', ...sticker })],
    ...over,
  }).document;
}

describe('test clock', () => {
  it('is read only under STAGE=test', () => {
    const headers = { [TEST_NOW_HEADER]: '2030-01-01T00:00:00Z' };
    expect(testClock(headers, 'test')).toEqual({ nowMs: Date.parse('2030-01-01T00:00:00Z') });
    expect(testClock({ [TEST_NOW_HEADER]: '1000' }, 'test')).toEqual({ nowMs: 1000 });
    expect(testClock(headers, 'aws')).toEqual({});
    expect(testClock(headers, 'local')).toEqual({});
    expect(testClock({ [TEST_NOW_HEADER]: 'soon' }, 'test')).toEqual({});
    expect(testClock(undefined, 'test')).toEqual({});
  });
});

describe('frame count', () => {
  it("takes the design's frames, fewer past the pixel cap, never none", () => {
    expect(gifFrameCount(design({}))).toBe(30);
    expect(gifFrameCount(design({ frames: 60 }))).toBe(60);
    const tall = design({ frames: 60 }, { canvas_width: 1056, canvas_height: 4096 });
    expect(gifFrameCount(tall)).toBe(Math.floor(MAX_GIF_PIXELS / (1056 * 4096)));
    expect(gifFrameCount(tall) * 1056 * 4096).toBeLessThanOrEqual(MAX_GIF_PIXELS);
    expect(gifFrameCount(design({}, { canvas_width: 900, canvas_height: 600 }))).toBe(30);
  });
});

describe('cache key values', () => {
  const now = Date.parse('2030-01-01T00:00:00.400Z');

  it('gives every recipient of a fixed timer the same values within a second, new ones the next', () => {
    const doc = design({ deadline: '2030-01-02T00:00', timeZone: 'UTC' });
    const a = timerKeyValues(doc, [], now);
    expect(timerKeyValues(doc, [], now + 500)).toEqual(a);
    expect(timerKeyValues(doc, [], now + 1000)).not.toEqual(a);
    expect(a.at(-1)).toEqual(['\u0000timer', '30:86400']);
  });

  it("replaces an evergreen timer's start by the time left, keeping other values", () => {
    const doc = design(
      { mode: 'evergreen', durationSeconds: 3600 },
      {},
      { dynamicStickerParamName: 'countdown1' },
    );
    const at = (start: string) =>
      timerKeyValues(
        doc,
        [
          ['countdown1', start],
          ['first_name', 'Ana'],
        ],
        now,
      );
    expect(at('2029-12-31T23:30:00Z')).toEqual(at('2030-01-01T00:30:00+01:00'));
    expect(at('2029-12-31T23:30:00Z')).toEqual([
      ['first_name', 'Ana'],
      ['\u0000timer', '30:1800'],
    ]);
    expect(at('2029-12-31T23:40:00Z')).not.toEqual(at('2029-12-31T23:30:00Z'));
  });

  it('keeps the values of a design without timers as they are', () => {
    const doc = restoreDesign({ image_id: 'i', base_image_key: 'k' }).document;
    const values: Array<[string, string]> = [['first_name', 'Ana']];
    expect(timerKeyValues(doc, values, now)).toBe(values);
  });
});
