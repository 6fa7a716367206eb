/**
 * Where the render's CPU goes (docs/performance.md "CPU per render: profile and changes"): starts
 * the local stack as the bench does (no queue pollers, data folder in memory), runs the closed
 * load of the bench (8 clients, distinct values, the clients in their own worker thread) and
 * splits the stack's CPU over the run per process and per thread, in core-ms per good image:
 * the node process by thread (main, libuv/sharp pool, the rest), each Chromium process by its
 * `--type` and its busiest threads, DynamoDB Local's Java. With `--cpu-prof FILE` the node main
 * thread is sampled over the run (node:inspector's Profiler, 250 µs) and the profile written to
 * FILE (`.cpuprofile`, opens in Chrome DevTools), with the busiest functions by self time.
 *
 * `npx tsx test/bench/cpu-profile.ts [--seconds 20] [--clients 8] [--cpu-prof out.cpuprofile]`
 * after `npm run build:render`. Every phase is time-limited and the stack is stopped in a
 * `finally`. Not a target: the bench's `cpu_ms_per_render` stays the figure.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { clockTicksPerSecond, parseProcStat, readAllStats, treeOf } from './cpu.ts';
import { runLoadInWorker } from './load-worker.ts';
import { round1, withTimeout } from './measure.ts';
import { insertReferenceDesign, referencePath, referenceValues } from './reference.ts';
import { formatTable } from './table.ts';

/** A table of string rows under `columns` (table.ts `formatTable`). */
const table = (columns: string[], rows: Array<Array<string | number>>): string =>
  formatTable(
    columns,
    rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))),
  );

process.env.STAGE = 'test';
const { startLocalStack } = await import('#infra/local/stack.ts');

/** The value after `--name`, or undefined. */
function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}
const SECONDS = Math.min(120, Math.max(2, Number(arg('seconds') ?? 20)));
const CLIENTS = Math.min(32, Math.max(1, Number(arg('clients') ?? 8)));
const PROFILE = arg('cpu-prof');
/** Where to write the render page's own JS profile (CDP Profiler), when set. */
const PAGE_PROFILE = arg('page-prof');
/** Then an open loop at this share of the closed loop's good images/s (0–1), when set. */
const OPEN =
  arg('open') === undefined ? undefined : Math.min(1, Math.max(0.05, Number(arg('open'))));
const WARMUP = 30;
/** How long the stack's idle CPU is read before the load, ms. */
const IDLE_MS = 5000;
/** At most this many threads are read per process (a bound; Chromium has about 20 each). */
const MAX_THREADS = 512;

/** One thread's CPU, ticks, with its process and name. */
interface ThreadTicks {
  pid: number;
  tid: number;
  process: string;
  thread: string;
  ticks: number;
}

/** A process's role: Chromium's `--type`, `chromium` for the browser, else its command. */
async function processName(pid: number): Promise<string> {
  const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const parts = cmd.split('\0');
  if (pid === process.pid) return 'node (stack)';
  if (/chrom/i.test(parts[0] ?? '')) {
    const type = parts.find((p) => p.startsWith('--type='))?.slice(7);
    const sub = parts.find((p) => p.startsWith('--utility-sub-type='))?.slice(19);
    return `chromium ${type ?? 'browser'}${sub ? ` (${sub.split('.').pop()})` : ''}`;
  }
  return (parts[0] ?? '').split('/').pop() || `pid ${pid}`;
}

/** Every thread of the stack's process tree now (threads that exited are in their process). */
async function readThreads(): Promise<{ threads: ThreadTicks[]; reaped: number }> {
  const tree = treeOf(await readAllStats(), process.pid);
  const threads: ThreadTicks[] = [];
  let reaped = 0;
  for (const p of tree) {
    reaped += p.cutime + p.cstime;
    const name = await processName(p.pid);
    const tids = (await readdir(`/proc/${p.pid}/task`).catch(() => [] as string[])).slice(
      0,
      MAX_THREADS,
    );
    let threadSum = 0;
    for (const tid of tids) {
      const [stat, comm] = await Promise.all([
        readFile(`/proc/${p.pid}/task/${tid}/stat`, 'utf8').catch(() => ''),
        readFile(`/proc/${p.pid}/task/${tid}/comm`, 'utf8').catch(() => '?'),
      ]);
      if (!stat) continue;
      const s = parseProcStat(stat);
      threadSum += s.utime + s.stime;
      threads.push({
        pid: p.pid,
        tid: Number(tid),
        process: name,
        thread: comm.trim(),
        ticks: s.utime + s.stime,
      });
    }
    // Threads that exited: their time stays in the process's own total.
    const exited = p.utime + p.stime - threadSum;
    if (exited > 0)
      threads.push({
        pid: p.pid,
        tid: -1,
        process: name,
        thread: '(exited threads)',
        ticks: exited,
      });
  }
  return { threads, reaped };
}

