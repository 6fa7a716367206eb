/**
 * The load test (docs/performance.md "Method"): N clients, each sending its next request as soon as
 * the previous one is answered, for a fixed time, every request with distinct parameter values (so
 * every request is drawn, none is a cache hit). `runOpenLoad` is the open loop: requests arrive at
 * a fixed Poisson rate whatever the answers do, as independent opens do.
 *
 * Each client has its own keep-alive connection from its own loopback address (127.0.0.2,
 * 127.0.0.3, …): separate clients, as recipients are, so the per-IP render budget (service.ts
 * `DEFAULT_LIMITS`, 20 draws/s per IP) applies per client, not to the sum.
 *
 * An error is any answer that is not 200, any answer with `Cache-Control: no-store` (the
 * service's fallback image: a failed, timed-out or rate-limited draw), and any network failure
 * or timeout.
 */
import { Agent, request } from 'node:http';
import { mulberry32 } from '#shared/analytics/optimiser.ts';
import { StageTimes, parseServerTiming, percentile } from './measure.ts';

export interface LoadOptions {
  /** The gateway's port on 127.0.0.1. */
  port: number;
  /** Concurrent clients. */
  clients: number;
  /** How long clients start new requests, ms. */
  durationMs: number;
  /** Per-request limit, ms; a request over it counts as an error. */
  requestTimeoutMs: number;
  /** The path and query of request `i` (distinct per `i`). */
  path(i: number): string;
}

export interface LoadResult {
  /** Requests answered (good or not). */
  completed: number;
  /** Good images: 200 without `no-store`. */
  ok: number;
  errors: number;
  /** Error causes and counts, e.g. `{ "no-store": 3 }`. */
  errorKinds: Record<string, number>;
  /** Good images per second over the whole run. */
  rps: number;
  /** Latency over every completed request, ms. */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** From the first request to the last answer, ms. */
  elapsedMs: number;
  /** p50 of each `Server-Timing` stage of the good answers, ms (empty if none is sent). */
  stagesP50Ms: Record<string, number>;
  /** p99 of each stage, the same way. */
  stagesP99Ms: Record<string, number>;
}

interface Answer {
  status: number;
  cacheControl: string;
  serverTiming: string;
}

/** One GET from `localAddress` over the client's keep-alive agent; the body is read and dropped. */
function get(agent: Agent, localAddress: string, port: number, path: string, timeoutMs: number) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'GET', agent, localAddress },
      (res) => {
        res.on('data', () => undefined);
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cacheControl: String(res.headers['cache-control'] ?? ''),
            serverTiming: String(res.headers['server-timing'] ?? ''),
          }),
        );
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Latencies, good images, error kinds and stage times of a load run, and its summary. */
class Tally {
  readonly latencies: number[] = [];
  readonly errorKinds: Record<string, number> = {};
  readonly stages = new StageTimes();
  ok = 0;

  error(kind: string): void {
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
  }

  /** Counts one answer that took `ms`. */
  answer(answer: Answer, ms: number): void {
    this.latencies.push(ms);
    if (answer.status !== 200) this.error(`status ${answer.status}`);
    else if (/no-store/i.test(answer.cacheControl)) this.error('no-store');
    else {
      this.ok += 1;
      this.stages.add(parseServerTiming(answer.serverTiming));
    }
  }

  /** Counts one request that failed after `ms` (timeout or network). */
  failure(e: unknown, ms: number): void {
    this.latencies.push(ms);
    this.error((e as Error).message.startsWith('timeout') ? 'timeout' : 'network');
  }

  summary(elapsedMs: number): LoadResult {
    const errors = Object.values(this.errorKinds).reduce((a, b) => a + b, 0);
    return {
      completed: this.latencies.length,
      ok: this.ok,
      errors,
      errorKinds: this.errorKinds,
      rps: this.ok / (elapsedMs / 1000),
      p50Ms: percentile(this.latencies, 50),
      p90Ms: percentile(this.latencies, 90),
      p99Ms: percentile(this.latencies, 99),
      elapsedMs,
      stagesP50Ms: this.stages.p50(),
      stagesP99Ms: this.stages.p99(),
    };
  }
}

/** Runs the load test and summarises it. Never runs longer than duration + request timeout. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const tally = new Tally();
  let next = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;

  const client = async (c: number): Promise<void> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const localAddress = `127.0.0.${2 + c}`;
    try {
      while (performance.now() < deadline) {
        const path = options.path(next++);
        const t = performance.now();
        try {
          const answer = await get(
            agent,
            localAddress,
            options.port,
            path,
            options.requestTimeoutMs,
          );
          tally.answer(answer, performance.now() - t);
        } catch (e) {
          tally.failure(e, performance.now() - t);
          // A refused connection fails at once: pause, so a dead server is not a busy loop.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      agent.destroy();
    }
  };

  await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
  return tally.summary(performance.now() - started);
}

/** The open loop's settings: `clients` is unused, the rate sets the load. */
export interface OpenLoadOptions extends Omit<LoadOptions, 'clients'> {
  /** Mean arrivals per second (Poisson: exponential gaps between sends). */
  rps: number;
  /** Seed of the arrival times, so two runs at one rate send at the same moments. */
  seed: number;
}

/** Requests in flight at most; an arrival beyond it is an error (`overload`), never queued. */
const MAX_IN_FLIGHT = 256;
/** Loopback addresses at most (127.0.0.2 …): the per-IP draw budget is 20/s, burst 100. */
const MAX_ADDRESSES = 200;

/**
 * The open-loop load test (docs/performance.md "Open-loop load"): requests sent at Poisson
 * arrival times of mean rate `rps` for `durationMs`, each whether or not earlier ones were
 * answered, spread over enough loopback addresses that no one address passes 10 requests/s
 * (the per-IP budget is 20/s). A request's latency counts from its planned send time, so a
 * client that falls behind is not hidden. At most `MAX_IN_FLIGHT` requests are outstanding.
 * Never runs longer than duration + request timeout.
 */
export async function runOpenLoad(options: OpenLoadOptions): Promise<LoadResult> {
  const tally = new Tally();
  const random = mulberry32(options.seed);
  const addresses = Math.min(MAX_ADDRESSES, Math.max(1, Math.ceil(options.rps / 10)));
  const agents = Array.from(
    { length: addresses },
    () => new Agent({ keepAlive: true, maxSockets: 32 }),
  );
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  let planned = started;
  let i = 0;
  try {
    for (;;) {
      planned += (-Math.log(1 - random()) / options.rps) * 1000;
      if (planned - started >= options.durationMs) break;
      const wait = planned - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (pending.size >= MAX_IN_FLIGHT) {
        tally.error('overload');
        continue;
      }
      const at = planned;
      const c = i % addresses;
      const sent = get(
        agents[c]!,
        `127.0.0.${2 + c}`,
        options.port,
        options.path(i++),
        options.requestTimeoutMs,
      )
        .then(
          (answer) => tally.answer(answer, performance.now() - at),
          (e: unknown) => tally.failure(e, performance.now() - at),
        )
        .finally(() => pending.delete(sent));
      pending.add(sent);
    }
    await Promise.all(pending);
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return tally.summary(performance.now() - started);
}
