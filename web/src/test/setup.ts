/**
 * The `component` project's setup file (vitest.config.ts), run before each test file in its
 * happy-dom window:
 * - the mock API (./server.ts) listens for the whole file; a request no handler answers fails
 *   (msw's `onUnhandledFrame: 'error'`, msw 3's name for v2's `onUnhandledRequest`) and fails
 *   its test as well, once the test is over: every call a component makes is one the test
 *   declared;
 * - before each test, the API's CSRF cookie is set (web/src/api/client.ts `xsrfToken`), as the
 *   app's first `GET /user/current` sets it, so a state-changing call goes straight out;
 * - after each test: the rendered tree is unmounted, spies restored, the answers it still held
 *   dropped and its handlers removed, the app store's session and the unsaved-changes marks put
 *   back;
 * - happy-dom's `<dialog>` gets the browser's modal behaviour (./dialog.ts);
 * - the lines happy-dom's network layer prints as a browser's devtools would (each 4xx/5xx
 *   answer, each request aborted as a component unmounts, each network failure a test asked
 *   for) are kept out of the output: they are the tests' own doing. happy-dom prints them on
 *   Node's console, not the test's; every other line of either is printed as it comes.
 */
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { discardUnsavedChanges } from '../hooks/useUnsavedChangesGuard.ts';
import { initialSessionState } from '../state/session.ts';
import { useAppStore } from '../state/store.ts';
import { dropHeldAnswers, TEST_XSRF_TOKEN } from './api.ts';
import { emulateModalDialogs } from './dialog.ts';
import { server } from './server.ts';

/** A failed answer as happy-dom logs it: `POST http://localhost:3000/login 422 (Unprocessable Entity)`. */
const FAILED_ANSWER = /^(?:GET|POST|PUT|PATCH|DELETE) http:\/\/localhost:3000\/\S* \d{3} \(/;

/** Whether a console.error call is happy-dom's report of a failed answer, an abort or a network failure. */
function isNetworkNoise(args: unknown[]): boolean {
  const [first] = args;
  if (typeof first === 'string') return args.length === 1 && FAILED_ANSWER.test(first);
  if (!(first instanceof Error)) return false;
  const code = (first as Error & { code?: unknown }).code;
  return code === 'ECONNRESET' || (first.name === 'TypeError' && first.message === 'Network error');
}

// Node's console, where happy-dom's window prints (a name, so the SPA's types need no Node's).
const NODE_CONSOLE = 'node:console';
const nodeConsole = ((await import(/* @vite-ignore */ NODE_CONSOLE)) as { default: Console })
  .default;
// Once per worker: test files share one module graph (vitest.config.ts `isolate: false`).
const FILTERED = Symbol.for('picsnippets.test.networkNoiseFiltered');
const error = nodeConsole.error as Console['error'] & { [FILTERED]?: true };
if (!error[FILTERED]) {
  const printError = error.bind(nodeConsole);
  nodeConsole.error = Object.assign(
    (...args: unknown[]) => {
      if (!isNetworkNoise(args)) printError(...args);
    },
    { [FILTERED]: true as const },
  );
}

/** The requests of the current test that no handler answered (`METHOD url`). */
const unanswered: string[] = [];

beforeAll(() => {
  server.listen({
    onUnhandledFrame: ({ frame, defaults }) => {
      const { request } = frame.data as { request?: Request };
      unanswered.push(request ? `${request.method} ${request.url}` : frame.protocol);
      defaults.error();
    },
  });
  emulateModalDialogs();
});

beforeEach(() => {
  document.cookie = `XSRF-TOKEN=${TEST_XSRF_TOKEN}; path=/`;
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  dropHeldAnswers();
  server.resetHandlers();
  useAppStore.setState(initialSessionState);
  discardUnsavedChanges();
  const missed = unanswered.splice(0);
  if (missed.length > 0) {
    throw new Error(`No handler answered: ${missed.join(', ')}. Answer them with test/api.ts.`);
  }
});

afterAll(() => server.close());
