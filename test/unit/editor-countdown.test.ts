/**
 * The editor's countdown timer (docs/editor.md "Countdown timer"): a new timer's box and
 * settings, the panel's field conversions, changes checked by the shared schema and undoable,
 * and the live preview's layers equal to the render's at the same second.
 */
import { describe, expect, it } from 'vitest';
import { countdownFrames, countdownLayers, zonedInstant } from '#shared/scene/countdown.ts';
import { stickerBox } from '#shared/scene/resolve.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { CountdownError } from '../../web/src/features/editor/commands/stickers.ts';
import { timerLayers } from '../../web/src/features/editor/canvas/countdown.ts';
import {
  deadlineOf,
  deadlineParts,
  durationOf,
  durationParts,
  newCountdown,
  patchedCountdown,
  previewSecondsLeft,
  timeZoneOptions,
  wallTimeIn,
} from '../../web/src/features/editor/document/countdown.ts';
import { openEditor } from '../support/editor.ts';

const NOW = Date.UTC(2030, 4, 10, 8, 20, 30); // 2030-05-10 08:20:30 UTC

function withTimer() {
  const editor = openEditor();
  editor.clock.now = NOW;
  runCommand(editor.store, 'addSticker', {
    source: { kind: 'dynamic', dynamicType: 'countdown' },
  });
  const timer = editor.store.getState().design!.graphics_data.at(-1)!;
  return { ...editor, timer };
}

describe('a new countdown timer', () => {
  it('is a 600x200 box that fits the canvas, counting to a week ahead at a whole hour', () => {
    const { store, timer } = withTimer();
    const design = store.getState().design!;
    expect(timer).toMatchObject({
      dynamicStickerType: 'countdown',
      dynamicStickerParamName: 'countdown1',
      width: 600,
      height: 200,
    });
    expect(timer.width * timer.scaleX).toBeLessThanOrEqual(design.canvas_width * 0.9 + 0.01);
    expect(timer.countdown).toMatchObject({ mode: 'fixed', units: 'dhms', frames: 30 });
    expect(store.getState().selection).toEqual({ kind: 'sticker', id: timer.uuid });
    const c = newCountdown(NOW, 'Europe/Paris');
    // 2030-05-17 08:20:30 UTC is 10:20:30 in Paris (CEST): the next whole hour is 11:00.
    expect(c.deadline).toBe('2030-05-17T11:00');
    expect(c.timeZone).toBe('Europe/Paris');
  });
});

describe('the panel fields', () => {
  it('split the deadline and the duration and join them back', () => {
    expect(deadlineParts('2031-06-01T18:30')).toEqual({ date: '2031-06-01', time: '18:30' });
    expect(deadlineOf('2031-06-01', '18:30')).toBe('2031-06-01T18:30');
    expect(durationParts(2 * 86_400 + 3 * 3_600 + 4 * 60 + 5)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
    });
    expect(durationOf({ days: 1, hours: 2, minutes: 3 })).toBe(93_780);
    expect(
      wallTimeIn(zonedInstant('2030-01-01T00:00', 'America/New_York'), 'America/New_York'),
    ).toBe('2030-01-01T00:00');
    expect(timeZoneOptions('Europe/Paris')).toContain('UTC');
    expect(timeZoneOptions('Europe/Paris')).toContain('Europe/Paris');
  });

  it('refuse what the API refuses, with its messages', () => {
    const { timer } = withTimer();
    const c = timer.countdown!;
    expect(patchedCountdown(c, { frames: 61 })).toEqual({
      ok: false,
      errors: { frames: 'The frames must be a whole number from 1 to 60.' },
    });
    expect(patchedCountdown(c, { deadline: '2030-02-30T10:00' })).toMatchObject({
      ok: false,
      errors: { deadline: 'The deadline must be a date and time, YYYY-MM-DDTHH:mm.' },
    });
    // An emptied date field.
    expect(patchedCountdown(c, { deadline: deadlineOf('', '10:00') }).ok).toBe(false);
    expect(patchedCountdown(c, { durationSeconds: 0 }).ok).toBe(false);
    expect(patchedCountdown(c, { labels: { ...c.labels, d: 'x'.repeat(21) } })).toMatchObject({
      ok: false,
      errors: { 'labels.d': 'A label may have at most 20 characters.' },
    });
    expect(patchedCountdown(c, { units: 'hms', frames: 60 })).toMatchObject({
      ok: true,
      countdown: { units: 'hms', frames: 60 },
    });
  });
});

