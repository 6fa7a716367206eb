/**
 * `npm run bench` finishes: the whole bench, every part in the order the README's command runs
 * them, at its smallest size (`--smoke`, test/bench/scale.ts), in a child process as a developer
 * runs it. Each part must end and write its result; a part that hangs (as the send-list part
 * once did for its whole hour, with no queue pollers on the bench's stack) fails this test at
 * its limit instead of going unseen. What the figures are is the bench's business, never a
 * test's (docs/testing.md "The bench finishes").
 *
 * @own-stack: the bench starts a stack of its own in a child process, as `npm run bench` does.
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RESULTS = join(ROOT, 'bench-results', 'smoke');
/** How long the smoke run may take, ms (about a minute here; the limit is for a hang). */
const LIMIT_MS = 8 * 60_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/** Runs `tsx test/bench/run.ts <args>` in its own process group; kills the group at `LIMIT_MS`. */
function bench(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const { VITEST: _v, VITEST_POOL_ID: _p, VITEST_WORKER_ID: _w, ...env } = process.env;
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['test/bench/run.ts', ...args], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'error', NODE_ENV: 'production' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      out += `\n[killed after ${LIMIT_MS} ms]`;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

const readResult = async (name: string) =>
  JSON.parse(await readFile(join(RESULTS, name), 'utf8')) as Record<string, unknown>;

describe('npm run bench', () => {
  it(
    'runs every part to its end and writes each result (smoke size)',
    async () => {
      await rm(RESULTS, { recursive: true, force: true });
      const run = await bench(['--smoke']);
      expect(run.out).not.toContain('[killed after');
      expect({ code: run.code, signal: run.signal }, run.out.slice(-4000)).toEqual({
        code: 0,
        signal: null,
      });
      // Each part announced itself, in the order of the README's command.
      const parts = [
        'bench: warm renders…',
        'bench: load…',
        'wrote bench-results/render.json',
        'timer GIF (30 frames)',
        'bench: dashboard lists…',
        'wrote bench-results/dashboard.json',
        'wrote bench-results/editor.json',
        'wrote bench-results/quality.json',
        'bench: campaign…',
        'bench: send list…',
        'wrote bench-results/send-list.json',
        'bench: analytics: roll-up…',
        'wrote bench-results/analytics.json',
      ];
      const at = parts.map((p) => run.out.indexOf(p));
      expect(Object.fromEntries(parts.map((p, i) => [p, at[i]! >= 0]))).toEqual(
        Object.fromEntries(parts.map((p) => [p, true])),
      );
      expect([...at].sort((a, b) => a - b)).toEqual(at);

      // The results are whole: the render comparison with the timer merged in, and every part's
      // own figures.
      const render = await readResult('render.json');
      expect(render.warm_p50_ms).toBeGreaterThan(0);
      expect(render.dense_2x_p50_ms).toBeGreaterThan(0);
      expect(render.animated_gif_p50_ms).toBeGreaterThan(0);
      expect(render.animated_gif_frames).toBeGreaterThan(1);
      expect(typeof render.throughput_rps).toBe('number');
      expect(render.timer_gif_bytes).toBeGreaterThan(0);
      expect(await readResult('dashboard.json')).toMatchObject({ list_queries_per_request: 1 });
      const editor = await readResult('editor.json');
      expect((editor.tti_ms as { runs: number[] }).runs.length).toBeGreaterThan(0);
      expect(await readResult('quality.json')).toHaveProperty('ssim_floor');
      expect(typeof (await readResult('campaign.json')).recipients_real_ratio).toBe('number');
      // Every synthetic log record is counted, and the report answered.
      expect(await readResult('analytics.json')).toMatchObject({
        records: 20_000,
        query_p95_ms: expect.any(Number),
      });
      expect(await readResult('send-list.json')).toMatchObject({
        rows: 20,
        rendered: 20,
        failed: 0,
      });
    },
    LIMIT_MS + 30_000,
  );

  it('refuses a part it does not have, naming the parts, before starting anything', async () => {
    const run = await bench(['--smoke', 'nonsense']);
    expect(run.code).toBe(2);
    expect(run.out).toContain('bench: unknown part nonsense; parts: campaign, quality');
  });
});
