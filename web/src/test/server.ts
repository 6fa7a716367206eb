/**
 * The component tests' one mock API (msw's `setupServer`, intercepting the requests of
 * web/src/api/client.ts in happy-dom). It starts with no handlers: each test says what the
 * routes it reaches answer, with the typed helpers of ./api.ts. Its lifecycle (listen before
 * the file, reset after each test, close after the file; a request nobody answers fails the
 * test) is in ./setup.ts.
 */
import { setupServer } from 'msw/node';

export const server = setupServer();
