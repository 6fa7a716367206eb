/**
 * The test tiers (docs/testing.md "Tiers"), one command each:
 * - `npm test` (`all`): typecheck, lint, build (skipped when current), then every vitest project;
 *   what CI runs.
 * - `npm run test:quick` (`quick`): typecheck, unit and component tests: the inner loop, no
 *   services and no browser.
 *
 * Each phase runs as child processes with the terminal's output; its wall time is recorded. The
 * single-threaded static checks run two at a time, one per core of the 2-core machine. At the end
 * a table gives each phase's time (with the phases `.ci/run` timed before it, read from the file
 * named by `TEST_PHASE_TIMES`), the test count and file time of each vitest project, and the 15
 * slowest test files (vitest's JSON reporter, written under test-results/). Static checks stop the
 * run at their first failure; the vitest phases all run, and the run fails if any failed.
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

type Command = [string, ...string[]];

/**
 * One step of a tier: commands run side by side (each single-threaded check takes a core of its
 * own), or an in-process task.
 */
interface Phase {
  name: string;
  commands?: Command[];
  task?: () => Promise<void>;
  /** Vitest projects run by this step together: their JSON report feeds the tables. */
  projects?: string[];
  /** Later phases run even when this one fails (the vitest phases). */
  keepGoing?: boolean;
}

const tsc = (project: string, info: string): Command => [
  BIN('tsc'),
  '-p',
  project,
  '--noEmit',
  '--incremental',
  '--tsBuildInfoFile',
  join(CACHE, 'tsc', info),
];

const reportFile = (projects: string[]) => join(RESULTS, `vitest-${projects.join('+')}.json`);

/** One vitest run of `projects` together: one pool, so a free worker takes the next file. */
const vitest = (projects: string[]): Phase => ({
  name: `vitest ${projects.join(' + ')}`,
  projects,
  keepGoing: true,
  commands: [
    [
      BIN('vitest'),
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile(projects)}`,
    ],
  ],
});

const TYPECHECK: Phase = {
  name: 'typecheck (node ∥ web)',
  commands: [tsc('tsconfig.json', 'node.tsbuildinfo'), tsc('web/tsconfig.json', 'web.tsbuildinfo')],
};

const LINT: Phase = {
  name: 'lint (eslint ∥ prettier, knip)',
  commands: [
    [
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
    ['sh', '-c', `"${BIN('prettier')}" --check --cache --log-level warn . && "${BIN('knip')}"`],
  ],
};

const BUILD: Phase = {
  name: 'build (when stale)',
  task: async () => {
    const { ensureBuilds } = await import('#infra/local/builds.ts');
    // Vite's build sets NODE_ENV=production in this process; the vitest phases after it inherit
    // the environment and must not get React's production build (no `act`) or other modes.
    const nodeEnv = process.env.NODE_ENV;
    try {
      await ensureBuilds({ spa: true, log: (line) => console.log(line) });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
  },
};

/** The tiers. Vitest projects are named in vitest.config.ts. */
const TIERS: Record<string, Phase[]> = {
  all: [
    TYPECHECK,
    LINT,
    BUILD,
    vitest(['unit', 'component', 'infra']),
    vitest(['integration', 'own-stack', 'e2e']),
  ],
  quick: [TYPECHECK, vitest(['unit', 'component'])],
};

interface Timed {
  name: string;
  seconds: number;
  ok: boolean;
}

function runCommand([command, ...args]: Command): Promise<boolean> {
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
  if (phase.commands) return (await Promise.all(phase.commands.map(runCommand))).every(Boolean);
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
  testResults: Array<{
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: Array<{ status: string }>;
  }>;
}

/** The project of a test file, by the projects' folders (vitest.config.ts). */
function projectOf(file: string, projects: string[]): string {
  const marked = (path: string) => readFileSync(path, 'utf8').includes('@own-stack:');
  if (projects.includes('own-stack') && existsSync(file) && marked(file)) return 'own-stack';
  if (file.startsWith('test/integration/')) return 'integration';
  if (file.startsWith('test/e2e/')) return 'e2e';
  if (file.startsWith('test/infra/')) return 'infra';
  if (file.endsWith('.test.tsx')) return 'component';
  return 'unit';
}

/** Per project: tests by status and the summed time of its files; the files, slowest first. */
function reports(phases: Phase[]) {
  const perProject = new Map<string, { tests: number; failed: number; seconds: number }>();
  const files: Array<{ project: string; file: string; seconds: number }> = [];
  for (const phase of phases) {
    if (!phase.projects) continue;
    const path = reportFile(phase.projects);
    if (!existsSync(path)) continue;
    const report = JSON.parse(readFileSync(path, 'utf8')) as VitestReport;
    for (const result of report.testResults) {
      const file = relative(ROOT, result.name);
      const project = projectOf(file, phase.projects);
      const seconds = (result.endTime - result.startTime) / 1000;
      const entry = perProject.get(project) ?? { tests: 0, failed: 0, seconds: 0 };
      entry.tests += result.assertionResults.length;
      entry.failed += result.assertionResults.filter((a) => a.status === 'failed').length;
      entry.seconds += seconds;
      perProject.set(project, entry);
      files.push({ project, file, seconds });
    }
  }
  files.sort((a, b) => b.seconds - a.seconds);
  return { perProject, slowest: files.slice(0, 15) };
}

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

function printTable(timed: Timed[], phases: Phase[]): void {
  const width = Math.max(...timed.map((t) => t.name.length), 10);
  const lines = ['', 'Time table (wall clock, m:ss)', ''];
  for (const t of timed)
    lines.push(
      `  ${t.name.padEnd(width)}  ${clock(t.seconds).padStart(6)}  ${t.ok ? '' : 'FAILED'}`,
    );
  const sum = timed.reduce((s, t) => s + t.seconds, 0);
  lines.push(`  ${'total'.padEnd(width)}  ${clock(sum).padStart(6)}`);
  const { perProject, slowest } = reports(phases);
  if (perProject.size > 0) {
    lines.push('', 'Vitest projects (file time summed over the workers, m:ss)', '');
    let tests = 0;
    for (const [project, p] of perProject) {
      tests += p.tests;
      const failed = p.failed > 0 ? `, ${p.failed} failed` : '';
      lines.push(
        `  ${project.padEnd(12)} ${String(p.tests).padStart(5)} tests${failed}  ${clock(p.seconds).padStart(6)}`,
      );
    }
    lines.push(`  ${'all'.padEnd(12)} ${String(tests).padStart(5)} tests`);
    lines.push('', 'The 15 slowest test files (s, first hook to last, hooks included)', '');
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
    if (phase.projects) await rm(reportFile(phase.projects), { force: true });
  const timed = earlierPhases();
  const ran: Phase[] = [];
  let ok = true;
  for (const phase of phases) {
    const started = performance.now();
    const passed = await runPhase(phase);
    timed.push({ name: phase.name, seconds: (performance.now() - started) / 1000, ok: passed });
    ran.push(phase);
    if (!passed) {
      ok = false;
      if (!phase.keepGoing) break;
    }
  }
  printTable(timed, ran);
  return ok ? 0 : 1;
}

process.exitCode = await main();
