/**
 * The settings and kiosk tab hash `#/{tab}/{rest}` (docs/accounts.md "Screens": "Tab navigation
 * uses the hash form #/{tab}/{rest}").
 */
import { describe, expect, it } from 'vitest';
import { parseTabHash } from '../../web/src/hooks/useHashTab.ts';

describe('parseTabHash', () => {
  it.each([
    ['', { tab: '', rest: '' }],
    ['#', { tab: '', rest: '' }],
    ['#/security', { tab: 'security', rest: '' }],
    ['#security', { tab: 'security', rest: '' }],
    ['#/users/42', { tab: 'users', rest: '42' }],
    ['#/users/42/notes', { tab: 'users', rest: '42/notes' }],
  ])('%s → %o', (hash, expected) => {
    expect(parseTabHash(hash)).toEqual(expected);
  });
});
