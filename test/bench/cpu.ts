/**
 * CPU time of a process tree, read from Linux's /proc, for the benchmark's CPU per render
 * (docs/performance.md "CPU per render"): user + system time of a process and every descendant
 * alive now, plus what their exited children left behind (`cutime`/`cstime`, which the kernel adds
 * to a parent when it reaps a child). The sum grows monotonically while no process of the tree is
 * re-parented outside it, so the difference of two readings is the tree's CPU between them, in
 * core-milliseconds, children that started and ended in between included.
 *
 * Resolution: one clock tick (10 ms at the usual USER_HZ of 100) per process and reading.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';

/** One process's times from `/proc/<pid>/stat`, in clock ticks. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** User and system time of the process's own threads (the exited ones too). */
  utime: number;
  stime: number;
  /** User and system time of its reaped children, and theirs, recursively. */
  cutime: number;
  cstime: number;
}

/** At most this many /proc entries are read per reading (a bound on a busy machine). */
const MAX_PROCESSES = 32_768;

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`; 100 when that fails). */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 });
    const n = Number(out.stdout?.trim());
    ticksPerSecond = Number.isInteger(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/**
 * Parses the text of `/proc/<pid>/stat` (or `/proc/<pid>/task/<tid>/stat`). The command name
 * (field 2) is in parentheses and may hold spaces and parentheses, so fields are counted from the
 * last `)`: state is field 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17 (proc(5)).
 * @throws Error when the text is not a stat line.
 */
export function parseProcStat(text: string): ProcStat {
  const close = text.lastIndexOf(')');
  const pid = Number(text.slice(0, text.indexOf('(')).trim());
  // Fields after the command: [0] is field 3 (state).
  const rest = close < 0 ? [] : text.slice(close + 2).split(' ');
  const field = (n: number) => Number(rest[n - 3]);
  const stat = {
    pid,
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
  };
  if (!Object.values(stat).every((v) => Number.isInteger(v) && v >= 0))
    throw new Error(`not a /proc stat line: ${text.slice(0, 80)}`);
  return stat;
}

/** Every readable process's stat now; processes that vanish while being read are skipped. */
export async function readAllStats(): Promise<ProcStat[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n)).slice(0, MAX_PROCESSES);
  const stats = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcStat, () => undefined)),
  );
  return stats.filter((s): s is ProcStat => s !== undefined);
}

/** The process `root` and all its descendants among `stats` (by parent pid). */
export function treeOf(stats: readonly ProcStat[], root: number): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) {
    const list = children.get(s.ppid);
    if (list) list.push(s);
    else children.set(s.ppid, [s]);
  }
  const out: ProcStat[] = [];
  const queue = stats.filter((s) => s.pid === root);
  const seen = new Set<number>();
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (seen.has(s.pid)) continue;
    seen.add(s.pid);
    out.push(s);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return out;
}

/** Total CPU of processes, ms: their own user + system time and their reaped children's. */
export function cpuMsOf(stats: readonly ProcStat[]): number {
  const ticks = stats.reduce((sum, s) => sum + s.utime + s.stime + s.cutime + s.cstime, 0);
  return (ticks * 1000) / clockTicksPerSecond();
}

/** One reading of a process tree's CPU. */
export interface TreeReading {
  /** User + system time of the tree, children that exited included, ms. */
  cpuMs: number;
  /** The pids counted. */
  pids: number[];
}

/**
 * Reads the CPU time of process `root` (default: this one) and its descendants.
 * @returns the total in core-ms and the pids counted.
 */
export async function readTreeCpu(root: number = process.pid): Promise<TreeReading> {
  const tree = treeOf(await readAllStats(), root);
  return { cpuMs: cpuMsOf(tree), pids: tree.map((s) => s.pid) };
}

/**
 * User + system time of the calling thread, ms (`/proc/thread-self/stat`): a worker thread's own
 * CPU, without the rest of its process. Read synchronously: an asynchronous read runs on a libuv
 * pool thread, and `thread-self` would name that thread.
 */
export function threadCpuMs(): number {
  const stat = parseProcStat(readFileSync('/proc/thread-self/stat', 'utf8'));
  return ((stat.utime + stat.stime) * 1000) / clockTicksPerSecond();
}
