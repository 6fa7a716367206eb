/**
 * Polls' shared rules (shared/scene/poll.ts; docs/polls.md): the settings' checks and messages,
 * whole percentages that add up to 100, the counts the render passes, the layout both the editor
 * and the render draw, and the closing time in the poll's zone.
 */
import { describe, expect, it } from 'vitest';
import {
  POLL_MESSAGES,
  POLL_RESULTS_VALUE,
  PollSchema,
  formatPollCounts,
  newPoll,
  parsePollCounts,
  pollBarsSvg,
  pollClosed,
  pollLayers,
  pollPercentages,
  pollStickerDrawing,
  tallyCounts,
} from '#shared/scene/poll.ts';
import { DesignDocumentSchema } from '#shared/design.ts';

const messages = (input: unknown): string[] => {
  const parsed = PollSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('poll settings', () => {
  it('need 2 to 6 labelled options with http(s) links or none', () => {
    expect(messages({ options: [{ label: 'Yes' }] })).toEqual([POLL_MESSAGES.options]);
    expect(messages({ options: Array(7).fill({ label: 'x' }) })).toEqual([POLL_MESSAGES.options]);
    expect(messages({ options: [{ label: ' ' }, { label: 'No' }] })).toEqual([POLL_MESSAGES.label]);
    expect(
      messages({ options: [{ label: 'Yes', url: 'javascript:alert(1)' }, { label: 'No' }] }),
    ).toEqual([POLL_MESSAGES.url]);
    expect(messages({ ...newPoll(), question: 'q'.repeat(121) })).toEqual([POLL_MESSAGES.question]);
    expect(messages({ ...newPoll(), closes_at: '2030-02-30T25:00' })).toEqual([
      POLL_MESSAGES.closes,
    ]);
    expect(messages({ ...newPoll(), results_ttl_s: 5 })).toEqual([POLL_MESSAGES.ttl]);
    expect(messages({ ...newPoll(), voter_parameter: 'e mail' })).toEqual([POLL_MESSAGES.voter]);
    expect(messages(newPoll())).toEqual([]);
  });

  it('allow one poll per design', () => {
    const sticker = (uuid: string) => ({
      uuid,
      stickerType: 'dynamicSticker',
      dynamicStickerType: 'poll',
      left: 0,
      top: 0,
      width: 600,
      height: 400,
      scaleX: 1,
      scaleY: 1,
      poll: newPoll(),
    });
    const base = { canvas_width: 1000, canvas_height: 625, image_id: 'i', base_image_key: 'k' };
    expect(DesignDocumentSchema.safeParse({ ...base, graphics_data: [sticker('a')] }).success).toBe(
      true,
    );
    const two = DesignDocumentSchema.safeParse({
      ...base,
      graphics_data: [sticker('a'), sticker('b')],
    });
    expect(two.success).toBe(false);
    expect(two.error?.issues.map((i) => i.message)).toContain('A design may have one poll.');
  });

  it('close at the wall time in their zone', () => {
    const poll = PollSchema.parse({
      ...newPoll(),
      closes_at: '2030-06-01T09:00',
      time_zone: 'Europe/Paris',
    });
    const at = Date.parse('2030-06-01T07:00:00Z');
    expect(pollClosed(poll, at - 1)).toBe(false);
    expect(pollClosed(poll, at)).toBe(true);
    expect(pollClosed(newPoll(), Date.parse('2099-01-01'))).toBe(false);
  });
});

describe('poll results', () => {
  it('are whole percentages adding up to 100, largest remainders first', () => {
    expect(pollPercentages([1, 2])).toEqual([33, 67]);
    expect(pollPercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(pollPercentages([0, 0])).toEqual([0, 0]);
    expect(pollPercentages([5, -3, Number.NaN])).toEqual([100, 0, 0]);
    for (const counts of [
      [7, 3, 1],
      [1, 1, 1, 1, 1, 1],
      [999, 1],
      [2, 2, 3, 5, 8, 13],
    ])
      expect(pollPercentages(counts).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('travel in the render’s own value, never settable by a URL parameter', () => {
    expect(POLL_RESULTS_VALUE.startsWith('\u0000')).toBe(true);
    expect(formatPollCounts([3, 0, 12])).toBe('3,0,12');
    expect(parsePollCounts('3,0,12', 3)).toEqual([3, 0, 12]);
    expect(parsePollCounts('3', 2)).toEqual([3, 0]);
    for (const odd of ['', '1,x', '-1,2', '1,2,3,4,5,6,7', '1'.repeat(201)])
      expect(parsePollCounts(odd, 2), odd).toBeUndefined();
    expect(tallyCounts({ o0: 4, o1: 'x', o2: -2 }, 3)).toEqual([4, 0, 0]);
    expect(tallyCounts(null, 2)).toEqual([0, 0]);
  });
});

describe('poll layout', () => {
  const box = { id: 'p', left: 100, top: 50, width: 600, height: 400, scale: 1 };
  const poll = PollSchema.parse({
    question: 'Which?',
    options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }],
  });

  it('puts the question on top and a row per option, inside the sticker’s box', () => {
    const { bars, texts } = pollLayers(poll, box, [1, 1, 2]);
    expect(texts.map((t) => t.id)).toEqual(['p:q', 'p:o0', 'p:p0', 'p:o1', 'p:p1', 'p:o2', 'p:p2']);
    expect(texts.filter((t) => t.id.includes(':p')).map((t) => t.text)).toEqual([
      '25%',
      '25%',
      '50%',
    ]);
    const labels = texts.filter((t) => /:o\d$/.test(t.id));
    for (let i = 1; i < labels.length; i++)
      expect(labels[i]!.top).toBeGreaterThan(labels[i - 1]!.top);
    for (const b of bars) {
      expect(b.left).toBeGreaterThanOrEqual(box.left);
      expect(b.top).toBeGreaterThanOrEqual(box.top);
      expect(b.left + b.width).toBeLessThanOrEqual(box.left + box.width + 0.01);
      expect(b.top + b.height).toBeLessThanOrEqual(box.top + box.height + 0.01);
    }
    // The panel, three tracks, three filled parts: C's twice as long as A's.
    expect(bars).toHaveLength(7);
    const fills = bars.filter((b) => b.fill === poll.bar_fill);
    expect(fills[2]!.width).toBeCloseTo(fills[0]!.width * 2, 5);
  });

  it('draws options only, without percentages or fills, when no results are given', () => {
    const { bars, texts } = pollLayers(poll, box);
    expect(texts.some((t) => t.text.endsWith('%'))).toBe(false);
    expect(bars.filter((b) => b.fill === poll.bar_fill)).toHaveLength(0);
  });

  it('scales with the sticker and hides results the poll does not show', () => {
    const sticker = {
      uuid: 'p',
      left: 0,
      top: 0,
      width: 600,
      height: 400,
      scaleX: 0.5,
      scaleY: 0.5,
    };
    const values = { [POLL_RESULTS_VALUE]: '1,0,0' };
    const half = pollStickerDrawing({ ...sticker, poll }, values)!;
    expect(half.box).toMatchObject({ width: 300, height: 200, scale: 0.5 });
    expect(half.texts[0]!.fontSize).toBeCloseTo(poll.font_size * 1.1 * 0.5, 5);
    expect(half.texts.some((t) => t.text === '100%')).toBe(true);
    const hidden = pollStickerDrawing(
      { ...sticker, poll: { ...poll, show_results: false } },
      values,
    )!;
    expect(hidden.texts.some((t) => t.text.endsWith('%'))).toBe(false);
    expect(pollStickerDrawing({ ...sticker, poll: null }, values)).toBeUndefined();
  });

  it('writes the bars as an SVG with escaped colours', () => {
    const svg = pollBarsSvg(box, [
      { left: 100, top: 50, width: 10, height: 5, radius: 2, fill: '"/><script>' },
    ]);
    expect(svg).toContain('x="0" y="0" width="10" height="5"');
    expect(svg).not.toContain('<script>');
  });
});
