import { defineConfig } from 'vitest/config';

/**
 * Four projects. `npm test` runs them all; each can run alone with `vitest run --project <name>`.
 * Integration and e2e start real local services (DynamoDB Local, s3rver, Chromium) per file on free
 * ports, so they run one file at a time on 2 cores.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts'],
          environment: 'node',
          env: { STAGE: 'test' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          env: { STAGE: 'test' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          env: { STAGE: 'test' },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
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
