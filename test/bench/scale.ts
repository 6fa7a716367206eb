/**
 * How big a bench run is. `npm run bench` measures at full size; `npm run bench -- --smoke`
 * (or `BENCH_SMOKE=1`) runs every part at its smallest size, to show that each part starts,
 * finishes and writes its result, in a few minutes rather than most of an hour. The test suite
 * runs it (test/integration/bench-smoke.test.ts; docs/testing.md "The bench finishes"). A smoke
 * run's figures mean nothing as measures: they go to `bench-results/smoke/`, never over the
 * measured ones in `bench-results/`.
 */
import { join } from 'node:path';

/** True in a smoke run (`--smoke` on the command line or `BENCH_SMOKE=1`). */
export const SMOKE = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/**
 * A count (samples, rows, designs, recipients) or a duration (ms) at the run's size.
 * @param full the size a measuring run uses.
 * @param smoke the smallest size at which the part still does all of its work once.
 */
export function sized(full: number, smoke: number): number {
  return SMOKE ? smoke : full;
}

/** The folder results are written to: `bench-results/`, or `bench-results/smoke/` in a smoke run. */
export const RESULTS_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  'bench-results',
  ...(SMOKE ? ['smoke'] : []),
);
