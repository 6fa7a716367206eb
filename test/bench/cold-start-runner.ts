/**
 * Runs cold starts of the render function for the benchmark (docs/performance.md "Method"): each
 * one is a fresh process of this node binary running test/bench/cold-start.ts, either through tsx
 * (the TypeScript as it is in the repo) or as an esbuild bundle built the way the render Lambda is
 * bundled (infra/constructs/handler-function.ts: ESM, minified, the same external modules), with
 * the render page beside it as in the Lambda asset.
 *
 * By default Chromium is already unpacked in /tmp by the local stack, as it is when a Lambda
 * sandbox re-inits. With `fresh`, the child's temp folder (`TMPDIR`) is a new empty folder, so
 * `@sparticuz/chromium` unpacks Chromium, its fonts and SwiftShader first, as in a brand-new
 * sandbox; the folder is removed afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTimeout } from './measure.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'test', 'bench', 'cold-start.ts');
/** infra/constructs/render.ts `RENDER_EXTERNAL_MODULES` (the Lambda layer's packages). */
const EXTERNAL_MODULES = ['@sparticuz/chromium', 'puppeteer-core', 'sharp'];

/** What cold-start.ts prints; times in ms since the child process started. */
export interface ColdRun {
  first_image_ms: number;
  node_start_ms: number;
  import_ms: number;
  invoke_ms: number;
  status: number;
  cache_control: string;
  render_cache: string;
  /** The first request's `Server-Timing` stages (service.ts), as sent. */
  server_timing?: string;
  /**
   * When each step of the init warm-up ended, ms since the child started
   * (functions/render/warm-start.ts `initSteps`, browser.ts `launchSteps`: `executable`,
   * `launched`); empty when the init did not warm up.
   */
  init_steps?: Record<string, number>;
  /** The library's unpack into the empty temp folder, ms; 0 when Chromium was already there. */
  unpack_ms?: number;
  /** The unpacked binary's size, bytes (0 when nothing was unpacked). */
  unpacked_bytes?: number;
  bytes: number;
  node: string;
}

/**
 * The steps of one cold start as durations, ms: `before_unpack` (node start and the modules up
 * to warm-start.ts), `unpack` (0 on a re-init), `spawn` (Chromium launched and puppeteer
 * connected), `page_open`, `first_draw` (the init's warm-up draw), `first_image` (the request),
 * and `total` (process start to the first image). A step the child did not report is absent.
 */
export function coldStartParts(run: ColdRun): Record<string, number> {
  const at = run.init_steps ?? {};
  const unpack = run.unpack_ms ?? 0;
  const between = (from: number | undefined, to: number | undefined) =>
    from !== undefined && to !== undefined ? Math.round((to - from) * 10) / 10 : undefined;
  const parts: Record<string, number | undefined> = {
    before_unpack:
      at.executable !== undefined ? Math.round((at.executable - unpack) * 10) / 10 : undefined,
    unpack,
    spawn: between(at.executable, at.launched),
    page_open: between(at.launched, at.page_open),
    first_draw: between(at.page_open, at.warm_up_draw),
    first_image: between(at.warm_up_draw, run.first_image_ms),
    total: Math.round(run.first_image_ms * 10) / 10,
  };
  return Object.fromEntries(
    Object.entries(parts).filter((e): e is [string, number] => e[1] !== undefined),
  );
}

/** How to start the child: node arguments before the query. */
export type ColdCommand = readonly string[];

/** The tsx command: `node --import tsx test/bench/cold-start.ts`. */
export const TSX_COMMAND: ColdCommand = ['--import', 'tsx', SCRIPT];

/**
 * Bundles cold-start.ts (and through it the render handler) with esbuild into `dir`, with the
 * render page linked at `dir/page`, where functions/render/browser.ts looks for it.
 * @returns the node arguments that run the bundle.
 */
export async function bundleColdStart(dir: string): Promise<ColdCommand> {
  const { build } = await import('esbuild');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const outfile = join(dir, 'cold-start.mjs');
  await build({
    entryPoints: [SCRIPT],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    external: EXTERNAL_MODULES,
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  await symlink(join(ROOT, 'functions', 'render', 'page'), join(dir, 'page'));
  return [outfile];
}

/**
 * One cold start: spawns the child with the local stack's environment and parses its result.
 * The child and its Chromium run in their own process group, ended as a group on timeout.
 * @param query the render URL's query string (unique values, so no cache hit).
 * @param timeoutMs the whole run's limit.
 * @param options.fresh run with an empty temp folder (a brand-new sandbox: Chromium unpacked
 *   first, about 210 MB written), removed after the run
 * @param options.storedAt with `fresh`: the binary stored unpacked (`CHROMIUM_PATH`, its
 *   `fonts/` beside it), as a container image would hold it; nothing is unpacked
 * @throws Error if the child prints no result or runs over the limit.
 */
export async function runColdStart(
  command: ColdCommand,
  query: string,
  timeoutMs: number,
  options: { fresh?: boolean; storedAt?: string } = {},
): Promise<ColdRun> {
  const emptyTmp = options.fresh ? await mkdtemp(join(tmpdir(), 'bench-fresh-')) : undefined;
  try {
    return await spawnColdStart(command, query, timeoutMs, emptyTmp, options.storedAt);
  } finally {
    if (emptyTmp) await rm(emptyTmp, { recursive: true, force: true });
  }
}

function spawnColdStart(
  command: ColdCommand,
  query: string,
  timeoutMs: number,
  emptyTmp: string | undefined,
  storedAt: string | undefined,
): Promise<ColdRun> {
  const wanted: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    STAGE: 'test',
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    S3_ENDPOINT: process.env.S3_ENDPOINT,
    TABLE_NAME: process.env.TABLE_NAME,
    ASSETS_BUCKET: process.env.ASSETS_BUCKET,
    RENDERS_BUCKET: process.env.RENDERS_BUCKET,
    PUBLIC_URL: process.env.PUBLIC_URL,
    AWS_REGION: process.env.AWS_REGION,
    // A fresh sandbox unpacks @sparticuz/chromium's binary; a set CHROMIUM_PATH would skip that.
    CHROMIUM_PATH: emptyTmp ? storedAt : process.env.CHROMIUM_PATH,
    // Set in every Lambda sandbox: the render function's init warms up there (warm-start.ts).
    AWS_LAMBDA_FUNCTION_NAME: 'bench-render',
    // @sparticuz/chromium and chromium-binary.ts unpack into os.tmpdir(), which reads TMPDIR.
    TMPDIR: emptyTmp,
  };
  const env = Object.fromEntries(
    Object.entries(wanted).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const child = spawn(process.execPath, [...command, query], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  return withTimeout(closed, timeoutMs, 'cold start')
    .catch((error: unknown) => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      throw error;
    })
    .then((code) => {
      const line = out.split('\n').find((l) => l.startsWith('COLD_START '));
      if (!line) throw new Error(`cold start printed no result (exit ${code}):\n${err}${out}`);
      return JSON.parse(line.slice('COLD_START '.length)) as ColdRun;
    });
}
