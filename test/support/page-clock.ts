/// <reference lib="dom" />
/**
 * A fake clock for the page under test, which the test moves instead of sleeping through a
 * timing rule of the SPA (a loaded machine makes a fixed sleep flaky, an idle one makes it slow).
 *
 * Only `Date.now()` and `setInterval` are faked: `setTimeout`, `requestAnimationFrame`,
 * `performance.now()` and the network keep real time, so React, fetch and the forms work as
 * usual. `Date.now()` stands still until the test moves it; an interval's callback runs only
 * when the test moves the clock past its due time.
 */
import type { Page } from 'puppeteer-core';

/** What the page exposes to the test, as `window.__testClock`. */
interface TestClock {
  /** Moves the clock `ms` forward, running each interval as it falls due, in time order. */
  advance(ms: number): void;
  /** The periods (ms) of the intervals set and not cleared. */
  intervals(): number[];
}

type WithClock = { __testClock?: TestClock };

/** Runs in the page before its own scripts (serialized by puppeteer: no outside references). */
function installClock(): void {
  const w = window as unknown as WithClock;
  if (w.__testClock) return;
  let now = Date.now();
  Date.now = () => now;
  const timers = new Map<number, { run: () => void; every: number; due: number }>();
  let lastId = 1 << 30; // apart from the ids of the browser's own timers
  const realClearInterval = window.clearInterval.bind(window);
  window.setInterval = ((handler: TimerHandler, every?: number, ...args: unknown[]): number => {
    if (typeof handler !== 'function') throw new TypeError('the test clock runs functions only');
    const id = ++lastId;
    const ms = Math.max(1, Number(every) || 0);
    timers.set(id, { run: () => void handler(...args), every: ms, due: now + ms });
    return id;
  }) as typeof window.setInterval;
  window.clearInterval = ((id?: number) => {
    if (id === undefined || !timers.delete(id)) realClearInterval(id);
  }) as typeof window.clearInterval;
  w.__testClock = {
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let next: { run: () => void; every: number; due: number } | undefined;
        for (const timer of timers.values())
          if (timer.due <= end && (!next || timer.due < next.due)) next = timer;
        if (!next) break;
        now = next.due;
        next.due += next.every;
        try {
          next.run();
        } catch (error) {
          reportError(error); // as a real interval's error: reported, the interval goes on
        }
      }
      now = end;
    },
    intervals: () => [...timers.values()].map((timer) => timer.every),
  };
}

/**
 * Fakes the clock of every document `page` loads from now on (installed before the page's own
 * scripts run). Call it before the first `goto`.
 */
export async function fakePageClock(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(installClock);
}

/**
 * Moves the page's fake clock `ms` forward; the intervals that fall due on the way run, each at
 * its due time. Whatever they start (a fetch, a render) has begun when this returns.
 */
export async function advancePageClock(page: Page, ms: number): Promise<void> {
  await page.evaluate((by) => {
    const clock = (window as unknown as WithClock).__testClock;
    if (!clock) throw new Error('no fake clock in this document: call fakePageClock first');
    clock.advance(by);
  }, ms);
}

/** The periods (ms) of the page's intervals set and not cleared (none without a fake clock). */
export const pageIntervals = (page: Page): Promise<number[]> =>
  page.evaluate(() => (window as unknown as WithClock).__testClock?.intervals() ?? []);

/**
 * Moves `Date.now()` of the page's current document `ms` forward, from now on, without a fake
 * clock: time goes on at its real pace, timers are untouched. For a rule that compares two
 * `Date.now()` readings (the editor's 1 s undo merge window), where waiting would only be slow.
 */
export async function shiftPageClock(page: Page, ms: number): Promise<void> {
  await page.evaluate((by) => {
    const before = Date.now.bind(Date);
    Date.now = () => before() + by;
  }, ms);
}
