import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.ts';

/**
 * The vitest projects (docs/testing.md). `npm test` runs them all; each runs alone with
 * `vitest run --project <name>`.
 *
 * - `unit`: pure code, no services.
 * - `component`: React components of the SPA rendered in happy-dom with Testing Library, the API
 *   answered by msw handlers typed from shared/contract (web/src/test/); no stack, no browser.
 * - `integration` and `e2e`: files share one local stack per worker (DynamoDB Local, s3rver, warm
 *   Chromium, the gateway serving the built SPA; test/support/stack.ts) and, in e2e, one test
 *   browser per worker with a browser context per file. `isolate: false`: a worker's files run
 *   one after another in one process; each file isolates by data (its own team and users), and
 *   test/support/file-setup.ts puts back what a file changed in the process.
 * - `own-stack`: the integration and e2e files that say `@own-stack: <why>` (an empty table, a
 *   stopped service, queues driven by hand…): each starts a stack of its own in a fresh worker.
 * - `infra`: CDK assertions and cdk-nag.
 */

/** Test files under `dir` (relative to the repository), recursively. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

const OWN_STACK_MARKER = '@own-stack:';
const ownStack = (file: string) => readFileSync(file, 'utf8').includes(OWN_STACK_MARKER);
const stackFiles = [...testFiles('test/integration'), ...testFiles('test/e2e')];
const OWN_STACK_FILES = stackFiles.filter(ownStack);

/** Test workers: one per core of this 2-core machine, overridable with TEST_WORKERS. */
const WORKERS = Number(process.env.TEST_WORKERS ?? 2);

const shared = {
  environment: 'node' as const,
  env: { STAGE: 'test', STACK: 'shared' },
  pool: 'forks' as const,
  isolate: false,
  setupFiles: ['test/support/file-setup.ts'],
  exclude: OWN_STACK_FILES,
};

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts'],
          // Some files read the whole tree (citations, file names): slow when both cores are busy.
          testTimeout: 20_000,
          // One worker process runs many files (a fresh one per file cost ~0.35 s each);
          // test/support/file-setup.ts puts back what a file changed in the process.
          isolate: false,
          setupFiles: ['test/support/file-setup.ts'],
          environment: 'node',
          env: { STAGE: 'test' },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'component',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          env: { STAGE: 'test' },
          setupFiles: ['web/src/test/setup.ts'],
          // One module graph per worker: a fresh one per file tripled the run (49 s against 17 s
          // on the loaded 2-core machine). The setup file puts back what a test changes (the
          // DOM, spies, the mock API's handlers, the app store's session, unsaved marks).
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'own-stack',
          include: OWN_STACK_FILES.length > 0 ? OWN_STACK_FILES : ['test/none-own-stack'],
          environment: 'node',
          env: { STAGE: 'test' },
          pool: 'forks',
          setupFiles: ['test/support/file-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          env: { STAGE: 'test' },
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
