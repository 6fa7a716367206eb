/**
 * The session keep-alive (./useSessionKeepAlive.ts; docs/adr/0009-sessions-and-csrf.md "Sessions
 * and CSRF", docs/adr/0068-failed-page-loads.md "Failed page loads"): a refresh once 240 s have
 * passed; while the server is down, the tries space out (10 s, 20 s, … up to 240 s) instead of one
 * every 5 s; after a success, the normal schedule again. The page's interval and clock are faked;
 * the API is the mock API.
 */
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer } from '../test/api.ts';
import { aUser } from '../test/fixtures.ts';
import { signInAs } from '../test/TestProviders.tsx';
import { useSessionKeepAlive } from './useSessionKeepAlive.ts';

function KeepAlive() {
  useSessionKeepAlive();
  return null;
}

const DOWN = { message: 'Service Unavailable' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Moves the page's clock by `ms`, letting each answer arrive. */
async function pass(ms: number) {
  for (let left = ms; left > 0; left -= 5_000) {
    await vi.advanceTimersByTimeAsync(Math.min(5_000, left));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the session keep-alive', () => {
  it('refreshes once 240 s have passed, and not before', async () => {
    signInAs(aUser());
    const refresh = answer('PUT /spark/token', 200, { success: true });
    render(<KeepAlive />);
    await pass(235_000);
    expect(refresh.requests).toHaveLength(0);
    await pass(5_000);
    expect(refresh.requests).toHaveLength(1);
    await pass(235_000);
    expect(refresh.requests).toHaveLength(1);
  });

  it('spaces its tries out while the server is down, then keeps the normal schedule', async () => {
    signInAs(aUser());
    const down = answer('PUT /spark/token', 503, DOWN);
    render(<KeepAlive />);
    await pass(240_000);
    expect(down.requests).toHaveLength(1);
    // The next tries wait 10 s, then 20 s: none at the next 5 s checks.
    await pass(5_000);
    expect(down.requests).toHaveLength(1);
    await pass(5_000);
    expect(down.requests).toHaveLength(2);
    await pass(15_000);
    expect(down.requests).toHaveLength(2);
    await pass(5_000);
    expect(down.requests).toHaveLength(3);
    // 28 minutes of outage: a dozen tries, not the 330 of a try every 5 s.
    await pass(28 * 60_000 - 270_000);
    expect(down.requests.length).toBeGreaterThanOrEqual(8);
    expect(down.requests.length).toBeLessThanOrEqual(13);

    // Back up: the next try succeeds, and the one after waits the usual 240 s.
    const up = answer('PUT /spark/token', 200, { success: true });
    for (let waited = 0; up.requests.length === 0 && waited < 240_000; waited += 5_000)
      await pass(5_000);
    expect(up.requests).toHaveLength(1);
    await pass(235_000);
    expect(up.requests).toHaveLength(1);
    await pass(5_000);
    expect(up.requests).toHaveLength(2);
  });
});
