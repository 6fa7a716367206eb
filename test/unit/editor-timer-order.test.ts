/**
 * The editor draws countdown timers in the design's layer order, as the render does
 * (docs/editor.md "Countdown timer"; shared/scene/bands.ts `sceneBands`): a sticker over a timer
 * is drawn over its digits, one under it and the timer's own dashed box under them, every text
 * over all timers.
 */
import { describe, expect, it } from 'vitest';
import { restoreDesign } from '../../shared/design.ts';
import { sceneBands } from '../../shared/scene/bands.ts';
import type { ResolvedScene } from '../../shared/scene/resolve.ts';
import { stackOrder, timerLayerGroups } from '../../web/src/features/editor/canvas/countdown.ts';
import { countdownSticker, layerSticker } from '../support/countdown.ts';

const NOW = Date.UTC(2030, 4, 10, 8, 20, 30);

const sticker = layerSticker;

/** A design: sticker `under`, timer `t1`, sticker `between`, timer `t2`, sticker `over`. */
function design() {
  const timer = { mode: 'fixed', deadline: '2030-05-12T11:24:35', timeZone: 'UTC' };
  return restoreDesign({
    image_id: 'i',
    base_image_key: 'k',
    graphics_data: [
      sticker('under'),
      countdownSticker(timer, { uuid: 't1' }),
      sticker('between'),
      countdownSticker(timer, { uuid: 't2', top: 300 }),
      sticker('over'),
    ],
  }).document;
}

/** The scene the editor draws: each sticker's image (the timers' dashed boxes too), one text. */
function scene(): ResolvedScene {
  const image = (id: string) => ({ id, left: 0, top: 0, width: 1, height: 1, angle: 0, src: '' });
  return {
    width: 900,
    height: 600,
    images: ['under', 't1', 'between', 't2', 'over'].map(image),
    texts: [{ id: 'hello' } as ResolvedScene['texts'][number]],
  };
}

/** The drawing order as names: object keys, and `timer t1` for a timer's digits. */
function named(keys: (string | null)[], timers: string[]) {
  const bands = sceneBands(design(), scene());
  return stackOrder(bands, keys).map((step) =>
    step.kind === 'object' ? keys[step.index] : `timer ${timers[step.index]}`,
  );
}

describe("the editor's timer order", () => {
  it('draws each timer over the stickers under it and under the ones over it, texts on top', () => {
    const keys = [
      'sticker:under',
      'sticker:t1',
      'sticker:between',
      'sticker:t2',
      'sticker:over',
      'snippet:hello',
    ];
    expect(named(keys, ['t1', 't2'])).toEqual([
      'sticker:under',
      'sticker:t1',
      'timer t1',
      'sticker:between',
      'sticker:t2',
      'timer t2',
      'sticker:over',
      'snippet:hello',
    ]);
  });

  it('draws every timer once, even with no object over it, and an unknown object on top', () => {
    expect(named(['sticker:under', null], ['t1', 't2'])).toEqual([
      'sticker:under',
      'timer t1',
      'timer t2',
      null,
    ]);
    expect(named([], ['t1', 't2'])).toEqual(['timer t1', 'timer t2']);
  });

  it('lays the timers out in the same z-order, one group of layers per timer', () => {
    const groups = timerLayerGroups(design(), NOW, NOW);
    expect(groups).toHaveLength(2);
    expect(groups.map((layers) => layers[0]!.id.split(':')[0])).toEqual(['t1', 't2']);
    // Both count to the same deadline: the same digits, the second timer 300 px lower.
    expect(groups[1]!.map((l) => l.text)).toEqual(groups[0]!.map((l) => l.text));
    expect(groups[1]![0]!.top - groups[0]![0]!.top).toBe(300);
  });
});
