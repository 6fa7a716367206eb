/**
 * The local stack's once-a-day jobs (docs/kiosk.md "Metrics and the daily snapshot"): what an
 * EventBridge Scheduler schedule runs in AWS runs here in the `npm start` process. The kiosk's
 * daily snapshot (functions/kiosk/snapshot.ts) runs when the stack starts, then whenever the
 * UTC day has changed, checked every {@link CHECK_EVERY_MS} (a laptop that slept catches up on
 * waking). The job is idempotent per day, so a run that finds its day done changes nothing.
 */
import { runDailySnapshot } from '#functions/kiosk/snapshot.ts';
import { utcDay } from '#functions/kiosk/snapshot-figures.ts';

/** How often the stack looks whether a new UTC day has begun, ms. */
export const CHECK_EVERY_MS = 15 * 60_000;

/** Running daily jobs: `stop()` ends the timer and waits for a run under way. */
export interface DailyJobs {
  stop(): Promise<void>;
}

/**
 * Starts the daily jobs: one run now, then one at each new UTC day. A failed run is logged and
 * tried again at the next check; it never stops the stack.
 * @param log where a run's outcome goes (the `npm start` console).
 */
export function startDailyJobs(log: (line: string) => void): DailyJobs {
  let lastDay: string | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    const today = utcDay(new Date());
    if (today === lastDay) return;
    running = running.then(async () => {
      try {
        const run = await runDailySnapshot();
        lastDay = today;
        if (run.written.length > 0)
          log(`Kiosk snapshot: ${run.written.length} day(s) stored, up to ${run.day}`);
      } catch (error) {
        log(`Kiosk snapshot failed (tried again later): ${(error as Error).message}`);
      }
    });
  };
  tick();
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
