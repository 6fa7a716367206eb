/**
 * The load test's clients in a worker thread of their own (docs/performance.md "CPU per render"),
 * so that their CPU can be told apart from the stack's, which runs in the bench's main thread:
 * the worker reports its own thread's CPU over the run (`/proc/thread-self/stat`), and the bench
 * subtracts it from the process tree's.
 *
 * `runLoadInWorker` starts it; the worker runs load.ts `runLoad` (or `runOpenLoad` with
 * `openRps`) with paths from reference.ts (`referencePath(referenceValues(series, i))`).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { threadCpuMs } from './cpu.ts';
import { runLoad, runOpenLoad, type LoadResult } from './load.ts';
import { referencePath, referenceValues } from './reference.ts';

/** What the worker is asked to run (structured-clonable: no functions). */
export interface LoadWorkerOptions {
  port: number;
  clients: number;
  durationMs: number;
  requestTimeoutMs: number;
  /** The values' series (referenceValues), unique per run. */
  series: string;
  /**
   * When set, the open loop (load.ts `runOpenLoad`) at this many arrivals per second instead of
   * `clients` closed-loop clients.
   */
  openRps?: number;
}

type Message =
  | { kind: 'started' }
  | { kind: 'done'; result: LoadResult; clientCpuMs: number }
  | { kind: 'failed'; message: string };

/**
 * Runs the load clients in a worker thread.
 * @param onStarted called (and awaited) when the worker is loaded, just before its first
 *   request: the moment to take the "before" reading of the stack's CPU.
 * @returns the load result and the clients' own CPU over the run, core-ms.
 * @throws Error when the worker fails or exits without a result.
 */
export function runLoadInWorker(
  options: LoadWorkerOptions,
  onStarted: () => Promise<void>,
): Promise<{ result: LoadResult; clientCpuMs: number }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  return new Promise((resolve, reject) => {
    worker.on('message', (message: Message) => {
      if (message.kind === 'started') {
        onStarted().then(
          () => worker.postMessage('go'),
          (error: unknown) => {
            void worker.terminate();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      } else if (message.kind === 'done') {
        resolve({ result: message.result, clientCpuMs: message.clientCpuMs });
      } else reject(new Error(`load worker: ${message.message}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`load worker exited (${code}) without a result`)),
    );
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const options = workerData as LoadWorkerOptions;
  port.once('message', () => {
    void (async () => {
      try {
        const before = threadCpuMs();
        const path = (i: number) => referencePath(referenceValues(options.series, i));
        const result =
          options.openRps === undefined
            ? await runLoad({ ...options, path })
            : await runOpenLoad({ ...options, rps: options.openRps, seed: 1, path });
        const clientCpuMs = threadCpuMs() - before;
        port.postMessage({ kind: 'done', result, clientCpuMs } satisfies Message);
      } catch (error) {
        port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies Message);
      } finally {
        port.close();
      }
    })();
  });
  port.postMessage({ kind: 'started' } satisfies Message);
}
