/**
 * The SPA's server state (docs/adr/0045-server-state.md "Server state"): which failed reads are
 * asked again and how long the client waits, the message a failed read shows, the query keys'
 * families (an invalidation of a family reaches every key in it), and the paged lists: pages read
 * one after the other, each item shown once, and a list changed in the cache (a card leaves, a
 * clone joins) keeping what to send for the next page. The client is the app's own
 * (`createQueryClient`), driven without React.
 */
import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  GENERIC_ERROR_MESSAGE,
  NETWORK_ERROR_MESSAGE,
} from '../../web/src/api/client.ts';
import { SESSION_EXPIRED_MESSAGE } from '../../web/src/lib/formFailure.ts';
import { pageItems, updatePages, type Page } from '../../web/src/hooks/usePagedQuery.ts';
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

type Item = { id: string; n: number };
const item = (id: string, n = 0): Item => ({ id, n });
const idOf = (i: Item) => i.id;
const ids = (items: Item[]) => items.map(idOf);

/** A list of 7 items served 3 a page, page numbers from 1 (`next` null after the last). */
async function servedPage(next: number | null): Promise<Page<Item, number>> {
  const page = next ?? 1;
  const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => item(id));
  return Promise.resolve({
    items: all.slice((page - 1) * 3, page * 3),
    next: page * 3 < all.length ? page + 1 : null,
  });
}

describe('paged lists (useInfiniteQuery)', () => {
  it('shows each item once, in page order, also when a later page holds one again', () => {
    const pages: Page<Item, number>[] = [
      { items: [item('a'), item('b')], next: 2 },
      { items: [item('b'), item('c')], next: null },
    ];
    expect(ids(pageItems(pages, idOf))).toEqual(['a', 'b', 'c']);
    expect(pageItems([], idOf)).toEqual([]);
  });

  it('reads page after page with the previous page’s next, until there is none', async () => {
    const client = createQueryClient();
    const options = {
      queryKey: ['paged'],
      queryFn: ({ pageParam }: { pageParam: number | null }) => servedPage(pageParam),
      initialPageParam: null as number | null,
      getNextPageParam: (last: Page<Item, number>) => last.next,
    };
    await client.fetchInfiniteQuery(options);
    await client.fetchInfiniteQuery({ ...options, pages: 3 });
    const data = client.getQueryData<InfiniteData<Page<Item, number>, number | null>>(['paged']);
    expect(data?.pageParams).toEqual([null, 2, 3]);
    expect(ids(pageItems(data!.pages, idOf))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(data!.pages.at(-1)!.next).toBeNull();
    client.clear();
  });

  it('changes the cached items in place and keeps each page’s next', () => {
    const data: InfiniteData<Page<Item, number>, number | null> = {
      pages: [
        { items: [item('a'), item('b'), item('c')], next: 2 },
        { items: [item('d'), item('e'), item('f')], next: 3 },
      ],
      pageParams: [null, 2],
    };
    // A card leaves (archived): the next ones move up a page, the pages keep their next.
    const left = updatePages(data, (items) => items.filter((i) => i.id !== 'b'), idOf);
    expect(left.pages.map((p) => ids(p.items))).toEqual([
      ['a', 'c', 'd'],
      ['e', 'f'],
    ]);
    expect(left.pages.map((p) => p.next)).toEqual([2, 3]);
    expect(left.pageParams).toEqual([null, 2]);
    // A clone joins at the top: the last page takes the one pushed out of the first.
    let told: boolean | undefined;
    const joined = updatePages(
      data,
      (items, hasMore) => {
        told = hasMore;
        return [item('z'), ...items];
      },
      idOf,
    );
    expect(told).toBe(true);
    expect(joined.pages.map((p) => ids(p.items))).toEqual([
      ['z', 'a', 'b'],
      ['c', 'd', 'e', 'f'],
    ]);
    // An item changed (a favourite) keeps its place; the input is not touched.
    const starred = updatePages(
      data,
      (items) => items.map((i) => (i.id === 'e' ? { ...i, n: 1 } : i)),
      idOf,
    );
    expect(starred.pages[1]!.items[1]).toEqual(item('e', 1));
    expect(data.pages[1]!.items[1]).toEqual(item('e'));
    expect(updatePages({ pages: [], pageParams: [] }, () => [item('x')], idOf).pages).toEqual([]);
  });

  it('a change written into the cache is what the list shows, until it is read again', async () => {
    const client = createQueryClient();
    const key = ['paged', 'cache'];
    await client.fetchInfiniteQuery({
      queryKey: key,
      queryFn: ({ pageParam }: { pageParam: number | null }) => servedPage(pageParam),
      initialPageParam: null as number | null,
      getNextPageParam: (last: Page<Item, number>) => last.next,
    });
    client.setQueryData<InfiniteData<Page<Item, number>, number | null>>(
      key,
      (cached) => cached && updatePages(cached, (items) => items.slice(1), idOf),
    );
    const data = client.getQueryData<InfiniteData<Page<Item, number>, number | null>>(key);
    expect(ids(pageItems(data!.pages, idOf))).toEqual(['b', 'c']);
    expect(data!.pages[0]!.next).toBe(2);
    client.clear();
  });
});
