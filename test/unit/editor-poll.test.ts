/**
 * The editor's poll (docs/editor.md "Poll"): a new poll's box and settings, one poll per design,
 * changes checked by the shared schema, and the preview drawn from the shared layout
 * (`pollLayers`) with sample results, bars where the render draws them at any scale.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sticker } from '#shared/design.ts';
import { POLL_MESSAGES, pollBox, pollLayers, type Poll } from '#shared/scene/poll.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { PollError } from '../../web/src/features/editor/commands/stickers.ts';
import {
  movedOption,
  samplePollCounts,
  textParameterNames,
} from '../../web/src/features/editor/document/poll.ts';
import { panelColourParts, panelFill } from '../../web/src/features/editor/document/panelColour.ts';
import { pollTextLayers } from '../../web/src/features/editor/document/pollPreview.ts';
import { demoDocument, openEditor } from '../support/editor.ts';

function withPoll() {
  const editor = openEditor();
  runCommand(editor.store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'poll' } });
  const poll = editor.store.getState().design!.graphics_data.at(-1)!;
  return { ...editor, poll };
}

const current = (store: ReturnType<typeof openEditor>['store']) =>
  store
    .getState()
    .design!.graphics_data.find((s) => s.dynamicStickerType === 'poll')! as Sticker & {
    poll: Poll;
  };

describe('a new poll', () => {
  it('is a 600x400 box that fits the canvas, with a question and two answers', () => {
    const { store, poll } = withPoll();
    const design = store.getState().design!;
    expect(poll).toMatchObject({ dynamicStickerType: 'poll', width: 600, height: 400 });
    expect(poll.width * poll.scaleX).toBeLessThanOrEqual(design.canvas_width * 0.9 + 0.01);
    expect(poll.height * poll.scaleY).toBeLessThanOrEqual(design.canvas_height * 0.9 + 0.01);
    expect(poll.poll?.options.map((o) => o.label)).toEqual(['Option A', 'Option B']);
    expect(store.getState().selection).toEqual({ kind: 'sticker', id: poll.uuid });
  });

  it('is refused when the design has one, with the schema message', () => {
    const { store } = withPoll();
    expect(
      runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'poll' } }),
    ).toBe(false);
    expect(store.getState().notice).toMatchObject({
      tone: 'error',
      text: 'A design may have one poll.',
    });
    expect(
      store.getState().design!.graphics_data.filter((s) => s.dynamicStickerType === 'poll'),
    ).toHaveLength(1);
  });
});

describe('a new poll and weather sticker on the demo design', () => {
  const boxOf = (s: Sticker) => ({
    left: s.left,
    top: s.top,
    right: s.left + s.width * s.scaleX,
    bottom: s.top + s.height * s.scaleY,
  });
  const overlap = (a: ReturnType<typeof boxOf>, b: ReturnType<typeof boxOf>) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  it('land in the free space, scaled to fit, clear of "Hello there!" and of each other', () => {
    const { store, poll } = withPoll();
    runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'weather' } });
    const design = store.getState().design!;
    const weather = design.graphics_data.at(-1)!;
    const hello = design.text_snippets[0]!;
    // The text's line: 64 px at the editor's 1.5 line height.
    const text = {
      left: hello.left,
      top: hello.top,
      right: hello.left + hello.width,
      bottom: hello.top + 96,
    };
    for (const sticker of [poll, weather]) {
      const box = boxOf(sticker);
      expect(overlap(box, text)).toBe(false);
      expect(box.left).toBeGreaterThanOrEqual(5);
      expect(box.top).toBeGreaterThanOrEqual(5);
      expect(box.right).toBeLessThanOrEqual(design.canvas_width - 5);
      expect(box.bottom).toBeLessThanOrEqual(design.canvas_height - 5);
    }
    expect(overlap(boxOf(poll), boxOf(weather))).toBe(false);
    // Still legible: the free band above the text holds a poll about 470 px wide.
    expect(poll.width * poll.scaleX).toBeGreaterThan(400);
  });

  it('keeps the usual spot and size on a canvas without texts', () => {
    const { store } = openEditor({ ...demoDocument(), text_snippets: [] });
    runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'poll' } });
    const poll = store.getState().design!.graphics_data.at(-1)!;
    expect(poll).toMatchObject({ top: 10, left: 200, scaleX: 1 });
  });
});

describe('poll changes', () => {
  it('are one undo step a field; a refused one changes nothing', () => {
    const { store, poll } = withPoll();
    const id = poll.uuid;
    runCommand(store, 'setPoll', { id, patch: { question: 'Tea or coffee?' } });
    expect(current(store).poll.question).toBe('Tea or coffee?');
    expect(() =>
      runCommand(store, 'setPoll', { id, patch: { options: [{ label: 'Only', url: '' }] } }),
    ).toThrow(PollError);
    try {
      runCommand(store, 'setPoll', { id, patch: { results_ttl_s: 5 } });
    } catch (e) {
      expect((e as PollError).errors.results_ttl_s).toBe(POLL_MESSAGES.ttl);
    }
    expect(current(store).poll.options).toHaveLength(2);
    runCommand(store, 'undo');
    expect(current(store).poll.question).toBe('Which do you prefer?');
  });
});

describe('the poll preview', () => {
  it('draws the texts of pollLayers for the sticker box, with sample results', () => {
    const { store } = withPoll();
    runCommand(store, 'transformSticker', {
      id: current(store).uuid,
      left: 40,
      top: 30,
      scale: 0.5,
      angle: 0,
    });
    const sticker = current(store);
    const counts = samplePollCounts(sticker.poll);
    expect(counts).toEqual([60, 40]);
    const texts = pollTextLayers(store.getState().design!);
    expect(texts).toEqual(pollLayers(sticker.poll, pollBox(sticker), counts).texts);
    expect(texts.map((t) => t.text)).toEqual([
      'Which do you prefer?',
      'Option A',
      '60%',
      'Option B',
      '40%',
    ]);
    expect(texts[0]!.left).toBeGreaterThanOrEqual(40);
    // The bars image is laid out at 600x400 and scaled with the sticker: the same rectangles.
    const atOne = pollLayers(
      sticker.poll,
      { id: 'p', left: 0, top: 0, width: 600, height: 400, scale: 1 },
      counts,
    ).bars;
    const drawn = pollLayers(sticker.poll, pollBox(sticker), counts).bars;
    expect(drawn.length).toBe(atOne.length);
    drawn.forEach((bar, i) => {
      expect(bar.left).toBeCloseTo(40 + atOne[i]!.left * 0.5, 6);
      expect(bar.top).toBeCloseTo(30 + atOne[i]!.top * 0.5, 6);
      expect(bar.width).toBeCloseTo(atOne[i]!.width * 0.5, 6);
      expect(bar.height).toBeCloseTo(atOne[i]!.height * 0.5, 6);
    });
  });

  it('shows no percentages with results off, and its bars image follows each change', () => {
    const { store } = withPoll();
    const id = current(store).uuid;
    const before = current(store).dynamicStickerNewUrl;
    runCommand(store, 'setPoll', { id, patch: { show_results: false } });
    expect(pollTextLayers(store.getState().design!).map((t) => t.text)).toEqual([
      'Which do you prefer?',
      'Option A',
      'Option B',
    ]);
    expect(current(store).dynamicStickerNewUrl).not.toBe(before);
    runCommand(store, 'setPoll', { id, patch: { bar_fill: '#ff0000' } });
    expect(decodeURIComponent(current(store).dynamicStickerNewUrl ?? '')).not.toContain('#ff0000');
    runCommand(store, 'setPoll', { id, patch: { show_results: true } });
    expect(decodeURIComponent(current(store).dynamicStickerNewUrl ?? '')).toContain('#ff0000');
  });
});

describe("a new poll's closing zone", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is the browser's own time zone, not UTC", () => {
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
      this: Intl.DateTimeFormat,
    ) {
      return { ...resolved.call(this), timeZone: 'America/Chicago' };
    });
    expect(withPoll().poll.poll?.time_zone).toBe('America/Chicago');
  });
});

describe('moving a poll answer', () => {
  const options = ['A', 'B', 'C'].map((label) => ({ label, url: '' }));

  it('moves it up or down and leaves the list as it is past either end', () => {
    expect(movedOption(options, 2, 1).map((o) => o.label)).toEqual(['A', 'C', 'B']);
    expect(movedOption(options, 0, 1).map((o) => o.label)).toEqual(['B', 'A', 'C']);
    expect(movedOption(options, 0, -1)).toBe(options);
    expect(movedOption(options, 2, 3)).toBe(options);
  });

  it('is one undo step', () => {
    const { store } = withPoll();
    const id = current(store).uuid;
    runCommand(store, 'setPoll', {
      id,
      patch: { options: movedOption(current(store).poll.options, 1, 0) },
    });
    expect(current(store).poll.options.map((o) => o.label)).toEqual(['Option B', 'Option A']);
    runCommand(store, 'undo');
    expect(current(store).poll.options.map((o) => o.label)).toEqual(['Option A', 'Option B']);
  });
});

describe('the voter parameters offered', () => {
  it("are the text parameters only, not the dynamic stickers' own", () => {
    const { store } = withPoll();
    runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'qrCode' } });
    const design = store.getState().design!;
    expect(design.graphics_data.map((s) => s.dynamicStickerParamName)).toEqual([
      'poll1',
      'qrCode1',
    ]);
    expect(textParameterNames(design)).toEqual(['first_name']);
  });
});

describe('the panel colour', () => {
  it('splits #rrggbbaa into its colour and opacity, and joins them back', () => {
    expect(panelColourParts('#ffffffe6')).toEqual({ colour: '#ffffff', opacity: 90 });
    expect(panelColourParts('#1F2430')).toEqual({ colour: '#1f2430', opacity: 100 });
    expect(panelColourParts('#fff')).toEqual({ colour: '#ffffff', opacity: 100 });
    expect(panelFill({ colour: '#ff0000', opacity: 90 })).toBe('#ff0000e6');
    expect(panelFill({ colour: '#ff0000', opacity: 100 })).toBe('#ff0000');
    expect(panelFill({ colour: '#ff0000', opacity: 0 })).toBe('#ff000000');
    expect(panelFill({ colour: '#ff0000', opacity: 150 })).toBe('#ff0000');
  });
});
