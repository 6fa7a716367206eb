/**
 * Keap's stored tokens (docs/export.md; functions/merge-tags/keap-oauth.ts): loading Keap's
 * credential answers a fresh access token, refreshes one that is due, and never loses the stored
 * pair when a refresh fails. The refresh against a (fake) Keap, with the rotated refresh token
 * stored, is in test/integration/keap-oauth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CredentialStore } from '#functions/merge-tags/credentials.ts';
import {
  keapAwareCredentials,
  parseKeapTokens,
  type KeapDeps,
} from '#functions/merge-tags/keap-oauth.ts';
import { ProviderCallError } from '#functions/merge-tags/provider-http.ts';
import { UrlRefused, type UrlGuard } from '#lib/ssrf.ts';

const NOW = 1_800_000_000_000;

/** An in-memory credential store that records saves. */
function memoryStore(initial: Record<string, string>) {
  const items = new Map(Object.entries(initial));
  const saves: string[] = [];
  const store: CredentialStore = {
    load: async (teamId, provider) => items.get(`${teamId}/${provider}`),
    save: async (teamId, provider, secret) => {
      saves.push(`${teamId}/${provider}`);
      items.set(`${teamId}/${provider}`, secret);
    },
    remove: async (teamId, provider) => void items.delete(`${teamId}/${provider}`),
  };
  return { store, items, saves };
}

const tokens = (expiresAt: number) =>
  JSON.stringify({ access_token: 'access-1', refresh_token: 'refresh-1', expires_at: expiresAt });

/** Keap settings whose every call is refused before it leaves (an unreachable Keap). */
const unreachableKeap: KeapDeps = {
  guard: {
    check: async () => {
      throw new UrlRefused('dns', 'no such host');
    },
  } as unknown as UrlGuard,
  apiBaseUrl: 'https://api.keap.invalid',
  timeoutMs: 100,
  app: { clientId: 'id', clientSecret: 'secret' },
};

describe('Keap tokens as the merge-tag listing loads them', () => {
  it('answers the access token while it is valid for more than a minute, without a call', async () => {
    const { store, saves } = memoryStore({ 't/infusionsoft': tokens(NOW + 120_000) });
    const keap = keapAwareCredentials(store, unreachableKeap, () => NOW);
    expect(await keap.load('t', 'infusionsoft')).toBe('access-1');
    expect(saves).toEqual([]);
  });

  it('refreshes a token that is due; a failed refresh keeps the stored pair and reports', async () => {
    const { store, items, saves } = memoryStore({ 't/infusionsoft': tokens(NOW + 30_000) });
    const keap = keapAwareCredentials(store, unreachableKeap, () => NOW);
    await expect(keap.load('t', 'infusionsoft')).rejects.toBeInstanceOf(ProviderCallError);
    expect(saves).toEqual([]);
    expect(items.get('t/infusionsoft')).toBe(tokens(NOW + 30_000));
  });

  it('answers a stored token as it is when Keap is not configured or offline', async () => {
    const { store } = memoryStore({ 't/infusionsoft': tokens(NOW - 1) });
    expect(await keapAwareCredentials(store, undefined, () => NOW).load('t', 'infusionsoft')).toBe(
      'access-1',
    );
  });

  it('passes a pasted token and other platforms’ keys through untouched', async () => {
    const { store } = memoryStore({ 't/infusionsoft': 'pasted-token', 't/klaviyo': 'pk_1' });
    const keap = keapAwareCredentials(store, unreachableKeap, () => NOW);
    expect(await keap.load('t', 'infusionsoft')).toBe('pasted-token');
    expect(await keap.load('t', 'klaviyo')).toBe('pk_1');
    expect(await keap.load('other', 'infusionsoft')).toBeUndefined();
  });

  it('reads only complete token records', () => {
    expect(parseKeapTokens(tokens(5))).toEqual({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
      expires_at: 5,
    });
    expect(parseKeapTokens('{"access_token":"a"}')).toBeUndefined();
    expect(parseKeapTokens('not json')).toBeUndefined();
  });
});
