/**
 * The SPA's server state (docs/decisions.md "Server state"): which failed reads are asked again
 * and how long the client waits, the message a failed read shows, and the query keys' families
 * (an invalidation of a family reaches every key in it). The client is the app's own
 * (`createQueryClient`), driven without React.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  GENERIC_ERROR_MESSAGE,
  NETWORK_ERROR_MESSAGE,
} from '../../web/src/api/client.ts';
import { SESSION_EXPIRED_MESSAGE } from '../../web/src/features/settings/formFailure.ts';
import {
  createQueryClient,
  loadFailure,
  MAX_RETRIES,
  retryDelay,
  shouldRetry,
} from '../../web/src/state/queryClient.ts';
import { queryKeys } from '../../web/src/state/queryKeys.ts';

/** Whether `key` starts with `prefix`, as TanStack matches keys for an invalidation. */
const within = (key: readonly unknown[], prefix: readonly unknown[]) =>
  prefix.every((part, i) => key[i] === part);

describe('retries: network failures and 5xx only, a couple of times', () => {
  it('retries a network failure and a 5xx, up to MAX_RETRIES times', () => {
    for (const status of [0, 500, 502, 503, 504]) {
      const error = new ApiError(status, 'failed');
      expect(shouldRetry(0, error), `status ${status}`).toBe(true);
      expect(shouldRetry(MAX_RETRIES - 1, error)).toBe(true);
      expect(shouldRetry(MAX_RETRIES, error)).toBe(false);
    }
  });

  it('never retries a 4xx answer, a 501, or what is not an ApiError', () => {
    for (const status of [400, 401, 402, 403, 404, 409, 422, 429, 501]) {
      expect(shouldRetry(0, new ApiError(status, 'no')), `status ${status}`).toBe(false);
    }
    expect(shouldRetry(0, new Error('bug'))).toBe(false);
    expect(shouldRetry(0, new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('waits longer before each retry, within a few seconds', () => {
    expect(retryDelay(0)).toBe(500);
    expect(retryDelay(1)).toBe(1000);
    expect(retryDelay(2)).toBe(2000);
    expect(retryDelay(10)).toBe(4000);
  });

  it('the client retries a 503 and gives up on a 404 at once', async () => {
    const client = createQueryClient();
    let calls = 0;
    const flaky = await client.fetchQuery({
      queryKey: ['flaky'],
      retryDelay: 1,
      queryFn: () => {
        calls += 1;
        if (calls < 3) throw new ApiError(503, 'Service unavailable');
        return Promise.resolve('read');
      },
    });
    expect(flaky).toBe('read');
    expect(calls).toBe(3);

    let missing = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['missing'],
        retryDelay: 1,
        queryFn: () => {
          missing += 1;
          throw new ApiError(404, 'Not found.');
        },
      }),
    ).rejects.toThrow('Not found.');
    expect(missing).toBe(1);
    client.clear();
  });

  it('never retries a write', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });
});

describe('the message of a failed read (spec 001 §8)', () => {
  it("is the answer's message, the session-expired one for a 401, else the generic one", () => {
    expect(loadFailure(new ApiError(403, 'Your team is frozen.'))).toBe('Your team is frozen.');
    expect(loadFailure(new ApiError(0, NETWORK_ERROR_MESSAGE))).toBe(NETWORK_ERROR_MESSAGE);
    expect(loadFailure(new ApiError(401, 'Unauthenticated.'))).toBe(SESSION_EXPIRED_MESSAGE);
    expect(loadFailure(new TypeError('x is undefined'))).toBe(GENERIC_ERROR_MESSAGE);
  });
});

describe('query keys', () => {
  it('put every key of a family under the family, so one invalidation reaches them all', () => {
    expect(within(queryKeys.designs.list('t1', 'active', '', ''), queryKeys.designs.all)).toBe(
      true,
    );
    expect(within(queryKeys.templates.panel('cat'), queryKeys.templates.all)).toBe(true);
    expect(within(queryKeys.templates.list('archived', 'name', ''), queryKeys.templates.all)).toBe(
      true,
    );
    expect(within(queryKeys.bundles.panel('t1', ''), queryKeys.bundles.all)).toBe(true);
    expect(within(queryKeys.teams.invitations('t1'), queryKeys.teams.one('t1'))).toBe(true);
    expect(within(queryKeys.teams.current('t1'), queryKeys.teams.all)).toBe(true);
    for (const key of [
      queryKeys.billing.subscription('t1'),
      queryKeys.billing.cardUpdate('t1'),
      queryKeys.billing.invoices('t1'),
    ]) {
      expect(within(key, queryKeys.billing.team('t1'))).toBe(true);
    }
    expect(within(queryKeys.images.list('t1', 'uploads'), queryKeys.images.all)).toBe(true);
    expect(
      within(queryKeys.stickers.list('t1', { kind: 'pack', id: 'p' }, ''), queryKeys.stickers.all),
    ).toBe(true);
  });

  it("keep one team's data apart from another's", () => {
    expect(queryKeys.designs.list('t1', 'active', '', '')).not.toEqual(
      queryKeys.designs.list('t2', 'active', '', ''),
    );
    expect(within(queryKeys.billing.invoices('t2'), queryKeys.billing.team('t1'))).toBe(false);
    expect(queryKeys.images.list('t1', 'uploads')).not.toEqual(
      queryKeys.images.list('t2', 'uploads'),
    );
    // The global library is the same for every team.
    expect(queryKeys.images.list('t1', 'library')).toEqual(queryKeys.images.list('t2', 'library'));
  });

  it('invalidating a family marks its cached reads stale and leaves the others', async () => {
    const client = createQueryClient();
    await client.prefetchQuery({
      queryKey: queryKeys.designs.list('t1', 'archived', '', ''),
      queryFn: () => Promise.resolve([]),
      staleTime: 60_000,
    });
    await client.prefetchQuery({
      queryKey: queryKeys.tokens,
      queryFn: () => Promise.resolve([]),
      staleTime: 60_000,
    });
    await client.invalidateQueries({ queryKey: queryKeys.designs.all, refetchType: 'none' });
    const state = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(state(queryKeys.designs.list('t1', 'archived', '', ''))).toBe(true);
    expect(state(queryKeys.tokens)).toBe(false);
    client.clear();
  });
});