describe('setCountdown', () => {
  it('changes the settings as one undo step a field, and refuses a bad value changing nothing', () => {
    const { store, timer, wait } = withTimer();
    const id = timer.uuid;
    const settings = () =>
      store.getState().design!.graphics_data.find((s) => s.uuid === id)!.countdown!;
    runCommand(store, 'setCountdown', { id, patch: { deadline: '2030-06-01T12:00' } });
    wait(5_000);
    runCommand(store, 'setCountdown', { id, patch: { timeZone: 'Asia/Tokyo' } });
    wait(5_000);
    runCommand(store, 'setCountdown', { id, patch: { units: 'hms' } });
    expect(settings()).toMatchObject({
      deadline: '2030-06-01T12:00',
      timeZone: 'Asia/Tokyo',
      units: 'hms',
    });
    const before = store.getState().design;
    expect(() => runCommand(store, 'setCountdown', { id, patch: { frames: 0 } })).toThrow(
      CountdownError,
    );
    expect(store.getState().design).toBe(before);
    runCommand(store, 'undo');
    expect(settings().units).toBe('dhms');
    runCommand(store, 'undo');
    expect(settings().timeZone).not.toBe('Asia/Tokyo');
    runCommand(store, 'redo');
    expect(settings().timeZone).toBe('Asia/Tokyo');
  });
});

describe('the live preview', () => {
  it('draws the layers the render draws at the same second, a second less each second', () => {
    const { store, timer } = withTimer();
    runCommand(store, 'setCountdown', {
      id: timer.uuid,
      patch: { deadline: '2030-05-12T11:24:35', timeZone: 'UTC' },
    });
    const design = store.getState().design!;
    const sticker = design.graphics_data.find((s) => s.uuid === timer.uuid)!;
    const layers = timerLayers(design, NOW, NOW);
    // What the render's first GIF frame draws at NOW (functions/render/countdown-gif.ts).
    const [left] = countdownFrames(sticker.countdown!, NOW, 1);
    expect(left).toBe(((2 * 24 + 3) * 60 + 4) * 60 + 5);
    const box = { id: sticker.uuid, ...stickerBox(sticker), scale: sticker.scaleY };
    expect(layers).toEqual(countdownLayers(sticker.countdown!, box, left!));
    expect(layers.filter((l) => /^\d+$/.test(l.text)).map((l) => l.text)).toEqual([
      '02',
      '03',
      '04',
      '05',
    ]);
    const next = timerLayers(design, NOW + 1000, NOW);
    expect(next.find((l) => l.id.endsWith(':s'))!.text).toBe('04');
  });

  it('counts an evergreen timer without a start from when the editor opened', () => {
    const { timer } = withTimer();
    const c = { ...timer.countdown!, mode: 'evergreen' as const, durationSeconds: 3_600 };
    expect(previewSecondsLeft(c, NOW, '', NOW)).toBe(3_600);
    expect(previewSecondsLeft(c, NOW + 10_000, '', NOW)).toBe(3_590);
    const start = new Date(NOW - 600_000).toISOString();
    expect(previewSecondsLeft(c, NOW, start, NOW)).toBe(3_000);
    // A start without an offset is a wall time in the timer's zone (10:10:30 in Paris, summer
    // time, is 08:10:30 UTC: ten minutes ago); one that names no time counts from the open.
    const paris = { ...c, timeZone: 'Europe/Paris' };
    expect(previewSecondsLeft(paris, NOW, '2030-05-10T10:10:30', NOW)).toBe(3_000);
    expect(previewSecondsLeft(paris, NOW, 'Friday', NOW)).toBe(3_600);
    // A timer that counts from the first open ignores any start value.
    expect(previewSecondsLeft({ ...c, start: 'first_open' }, NOW, start, NOW)).toBe(3_600);
  });

  it('switches an evergreen timer to count from the first open as one undoable step', () => {
    const { store, timer, wait } = withTimer();
    const id = timer.uuid;
    const settings = () =>
      store.getState().design!.graphics_data.find((s) => s.uuid === id)!.countdown!;
    runCommand(store, 'setCountdown', { id, patch: { mode: 'evergreen' } });
    wait(5_000);
    expect(settings().start).toBeUndefined();
    runCommand(store, 'setCountdown', { id, patch: { start: 'first_open' } });
    expect(settings().start).toBe('first_open');
    runCommand(store, 'undo');
    expect(settings().start).toBeUndefined();
    expect(settings().mode).toBe('evergreen');
    runCommand(store, 'redo');
    expect(settings().start).toBe('first_open');
  });
});
