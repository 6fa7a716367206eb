/**
 * The load test (docs/performance.md "Method"): N clients, each sending its next request as soon as
 * the previous one is answered, for a fixed time, every request with distinct parameter values (so
 * every request is drawn, none is a cache hit).
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

/** Runs the load test and summarises it. Never runs longer than duration + request timeout. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let next = 0;
  let ok = 0;
  const stages = new StageTimes();
  const started = performance.now();
  const deadline = started + options.durationMs;
  const error = (kind: string) => (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);

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
          latencies.push(performance.now() - t);
          if (answer.status !== 200) error(`status ${answer.status}`);
          else if (/no-store/i.test(answer.cacheControl)) error('no-store');
          else {
            ok += 1;
            stages.add(parseServerTiming(answer.serverTiming));
          }
        } catch (e) {
          latencies.push(performance.now() - t);
          error((e as Error).message.startsWith('timeout') ? 'timeout' : 'network');
          // A refused connection fails at once: pause, so a dead server is not a busy loop.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      agent.destroy();
    }
  };

  await Promise.all(Array.from({ length: options.clients }, (_, c) => client(c)));
  const elapsedMs = performance.now() - started;
  const errors = Object.values(errorKinds).reduce((a, b) => a + b, 0);
  return {
    completed: latencies.length,
    ok,
    errors,
    errorKinds,
    rps: ok / (elapsedMs / 1000),
    p50Ms: percentile(latencies, 50),
    p90Ms: percentile(latencies, 90),
    p99Ms: percentile(latencies, 99),
    elapsedMs,
    stagesP50Ms: stages.p50(),
  };
}