/** A thread's group in the table: node's pool threads and Chromium's pools as one each. */
function threadGroup(t: ThreadTicks): string {
  if (t.pid === process.pid && t.tid === process.pid) return 'main thread';
  // Chromium numbers the threads of a pool (ThreadPoolForegroundWorker1, 2…): one row per pool.
  let end = t.thread.length;
  while (end > 0 && t.thread[end - 1]! >= '0' && t.thread[end - 1]! <= '9') end--;
  return t.thread.slice(0, end);
}

const stack = await withTimeout(
  startLocalStack({
    port: 0,
    web: 'none',
    queues: false,
    tempParent: existsSync('/dev/shm') ? '/dev/shm' : undefined,
  }),
  180_000,
  'stack start',
);
try {
  await insertReferenceDesign();
  const origin = `http://127.0.0.1:${stack.port}`;
  const nonce = Date.now().toString(36);
  for (let i = 0; i < WARMUP; i++) {
    const answer = await fetch(origin + referencePath(referenceValues(`w${nonce}`, i)), {
      signal: AbortSignal.timeout(15_000),
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`warm-up render answered ${answer.status}`);
  }
  // The stack's CPU with no requests (timers, Chromium's and the JVM's own threads): over the
  // load it is spread across the renders, more per render the fewer renders a second.
  const idleBefore = await readThreads();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idleAfter = await readThreads();
  const idleTicks =
    idleAfter.threads.reduce((s, t) => s + t.ticks, 0) -
    idleBefore.threads.reduce((s, t) => s + t.ticks, 0);
  const session = new Session();
  const { getRenderPage } = await import('#functions/render/browser.ts');
  const pageSession = PAGE_PROFILE ? await (await getRenderPage()).createCDPSession() : undefined;
  let before = { threads: [] as ThreadTicks[], reaped: 0 };
  const run = await withTimeout(
    runLoadInWorker(
      {
        port: stack.port,
        clients: CLIENTS,
        durationMs: SECONDS * 1000,
        requestTimeoutMs: 10_000,
        series: `p${nonce}`,
      },
      async () => {
        if (PROFILE) {
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: 250 });
          await session.post('Profiler.start');
        }
        if (pageSession) {
          await pageSession.send('Profiler.enable');
          await pageSession.send('Profiler.setSamplingInterval', { interval: 250 });
          await pageSession.send('Profiler.start');
        }
        before = await readThreads();
      },
    ),
    SECONDS * 1000 + 60_000,
    'load',
  );
  const after = await readThreads();
  const ok = run.result.ok;
  const msPerTick = 1000 / clockTicksPerSecond();
  const per = (ticks: number) => round1((ticks * msPerTick) / ok);
  const was = new Map(before.threads.map((t) => [`${t.pid}:${t.tid}:${t.thread}`, t.ticks]));
  const byProcess = new Map<string, number>();
  const byThread = new Map<string, number>();
  let total = after.reaped - before.reaped;
  byProcess.set('(reaped children)', after.reaped - before.reaped);
  for (const t of after.threads) {
    const d = t.ticks - (was.get(`${t.pid}:${t.tid}:${t.thread}`) ?? 0);
    if (d <= 0) continue;
    total += d;
    byProcess.set(t.process, (byProcess.get(t.process) ?? 0) + d);
    const key = `${t.process} / ${threadGroup(t)}`;
    byThread.set(key, (byThread.get(key) ?? 0) + d);
  }
  const clientTicks = run.clientCpuMs / msPerTick;
  const rows = [...byProcess].sort((a, b) => b[1] - a[1]);
  console.log(
    `\n${ok} good images in ${SECONDS} s (${round1(ok / SECONDS)} rps), ${run.result.errors} errors; ` +
      `p50 ${round1(run.result.p50Ms)} ms, p99 ${round1(run.result.p99Ms)} ms`,
  );
  console.log(
    `stack CPU per render: ${per(total - clientTicks)} core-ms ` +
      `(tree ${per(total)}, load clients ${per(clientTicks)})\n`,
  );
  console.log(
    `stages p50 (ms): ${Object.entries(run.result.stagesP50Ms)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
  );
  console.log(
    `idle stack: ${round1((idleTicks * msPerTick) / (IDLE_MS / 1000))} core-ms per second ` +
      `(${per((idleTicks * SECONDS * 1000) / IDLE_MS)} core-ms per render at this rate)\n`,
  );
  console.log(
    table(
      ['process', 'core-ms / render'],
      rows.filter(([, t]) => t > 0).map(([name, t]) => [name, per(t)]),
    ),
  );
  console.log('');
  console.log(
    table(
      ['process / thread', 'core-ms / render'],
      [...byThread]
        .sort((a, b) => b[1] - a[1])
        .filter(([, t]) => per(t) >= 0.2)
        .map(([name, t]) => [name, per(t)]),
    ),
  );
  if (PROFILE) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(PROFILE, JSON.stringify(profile));
    summariseProfile(profile, ok);
  }
  if (OPEN !== undefined) await openLoop(stack.port, OPEN * (ok / SECONDS), `o${nonce}`);
  if (pageSession && PAGE_PROFILE) {
    const { profile } = await pageSession.send('Profiler.stop');
    await writeFile(PAGE_PROFILE, JSON.stringify(profile));
    console.log('\nrender page (Chromium renderer, JS):');
    summariseProfile(profile, run.result.ok);
  }
} finally {
  await withTimeout(stack.stop(), 60_000, 'stack stop');
}
process.exit(0);

/**
 * The open loop (load.ts `runOpenLoad`) at `rps` for the same time, with what a request's time is
 * made of at p50 and p99: the client's latency, the service's stages (Server-Timing; `queue`
 * is the wait for the warm page), the stack's event-loop delay and its garbage collections.
 */
async function openLoop(port: number, rps: number, series: string): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const pauses: number[] = [];
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push(e.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  delay.enable();
  const open = await withTimeout(
    runLoadInWorker(
      {
        port,
        clients: 1,
        durationMs: SECONDS * 1000,
        requestTimeoutMs: 10_000,
        series,
        openRps: rps,
      },
      async () => undefined,
    ),
    SECONDS * 1000 + 60_000,
    'open loop',
  );
  delay.disable();
  gc.disconnect();
  const r = open.result;
  const ms = (ns: number) => round1(ns / 1e6);
  pauses.sort((a, b) => a - b);
  console.log(
    `\nopen loop at ${round1(rps)} rps: ${r.ok} good, ${r.errors} errors; latency p50 ${round1(r.p50Ms)} ` +
      `ms, p90 ${round1(r.p90Ms)}, p99 ${round1(r.p99Ms)} (p99/p50 ${round1(r.p99Ms / r.p50Ms)}×)`,
  );
  console.log(
    `event-loop delay of the stack: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))}, ` +
      `max ${ms(delay.max)}; GC pauses: ${pauses.length}, ${round1(pauses.reduce((a, b) => a + b, 0))} ms ` +
      `in all, longest ${round1(pauses.at(-1) ?? 0)} ms`,
  );
  const names = Object.keys(r.stagesP50Ms);
  console.log(
    table(
      ['stage', 'p50 ms', 'p99 ms'],
      names.map((n) => [n, r.stagesP50Ms[n] ?? '', r.stagesP99Ms[n] ?? '']),
    ),
  );
}

/** Prints the functions with the most self time in a profile, and self time by file. */
function summariseProfile(
  profile: {
    nodes: Array<{
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }>;
    samples?: number[];
    timeDeltas?: number[];
  },
  renders: number,
): void {
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++)
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const n of profile.nodes) {
    const us = self.get(n.id) ?? 0;
    if (us === 0) continue;
    const file = n.callFrame.url
      .replace(/^.*\/node_modules\//, 'nm:')
      .replace(/^.*\/(work|tmp)\/[^/]+\//, '');
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    const group =
      file === ''
        ? `(${n.callFrame.functionName})`
        : file.startsWith('nm:')
          ? file
              .split('/')
              .slice(0, file.startsWith('nm:@') ? 2 : 1)
              .join('/')
          : file;
    byFile.set(group, (byFile.get(group) ?? 0) + us);
  }
  const ms = (us: number) => round1(us / 1000 / renders);
  console.log('\nnode main thread, self time by file or package (ms per render):');
  console.log(
    table(
      ['file', 'ms'],
      [...byFile]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([f, us]) => [f, ms(us)]),
    ),
  );
  console.log('\nbusiest functions (self ms per render):');
  console.log(
    table(
      ['function', 'ms'],
      [...byFn]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([f, us]) => [f, ms(us)]),
    ),
  );
}
