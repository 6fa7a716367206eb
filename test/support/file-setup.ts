/**
 * Runs before every file of the integration and e2e projects (vitest.config.ts `setupFiles`).
 * Files of a shared project run one after another in one process (`isolate: false`), so what a
 * file changes in the process is put back after it: the environment as the worker began (a file
 * may set keys at module level; billing files switch to online keys), the cached config, and the
 * mocks, spies and fake timers it made (docs/testing.md "What a file must leave behind").
 *
 * Each file also calls from a loopback address of its own (127.x.y.z; all of 127/8 is this
 * machine): the per-address limits (registrations, reset mails, sign-in attempts; functions/auth/
 * throttle.ts) count each file apart, as they would count people at different addresses, so a
 * file never finds an allowance used up by the files before it.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, vi } from 'vitest';
import { resetConfig } from '#lib/config.ts';

const COUNT_KEY = Symbol.for('picsnippets.test.fileCount');
const counter = globalThis as { [COUNT_KEY]?: number };
const fileNumber = (counter[COUNT_KEY] = (counter[COUNT_KEY] ?? 0) + 1);
const worker = Number(process.env.VITEST_POOL_ID ?? 1) % 250;
/** This file's client address: distinct for every file a worker runs (up to 62,500). */
export const FILE_ADDRESS = `127.${worker + 1}.${Math.floor(fileNumber / 250) % 250}.${(fileNumber % 250) + 1}`;
// For tests that read the counters of their own address (test/integration/login-throttle.test.ts).
process.env.TEST_CLIENT_ADDRESS = FILE_ADDRESS;
const previousDispatcher = getGlobalDispatcher();
const dispatcher = new Agent({ localAddress: FILE_ADDRESS });
setGlobalDispatcher(dispatcher);

const BASE_KEY = Symbol.for('picsnippets.test.baseEnvironment');
const holder = globalThis as { [BASE_KEY]?: Record<string, string | undefined> };
const base = (holder[BASE_KEY] ??= { ...process.env });

afterAll(async () => {
  setGlobalDispatcher(previousDispatcher);
  await dispatcher.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  for (const key of Object.keys(process.env)) if (!(key in base)) delete process.env[key];
  Object.assign(process.env, base);
  resetConfig();
});
