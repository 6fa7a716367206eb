/**
 * The order in which vitest hands test files to its workers (vitest.config.ts
 * `sequence.sequencer`). Two workers share the run, so a long file started last leaves one core
 * idle until it ends. Files therefore go longest first: vitest's own order (slowest first by the
 * durations of the last run, by file size where there is none, as on a fresh clone), with the
 * projects whose files are longest put before the others: the `own-stack` files (each starts a
 * stack and runs a job: a send list, `npm start` itself), then `e2e`, then `integration`
 * (docs/testing.md "Time").
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECT_RANK: Record<string, number> = { 'own-stack': 0, e2e: 1, integration: 2 };
const rank = (spec: TestSpecification) => PROJECT_RANK[spec.project.name] ?? 3;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
