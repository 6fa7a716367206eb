/**
 * Countdown timer time math and layout (shared/scene/countdown.ts;
 * docs/adr/0058-countdown-timers.md "Countdown timers"), with fixed clocks: the digits at a given
 * now, time zones, a DST boundary, the evergreen start parameter and the expired state. Plus the
 * schema version 3 migration: an old design is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, restoreDesign } from '../../shared/design.ts';
import { countdownSticker } from '../support/countdown.ts';
import {
  CountdownSchema,
  countdownFrames,
  countdownLayers,
  countdownText,
  zonedInstant,
} from '../../shared/scene/countdown.ts';

const timer = (over: Record<string, unknown> = {}) => CountdownSchema.parse(over);
const at = (iso: string) => Date.parse(iso);

describe('countdown time math', () => {
  it('shows the days, hours, minutes and seconds left to a deadline in its time zone', () => {
    // 2026-12-01 09:00 in New York is 14:00 UTC (EST, UTC-5).
    const t = timer({ deadline: '2026-12-01T09:00', timeZone: 'America/New_York' });
    const [first, second] = countdownFrames(t, at('2026-11-28T11:30:15Z'), 2);
    // 3 d 2 h 29 min 45 s left, then one second less.
    expect(countdownText(t, first!)).toBe('03:02:29:45');
    expect(countdownText(t, second!)).toBe('03:02:29:44');
  });

  it('reads the same wall time differently in two zones', () => {
    expect(zonedInstant('2026-07-01T12:00', 'Europe/Paris')).toBe(at('2026-07-01T10:00:00Z'));
    expect(zonedInstant('2026-07-01T12:00', 'Asia/Tokyo')).toBe(at('2026-07-01T03:00:00Z'));
    expect(zonedInstant('2026-07-01T12:00', 'UTC')).toBe(at('2026-07-01T12:00:00Z'));
  });

  it('counts real hours across a DST change, not wall-clock hours', () => {
    // Europe/Paris springs forward on 2026-03-29 at 02:00 → 03:00: from 00:00 to 06:00 local
    // is 5 hours, not 6.
    const t = timer({ deadline: '2026-03-29T06:00', timeZone: 'Europe/Paris', units: 'hms' });
    const now = zonedInstant('2026-03-29T00:00', 'Europe/Paris');
    expect(countdownText(t, countdownFrames(t, now, 1)[0]!)).toBe('05:00:00');
    // A skipped wall time is read after the change (02:30 → 03:30, 01:30 UTC).
    expect(zonedInstant('2026-03-29T02:30', 'Europe/Paris')).toBe(at('2026-03-29T01:30:00Z'));
    // In autumn 02:30 happens twice; @date-fns/tz reads the second (winter time, UTC+1).
    expect(zonedInstant('2026-10-25T02:30', 'Europe/Paris')).toBe(at('2026-10-25T01:30:00Z'));
  });

  it('lets the largest unit hold what is above it and rounds the last second up', () => {
    const t = timer({ deadline: '2026-01-04T00:00', units: 'hms' });
    expect(countdownText(t, countdownFrames(t, at('2026-01-01T00:00:00Z'), 1)[0]!)).toBe(
      '72:00:00',
    );
    const ms = timer({ deadline: '2026-01-01T00:01', units: 'ms' });
    // 0.5 s before the deadline the timer still shows one second.
    expect(countdownFrames(ms, at('2026-01-01T00:00:59.500Z'), 1)).toEqual([1]);
  });

  it('expires within the GIF: the frames after the deadline are 0 and draw the expired state', () => {
    const t = timer({ deadline: '2026-01-01T00:00', expiredText: 'Sale over' });
    const frames = countdownFrames(t, at('2025-12-31T23:59:57Z'), 5);
    expect(frames).toEqual([3, 2, 1, 0, 0]);
    const box = { id: 'c', left: 0, top: 0, width: 600, height: 200, scale: 1 };
    expect(countdownLayers(t, box, 0).map((l) => l.text)).toEqual(['Sale over']);
    expect(countdownLayers(timer({ expired: 'hide' }), box, 0)).toEqual([]);
  });

  it('counts an evergreen timer from the start parameter, else from now', () => {
    const t = timer({ mode: 'evergreen', durationSeconds: 3600, units: 'ms' });
    const now = at('2026-05-05T10:20:00Z');
    expect(countdownText(t, countdownFrames(t, now, 1, '2026-05-05T10:00:00Z')[0]!)).toBe('40:00');
    expect(countdownText(t, countdownFrames(t, now, 1, 'not a date')[0]!)).toBe('60:00');
    expect(countdownFrames(t, now, 1, '2026-05-05T08:00:00Z')).toEqual([0]);
  });

  it('lays the cells out at fixed places with labels and separators', () => {
    const t = timer({ fontSize: 40, labelFontSize: 10 });
    const box = { id: 'c', left: 100, top: 50, width: 400, height: 100, scale: 1 };
    const a = countdownLayers(t, box, 90061); // 1 d 1 h 1 min 1 s
    const b = countdownLayers(t, box, 90060);
    expect(
      a.filter((l) => !l.id.includes('label') && !l.id.includes('sep')).map((l) => l.text),
    ).toEqual(['01', '01', '01', '01']);
    expect(a.filter((l) => l.id.endsWith('label')).map((l) => l.text)).toEqual([
      'DAYS',
      'HOURS',
      'MINUTES',
      'SECONDS',
    ]);
    expect(a.filter((l) => l.id.includes('sep')).map((l) => l.text)).toEqual([':', ':', ':']);
    // Same places in the next second.
    expect(b.map((l) => [l.left, l.top, l.width])).toEqual(a.map((l) => [l.left, l.top, l.width]));
    for (const l of a) {
      expect(l.left).toBeGreaterThanOrEqual(100);
      expect(l.left + l.width).toBeLessThanOrEqual(500.001);
    }
  });

  it('refuses unknown time zones, bad deadlines and frame counts past 60', () => {
    expect(CountdownSchema.safeParse({ timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(CountdownSchema.safeParse({ deadline: '2026-13-01' }).success).toBe(false);
    expect(CountdownSchema.safeParse({ frames: 61 }).success).toBe(false);
    expect(CountdownSchema.safeParse({ frames: 60 }).success).toBe(true);
  });
});

describe('design schema version 3', () => {
  it('migrates an old design without changing what it draws, and keeps a countdown sticker', () => {
    const old = {
      schemaVersion: 2,
      image_id: 'i',
      base_image_key: 'k',
      graphics_data: [{ uuid: 's', url: 'https://x/y.png', left: 1, top: 2 }],
    };
    const { document } = restoreDesign(old);
    expect(document.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    expect(document.graphics_data[0]).toMatchObject({
      uuid: 's',
      left: 1,
      top: 2,
      countdown: null,
    });

    const withTimer = restoreDesign({
      ...old,
      graphics_data: [
        countdownSticker({ deadline: '2026-12-01T09:00', timeZone: 'Europe/Paris' }, { uuid: 't' }),
        {
          uuid: 'u',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'countdown',
          left: 0,
          top: 0,
        },
      ],
    });
    expect(withTimer.document.graphics_data).toHaveLength(1);
    expect(withTimer.document.graphics_data[0]!.countdown).toMatchObject({
      deadline: '2026-12-01T09:00',
      frames: 30,
    });
    expect(withTimer.repaired.join('\n')).toContain('countdown sticker without its settings');
  });
});
