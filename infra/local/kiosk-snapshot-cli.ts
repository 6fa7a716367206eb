/**
 * `npm run kiosk:snapshot`: runs the kiosk's daily snapshot once against the `.local/` data
 * (docs/kiosk.md "Metrics and the daily snapshot"), as the EventBridge Scheduler schedule does
 * in AWS. Idempotent: a second run the same day stores nothing. `npm start` runs it by itself
 * once a day; run this one while `npm start` is stopped (they share `.local/`).
 */
import { startLocalStack } from './stack.ts';

const stack = await startLocalStack({
  persist: true,
  web: 'none',
  warmChromium: false,
  port: 0,
  seed: false,
  dailyJobs: false,
});
try {
  const { runDailySnapshot } = await import('#functions/kiosk/snapshot.ts');
  const run = await runDailySnapshot();
  console.log(
    run.written.length > 0
      ? `Stored ${run.written.length} snapshot(s): ${run.written[0]} to ${run.written.at(-1)}.`
      : `The snapshot of ${run.day} was already stored: nothing changed.`,
  );
} finally {
  await stack.stop();
}
