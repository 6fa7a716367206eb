/**
 * The newcomer's path (README "Quick start"; docs/operations.md "Chromium's first unpack" and
 * "Health"): `npm start` as a user runs it, in a child process with its own temp folder (where
 * @sparticuz/chromium unpacks) and its own data folder, so nothing here touches the other tests'
 * Chromium or a developer's `.local/`.
 *
 * - A first start killed while Chromium is being unpacked leaves a cut-short binary; the next
 *   start unpacks it again and serves the demo image.
 * - A binary that is complete by its size but does not start is unpacked again once.
 * - `/api/health` answers 503 with what it waits for until the renderer can draw; once it
 *   answers 200, the demo render answers an image at once.
 * - Ctrl-C (SIGINT to the process group, as a terminal sends it) leaves no Java or Chromium.
 *
 * Mutation checks (run): without the second launch in `launchChromium`, the second test fails
 * ("Could not start the local stack"). The first is guarded twice, by the unpack marker and by
 * that second launch: with `chromiumExecutable` reduced to the library's `executablePath()` it
 * still passes, through the second launch.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/services.ts';
import { DEMO_PUBLIC_ID } from '#infra/local/seed.ts';
import { pollUntil } from '../support/stack.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

interface Product {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Every writer of its output closed (the grandchildren `tsx` started included). */
  closed: Promise<void>;
}

const started: Product[] = [];
const folders: string[] = [];

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `first-run-${name}-`));
  folders.push(dir);
  return dir;
}

/** `npm start`'s program, as its own process group (so SIGINT reaches it as Ctrl-C would). */
async function startProduct(tmp: string, data: string): Promise<Product> {
  const port = await freePort();
  const child = spawn(TSX, ['infra/local/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: tmp, PORT: String(port), LOCAL_DATA_DIR: data, STAGE: 'local' },
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const closed = new Promise<void>((done) => child.once('close', () => done()));
  const product = { child, url: `http://127.0.0.1:${port}`, output: () => out, exited, closed };
  started.push(product);
  return product;
}

/**
 * Polls `/api/health` until 200; returns every answer body seen. The deadline only bounds a hang
 * (the first unpack takes long on a loaded machine).
 */
async function healthUntilReady(product: Product, deadlineMs = 150_000): Promise<string[]> {
  const seen: string[] = [];
  let exited = false;
  void product.exited.then(() => (exited = true));
  const answer = async () => {
    try {
      const res = await fetch(`${product.url}/api/health`, { signal: AbortSignal.timeout(5000) });
      seen.push(`${res.status} ${await res.text()}`);
      return res.status;
    } catch {
      return 0; // not listening yet
    }
  };
  const last = await pollUntil('health answers 200', answer, (s) => s === 200 || exited, {
    timeoutMs: deadlineMs,
    intervalMs: 200,
  }).catch((error: Error) => {
    throw new Error(`${error.message}; output:\n${product.output().slice(-3000)}`);
  });
  if (last !== 200)
    throw new Error(`exited before health answered 200; output:\n${product.output().slice(-3000)}`);
  return seen;
}

async function expectDemoImage(product: Product): Promise<void> {
  const res = await fetch(`${product.url}/r/${DEMO_PUBLIC_ID}.jpg?first_name=Ana`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  // A real render is cached; a fallback never is (README "The render URL").
  expect(res.headers.get('cache-control')).not.toBe('no-store');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  expect(meta.format).toBe('jpeg');
  expect(meta.width).toBeGreaterThan(100);
}

/** Processes whose command line names `path` (Chromium from its temp folder, Java by data). */
function processesNaming(path: string): string[] {
  const list = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return list.split('\n').filter((line) => line.includes(path) && !line.includes('ps -eo'));
}

async function stopWithCtrlC(product: Product): Promise<void> {
  process.kill(-product.child.pid!, 'SIGINT');
  // No time is promised for the stop: the deadline only bounds a hang.
  await pollUntil(
    'the product exited after Ctrl-C',
    () => Promise.resolve(product.child.exitCode !== null || product.child.signalCode !== null),
    (gone) => gone,
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  // `exit` can come before the last output: the program runs under `tsx`, whose child writes
  // to the same pipes. Its output is whole once every writer closed them (bounded: a writer
  // that never closes would fail the assertions after, never hang).
  await Promise.race([product.closed, new Promise((r) => setTimeout(r, 10_000))]);
}

afterEach(async () => {
  for (const p of started.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      try {
        process.kill(-p.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the first start (README quick start)', () => {
  it('recovers from a first start killed while Chromium was being unpacked', async () => {
    const tmp = await folder('tmp');
    const data = await folder('data');
    const first = await startProduct(tmp, data);
    const binary = join(tmp, 'chromium');
    // Kill the whole start (as a closed terminal would) once the binary is being written.
    await pollUntil(
      'the first start writes the Chromium binary',
      () => Promise.resolve(existsSync(binary) && statSync(binary).size > 0),
      (writing) => writing,
      { timeoutMs: 120_000, intervalMs: 20 },
    );
    process.kill(-first.child.pid!, 'SIGKILL');
    await first.exited;
    const left = statSync(binary).size;

    const second = await startProduct(tmp, data);
    const answers = await healthUntilReady(second);
    await expectDemoImage(second);
    // The binary is whole now, and bigger than what the killed start had written.
    expect(statSync(binary).size).toBeGreaterThan(left);
    expect(answers.at(-1)).toContain('"ok":true');
    await stopWithCtrlC(second);
  }, 300_000);

  it('unpacks again a binary that does not start, answers 503 until it can draw, and stops clean', async () => {
    const tmp = await folder('tmp');
    const data = await folder('data');
    // A corrupt binary that passes the size check: its marker claims it is complete, so only
    // the failed launch can tell.
    const corrupt = Buffer.concat([Buffer.from('\x7fELF'), Buffer.alloc(4096)]);
    await writeFile(join(tmp, 'chromium'), corrupt, { mode: 0o700 });
    const { version } = JSON.parse(
      await readFile(join(ROOT, 'node_modules', '@sparticuz', 'chromium', 'package.json'), 'utf8'),
    ) as { version: string };
    await writeFile(
      join(tmp, 'chromium.unpacked.json'),
      JSON.stringify({ version, bytes: corrupt.length }),
    );
    const product = await startProduct(tmp, data);
    const answers = await healthUntilReady(product);
    // Before it could draw, health said what it waited for (the unpack takes seconds).
    const waiting = answers.filter((a) => a.startsWith('503 '));
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.join('\n')).toMatch(/renderer: (starting|unpacking|launching) Chromium/);
    // As soon as health is 200, the demo image is drawn.
    await expectDemoImage(product);
    expect(product.output()).toContain('PicSnippets is running');
    expect(product.output()).toContain('unpacking it again');

    await stopWithCtrlC(product);
    expect(product.output()).toContain('stopping');
    expect(processesNaming(join(tmp, 'chromium'))).toEqual([]);
    expect(processesNaming(data)).toEqual([]);
  }, 300_000);
});
