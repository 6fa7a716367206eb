/**
 * Small timing helpers for the benchmark (docs/performance.md "Method"). Durations are milliseconds
 * from `performance.now()`.
 */

/** The p-th percentile (0–100) of the values, nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Rounds to one decimal (ms in the table and the JSON). */
export const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Runs `fn` once and returns how long it took, ms. */
export async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times timed.
 * @returns the durations of the timed runs, ms.
 */
export async function sample(
  runs: number,
  warmup: number,
  fn: (i: number) => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await time(() => fn(i)));
  return out;
}

/**
 * Rejects when `promise` has not settled after `ms` milliseconds.
 * @throws Error naming `what` on timeout.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Parses a `Server-Timing` header (`name;dur=12.3, other;dur=4`) into durations by name, ms.
 * Entries without `dur` are left out.
 */
export function parseServerTiming(header: string | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of (header ?? '').split(',')) {
    const [name, ...params] = entry.split(';').map((p) => p.trim());
    const dur = params.find((p) => p.startsWith('dur='));
    if (name && dur) {
      const ms = Number(dur.slice(4));
      if (Number.isFinite(ms)) out[name] = ms;
    }
  }
  return out;
}

/** Collects stage times from many answers and summarises each stage. */
export class StageTimes {
  private readonly byName = new Map<string, number[]>();

  add(timings: Record<string, number>): void {
    for (const [name, ms] of Object.entries(timings)) {
      const list = this.byName.get(name) ?? [];
      list.push(ms);
      this.byName.set(name, list);
    }
  }

  /** p50 of each stage, ms, in the order the stages first appeared. */
  p50(): Record<string, number> {
    return this.at(50);
  }

  /** p99 of each stage, ms, in the order the stages first appeared. */
  p99(): Record<string, number> {
    return this.at(99);
  }

  private at(p: number): Record<string, number> {
    return Object.fromEntries(
      [...this.byName].map(([name, values]) => [name, round1(percentile(values, p))]),
    );
  }
}
