/**
 * The test tiers (docs/testing.md "Tiers"), one command each:
 * - `npm test` (`all`): typecheck, lint, build (skipped when current), then every vitest project;
 *   what CI runs.
 * - `npm run test:quick` (`quick`): typecheck, unit and component tests: the inner loop, no
 *   services and no browser.
 *
 * Each phase runs as a child process with the terminal's output; its wall time is recorded. At
 * the end a table gives each phase's time (with the phases `.ci/run` timed before, read from the
 * file named by `TEST_PHASE_TIMES`), the test counts and the 15 slowest test files (vitest's JSON
 * reporter, written to test-results/vitest-<project>.json). Static checks stop the run at their
 * first failure; the vitest projects all run, and the run fails if any failed.
 *
 * Caches (docs/testing.md "Caches"): `tsc --incremental` keeps its build info under
 * node_modules/.cache/tsc, ESLint and Prettier keep `--cache` files under node_modules/.cache,
 * and the builds are skipped when no input changed (shared/build-stamp.ts). A fresh clone has
 * none of them and does the full work.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, 'node_modules', '.cache');
const RESULTS = join(ROOT, 'test-results');
const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** One step of a tier: a command, or an in-process task. */
interface Phase {
  name: string;
  command?: [string, ...string[]];
  task?: () => Promise<void>;
  /** A vitest project: its JSON report feeds the slowest-files table. */
  project?: string;
  /** Later phases run even when this one fails (the vitest projects). */
  keepGoing?: boolean;
}

const tsc = (name: string, project: string, info: string): Phase => ({
  name,
  command: [
    BIN('tsc'),
    '-p',
    project,
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    join(CACHE, 'tsc', info),
  ],
});

const vitest = (project: string): Phase => ({
  name: `vitest ${project}`,
  project,
  keepGoing: true,
  command: [
    BIN('vitest'),
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(RESULTS, `vitest-${project}.json`)}`,
  ],
});

const TYPECHECK = [
  tsc('typecheck (node)', 'tsconfig.json', 'node.tsbuildinfo'),
  tsc('typecheck (web)', 'web/tsconfig.json', 'web.tsbuildinfo'),
];

const LINT: Phase[] = [
  {
    name: 'eslint',
    command: [
      BIN('eslint'),
      '.',
      '--max-warnings',
      '0',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      join(CACHE, 'eslint', '.eslintcache'),
    ],
  },
  {
    name: 'prettier',
    command: [BIN('prettier'), '--check', '--cache', '--log-level', 'warn', '.'],
  },
  { name: 'knip', command: [BIN('knip')] },
];

const BUILD: Phase = {
  name: 'build (when stale)',
  task: async () => {
    const { ensureBuilds } = await import('#infra/local/builds.ts');
    await ensureBuilds({ spa: true, log: (line) => console.log(line) });
  },
};

/** The tiers. Vitest projects are named in vitest.config.ts. */
const TIERS: Record<string, Phase[]> = {
  all: [
    ...TYPECHECK,
    ...LINT,
    BUILD,
    ...['unit', 'component', 'infra', 'integration', 'own-stack', 'e2e'].map(vitest),
  ],
  quick: [...TYPECHECK, vitest('unit'), vitest('component')],
};

interface Timed {
  name: string;
  seconds: number;
  ok: boolean;
}

function runCommand([command, ...args]: [string, ...string[]]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(error);
      resolve(false);
    });
    child.on('exit', (code) => resolve(code === 0));
  });
}

async function runPhase(phase: Phase): Promise<boolean> {
  console.log(`\n▶ ${phase.name}`);
  if (phase.command) return runCommand(phase.command);
  try {
    await phase.task?.();
    return true;
  } catch (error) {
    console.error(error);
    return false;
  }
}

/** Phases timed before this run (`.ci/run`: install, newcomer path), as `name<TAB>seconds` lines. */
function earlierPhases(): Timed[] {
  const file = process.env.TEST_PHASE_TIMES;
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('\t'))
    .map((line) => {
      const [name = '', seconds = '0'] = line.split('\t');
      return { name, seconds: Number(seconds), ok: true };
    });
}

interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

/** Test counts and file durations from the JSON reports of this run's vitest phases. */
function reports(projects: string[]) {
  let total = 0;
  let passed = 0;
  let failed = 0;
  const files: Array<{ project: string; file: string; seconds: number }> = [];
  for (const project of projects) {
    const path = join(RESULTS, `vitest-${project}.json`);
    if (!existsSync(path)) continue;
    const report = JSON.parse(readFileSync(path, 'utf8')) as VitestReport;
    total += report.numTotalTests;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const result of report.testResults)
      files.push({
        project,
        file: relative(ROOT, result.name),
        seconds: (result.endTime - result.startTime) / 1000,
      });
  }
  files.sort((a, b) => b.seconds - a.seconds);
  return { total, passed, failed, slowest: files.slice(0, 15) };
}

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

function printTable(timed: Timed[], projects: string[]): void {
  const width = Math.max(...timed.map((t) => t.name.length), 10);
  const lines = ['', 'Time table (wall clock, m:ss)', ''];
  for (const t of timed)
    lines.push(
      `  ${t.name.padEnd(width)}  ${clock(t.seconds).padStart(6)}  ${t.ok ? '' : 'FAILED'}`,
    );
  const sum = timed.reduce((s, t) => s + t.seconds, 0);
  lines.push(`  ${'total'.padEnd(width)}  ${clock(sum).padStart(6)}`);
  const { total, passed, failed, slowest } = reports(projects);
  if (total > 0) {
    lines.push('', `Tests: ${total} (${passed} passed, ${failed} failed)`, '');
    lines.push('The 15 slowest test files (s, from first to last test, hooks included)', '');
    for (const f of slowest)
      lines.push(`  ${f.seconds.toFixed(1).padStart(7)}  ${f.project.padEnd(11)} ${f.file}`);
  }
  console.log(lines.join('\n'));
}

async function main(): Promise<number> {
  const tier = process.argv[2] ?? 'all';
  const phases = TIERS[tier];
  if (!phases) {
    console.error(`unknown tier "${tier}"; one of: ${Object.keys(TIERS).join(', ')}`);
    return 2;
  }
  await mkdir(RESULTS, { recursive: true });
  for (const phase of phases)
    if (phase.project) await rm(join(RESULTS, `vitest-${phase.project}.json`), { force: true });
  const timed = earlierPhases();
  const projects: string[] = [];
  let ok = true;
  for (const phase of phases) {
    const started = performance.now();
    const passed = await runPhase(phase);
    timed.push({ name: phase.name, seconds: (performance.now() - started) / 1000, ok: passed });
    if (phase.project) projects.push(phase.project);
    if (!passed) {
      ok = false;
      if (!phase.keepGoing) break;
    }
  }
  printTable(timed, projects);
  return ok ? 0 : 1;
}

process.exitCode = await main();
