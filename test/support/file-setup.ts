/**
 * Runs before every file of the unit, integration and e2e projects (vitest.config.ts `setupFiles`).
 * Files of a shared project run one after another in one process (`isolate: false`), so what a
 * file changes in the process is put back after it: the environment as the worker began (a file
 * may set keys at module level; billing files switch to online keys), the cached config, and the
 * mocks, spies and fake timers it made (docs/testing.md "What a file must leave behind").
 *
 * Each file also calls from a loopback address of its own (127.0.0.x; all of 127/8 is this
 * machine): the per-address limits (registrations, reset mails, sign-in attempts;
 * functions/lib/limits/attempts.ts) count each file apart, as they would count people at different
 * addresses, so a file never finds an allowance used up by the files before it.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, vi } from 'vitest';
import { resetConfig } from '#lib/config.ts';

const COUNT_KEY = Symbol.for('picsnippets.test.fileCount');
const counter = globalThis as { [COUNT_KEY]?: number };
const fileNumber = (counter[COUNT_KEY] = (counter[COUNT_KEY] ?? 0) + 1);
/**
 * This file's client address: 127.0.0.2 to 127.0.0.254, one per file a worker runs (a worker has
 * a stack of its own, so addresses repeat only after 253 files). Inside 127.0.0.0/24 on purpose:
 * the local stack takes those addresses for the mail proxies' ranges (functions/render/
 * mail-proxies.ts `LOCAL_PROXY_STAND_INS`), as 127.0.0.1 always was for the tests.
 */
export const FILE_ADDRESS = `127.0.0.${2 + ((fileNumber - 1) % 253)}`;
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
