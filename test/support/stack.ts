/**
 * Test helper: the real local stack (DynamoDB Local in memory, s3rver in a temp folder, warm
 * Chromium, the gateway on a free port) for integration and e2e files (docs/testing.md).
 *
 * In the shared projects (`STACK=shared`, `isolate: false`) one stack per vitest worker is started
 * by the first file that asks for it and serves every later file of that worker; files isolate by
 * data (a team and users of their own). A file marked `@own-stack` runs in the isolated project
 * and starts a stack of its own here, stopped after the file.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { LocalStack, LocalStackOptions } from '#infra/local/stack.ts';

process.env.STAGE = 'test';

/**
 * Warms the stack as a Lambda warms after its cold start, so a test's first user-facing wait
 * does not also pay for it: imports every feature's handler (the gateway imports, and under
 * vitest compiles, a handler on its first request: about 1 s for the first, several on a loaded
 * 2-core machine), then sends the requests every SPA page starts with (`GET /api/health` reads
 * DynamoDB and S3; `GET /user/current` runs the session middleware). Changes no data.
 * @throws Error if a handler fails to import or a warm-up request fails at the network level.
 */
export async function warmLocalStack(stack: LocalStack): Promise<void> {
  const [{ FEATURES }, { loadHandler }] = await Promise.all([
    import('#shared/routes.ts'),
    import('#infra/local/gateway.ts'),
  ]);
  // One at a time: the imports share most of their modules, and the CPU is shared too.
  for (const feature of FEATURES) await loadHandler(feature);
  for (const path of ['/api/health', '/user/current']) {
    const res = await fetch(`${stack.url}${path}`, {
      headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    });
    await res.arrayBuffer();
  }
}

/**
 * Options a file of a shared project may pass: they only say what the file needs ready (the
 * built SPA, a warm Chromium), which the shared stack always has.
 */
const SHAREABLE_OPTIONS = new Set<keyof LocalStackOptions>(['web', 'warmChromium']);

/** True in the projects whose files share their worker's stack (vitest.config.ts). */
export const SHARED_STACK = process.env.STACK === 'shared';

const SHARED_KEY = Symbol.for('picsnippets.test.sharedStack');
type SharedHolder = { [SHARED_KEY]?: Promise<LocalStack> };

/**
 * The worker's shared stack: started on first use (serving the built SPA, warm Chromium, every
 * handler imported, the queue pollers running), kept for the worker's life. On the worker's exit,
 * even by SIGTERM or SIGINT, its DynamoDB Local, Chromium and data folder go with it
 * (infra/local/services.ts `killChildren`, puppeteer's exit hook); a SIGKILL is covered by the
 * parent-death signal of the services' processes.
 */
function sharedStack(): Promise<LocalStack> {
  const holder = globalThis as SharedHolder;
  holder[SHARED_KEY] ??= (async () => {
    const { startLocalStack } = await import('#infra/local/stack.ts');
    const { killChildren } = await import('#infra/local/services.ts');
    const started = performance.now();
    const stack = await startLocalStack({ port: 0, web: 'preview' });
    await warmLocalStack(stack);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`shared stack of worker ${process.pid} started in ${seconds} s at ${stack.url}`);
    process.once('exit', () => {
      killChildren();
      rmSync(stack.dataDir, { recursive: true, force: true });
    });
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => process.exit(0));
    return stack;
  })();
  return holder[SHARED_KEY];
}

/**
 * The stack a test file uses: in a shared project, its worker's stack, made current for the file
 * (`LocalStack.activate`); in the isolated project, a stack of its own started in `beforeAll` and
 * stopped in `afterAll`. A browser file's own stack (`web: 'preview'`) is warmed first
 * (`warmLocalStack`): a browser sign-in crosses several handlers within one 20 s wait.
 * @throws Error (at collection) if a shared-project file asks for options only its own stack can
 *   have (`seed: false`, `queues: false`, `dynamoOnDisk`…): such a file says `@own-stack` and why.
 */
export function useLocalStack(options: LocalStackOptions = {}): () => LocalStack {
  let stack: LocalStack | undefined;
  if (SHARED_STACK) {
    const own = Object.keys(options).filter(
      (key) => !SHAREABLE_OPTIONS.has(key as keyof LocalStackOptions),
    );
    if (own.length > 0)
      throw new Error(
        `useLocalStack(${own.join(', ')}) needs a stack of its own: mark the file "@own-stack: <why>" (docs/testing.md)`,
      );
    beforeAll(async () => {
      stack = await sharedStack();
      stack.activate();
    });
  } else {
    beforeAll(async () => {
      const { startLocalStack } = await import('#infra/local/stack.ts');
      stack = await startLocalStack({ port: 0, web: 'none', ...options });
      if (options.web === 'preview') await warmLocalStack(stack);
    });
    afterAll(async () => {
      await stack?.stop();
    });
  }
  return () => {
    if (!stack) throw new Error('the local stack did not start');
    return stack;
  };
}

/** The API client the SPA uses, in short: JSON with the XHR header. */
export async function api(
  stack: LocalStack,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Fetches an image and decodes it with sharp to raw RGB pixels. */
export async function fetchImage(url: string) {
  const sharp = (await import('sharp')).default;
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { res, bytes, pixels: data, width: info.width, height: info.height };
}

/**
 * Mean absolute difference per channel (0–255) between two same-size RGB images, inside a
 * rectangle (px).
 */
export function meanDifference(
  a: Buffer,
  b: Buffer,
  width: number,
  rect: { left: number; top: number; width: number; height: number },
): number {
  let sum = 0;
  let n = 0;
  for (let y = rect.top; y < rect.top + rect.height; y++) {
    for (let x = rect.left; x < rect.left + rect.width; x++) {
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        sum += Math.abs(a[i]! - b[i]!);
        n++;
      }
    }
  }
  return sum / n;
}

/**
 * Polls `read` until `done` holds for its answer, instead of sleeping a fixed time (a loaded
 * machine makes any fixed sleep flaky, an idle one makes it slow).
 * @param timeoutMs give up after this long, ms (default 10 000)
 * @param intervalMs between reads, ms (default 50)
 * @returns the first answer that satisfies `done`
 * @throws Error naming `what` and the last answer when it never does
 */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > until) {
      const shown = String(
        JSON.stringify(last, (_k, v: unknown) => (Buffer.isBuffer(v) ? '<bytes>' : v)),
      );
      throw new Error(`${what}: not so after ${timeoutMs} ms (last: ${shown.slice(0, 300)})`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await read();
  }
  return last;
}
