/**
 * The per-API fetch allowance (functions/data-sources/web-api.ts `takeFetch`;
 * docs/data-sources.md "Security"): 20 fetches a second per API, however many APIs are asked.
 */
import { describe, expect, it } from 'vitest';
import { API_FETCHES_PER_SECOND, takeFetch } from '#functions/data-sources/web-api.ts';

describe('takeFetch', () => {
  it('allows 20 fetches of one API a second, and more the next second', () => {
    const t = 5_000_000_000_000;
    const taken = Array.from({ length: 30 }, () => takeFetch('api-one', t));
    expect(taken.filter(Boolean)).toHaveLength(API_FETCHES_PER_SECOND);
    expect(takeFetch('api-one', t + 1000)).toBe(true);
  });

  it('keeps a spent API spent while 500 other APIs are asked in the same second', () => {
    const t = 5_000_000_100_000;
    for (let i = 0; i < API_FETCHES_PER_SECOND; i++) expect(takeFetch('api-hot', t)).toBe(true);
    expect(takeFetch('api-hot', t)).toBe(false);
    // A flood of other API ids: the hot API's window must not be wiped.
    for (let i = 0; i < 600; i++) takeFetch(`api-flood-${i}`, t + 10);
    expect(takeFetch('api-hot', t + 20)).toBe(false);
    // The next second, old windows make room again.
    expect(takeFetch('api-new', t + 1000)).toBe(true);
    expect(takeFetch('api-hot', t + 1000)).toBe(true);
  });
});
