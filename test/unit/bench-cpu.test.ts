/**
 * The benchmark's CPU reading (test/bench/cpu.ts; docs/performance.md "CPU per render"): a process
 * tree's user + system time from /proc counts the work of this process and of a child that has
 * already exited. Compared with the CPU the work itself reports, never with a clock.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  cpuMsOf,
  parseProcStat,
  readTreeCpu,
  threadCpuMs,
  treeOf,
  type ProcStat,
} from '../bench/cpu.ts';

/** Spins until this process has used `ms` more CPU (process.cpuUsage), and returns what it used. */
function burn(ms: number): number {
  const start = process.cpuUsage();
  let used = 0;
  let x = 0;
  for (let i = 0; used < ms && i < 1e9; i++) {
    x += Math.sqrt(i);
    if (i % 10_000 === 0) {
      const d = process.cpuUsage(start);
      used = (d.user + d.system) / 1000;
    }
  }
  return x > 0 ? used : 0;
}

const stat = (pid: number, ppid: number, ticks: number): ProcStat => ({
  pid,
  ppid,
  utime: ticks,
  stime: 0,
  cutime: 0,
  cstime: 0,
});

describe('process tree CPU from /proc', () => {
  it('parses a stat line whose command holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = 'S'; // field 3, the state
    const line = `1234 (Web Content (x)) ${fields.join(' ')}`;
    expect(parseProcStat(line)).toEqual({
      pid: 1234,
      ppid: 4,
      utime: 14,
      stime: 15,
      cutime: 16,
      cstime: 17,
    });
    expect(() => parseProcStat('garbage')).toThrow(/not a \/proc stat line/);
  });

  it('takes a process and its descendants, not its siblings', () => {
    const all = [stat(1, 0, 5), stat(10, 1, 1), stat(11, 10, 2), stat(12, 10, 3), stat(20, 1, 7)];
    expect(
      treeOf(all, 10)
        .map((s) => s.pid)
        .sort(),
    ).toEqual([10, 11, 12]);
    expect(treeOf(all, 99)).toEqual([]);
  });

  it('counts CPU this process burns', async () => {
    const before = await readTreeCpu();
    expect(before.pids).toContain(process.pid);
    const burnt = burn(300);
    const after = await readTreeCpu();
    // /proc counts in clock ticks (10 ms): allow a few of them below what the work reported.
    expect(after.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(burnt - 50);
  });

  it('counts the CPU of a child that has already exited', async () => {
    const before = await readTreeCpu();
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `const s = process.cpuUsage(); let u = 0, x = 0;
         for (let i = 0; u < 300; i++) { x += Math.sqrt(i); if (i % 10000 === 0) { const d = process.cpuUsage(s); u = (d.user + d.system) / 1000; } }
         const d = process.cpuUsage(); console.log((d.user + d.system) / 1000);`,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    const childMs = Number(child.stdout.trim());
    expect(childMs).toBeGreaterThanOrEqual(300);
    const after = await readTreeCpu();
    // The child is gone; its time is in this process's cutime/cstime now.
    expect(after.pids).not.toContain(child.pid);
    expect(after.cpuMs - before.cpuMs).toBeGreaterThanOrEqual(childMs - 50);
  });

  it("reads the calling thread's own CPU", () => {
    const before = threadCpuMs();
    const burnt = burn(200);
    // process.cpuUsage also counts the process's other threads (GC), so allow for them.
    expect(threadCpuMs() - before).toBeGreaterThanOrEqual(burnt * 0.7 - 20);
    expect(cpuMsOf([stat(1, 0, 100)])).toBeGreaterThan(0);
  });
});
