/**
 * Signed render URLs (docs/developer-api.md "Signed render URLs"): the text a signature covers
 * (shared/render-signature.ts) and the server's signer and check (functions/render/signature.ts).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cacheControlUntil,
  checkSignature,
  createSignatureVerifier,
  signRenderPath,
} from '#functions/render/signature.ts';
import { canonicalQuery, encodeRfc3986, stringToSign } from '#shared/render-signature.ts';

const SECRET = 'pss_test-secret-one';
const OTHER = 'pss_test-secret-two';
const NOW = Date.parse('2026-11-24T12:00:00Z');

/** Splits a signed path into what the render receives. */
const parts = (url: string) => {
  const q = url.indexOf('?');
  return { path: url.slice(0, q), query: url.slice(q + 1) };
};
const check = (url: string, secrets = [SECRET], now = NOW) => {
  const { path, query } = parts(url);
  return checkSignature(path, query, secrets, now);
};

describe('what a signature covers', () => {
  it('encodes as RFC 3986 (what Python quote(safe="") and jq @uri write)', () => {
    expect(encodeRfc3986("Zoë & O'Brien (*)!~._-")).toBe(
      'Zo%C3%AB%20%26%20O%27Brien%20%28%2A%29%21~._-',
    );
  });

  it('sorts values by name (the last of a name counts) and names with duplicates', () => {
    const raw = 'b=2&a=x+y&a=1&__sf=values&__sig=zz&__exp=9';
    expect(canonicalQuery('values', raw)).toBe('a=1&b=2');
    expect(canonicalQuery('names', raw)).toBe('a&a&b');
  });

  it('is five lines: scheme, form, path without empty segments, expiry, query', () => {
    expect(stringToSign('names', '/r//abc/', 'first_name=Ana&__sf=names', '1800000000')).toBe(
      'PICSNIPPETS-HMAC-SHA256\nnames\n/r/abc\n1800000000\nfirst_name',
    );
  });
});

describe('checkSignature', () => {
  const values = [
    { name: 'first_name', value: 'Zoë' },
    { name: 'city', value: 'São Paulo & co' },
  ];

  it('accepts the URL the signer made, in both forms', () => {
    expect(check(signRenderPath(SECRET, 'values', '/r/abc.jpg', values))).toEqual({ ok: true });
    const names = signRenderPath(SECRET, 'names', '/r/abc', [
      { name: 'first_name', value: '*|FNAME|*' },
    ]);
    expect(names).toMatch(/^\/r\/abc\?__sf=names&__sig=[\w-]{43}&first_name=\*\|FNAME\|\*$/);
    // The platform fills the value in: still accepted.
    expect(check(names.replace('*|FNAME|*', 'Ana%20Lu'))).toEqual({ ok: true });
  });

  it('accepts the parameters in any order (CloudFront sorts them before the render)', () => {
    for (const form of ['values', 'names'] as const) {
      const { path, query } = parts(signRenderPath(SECRET, form, '/r/abc', values));
      const sorted = query.split('&').sort().join('&');
      expect(sorted).not.toBe(query);
      expect(checkSignature(path, sorted, [SECRET], NOW)).toEqual({ ok: true });
    }
  });

  it("leaves ManyChat's __format out, so the JSON's URL without it verifies too", () => {
    const url = signRenderPath(SECRET, 'names', '/r/abc', [
      { name: '__format', value: 'manychat_json' },
      { name: 'first_name', value: '{{first_name}}' },
    ]);
    expect(check(url)).toEqual({ ok: true });
    expect(check(url.replace('__format=manychat_json&', ''))).toEqual({ ok: true });
  });

  it('is the HMAC-SHA256 of the string to sign, base64url', () => {
    const url = signRenderPath(SECRET, 'values', '/r/abc', values);
    const { path, query } = parts(url);
    const text = stringToSign('values', path, query, undefined);
    const sig = createHmac('sha256', SECRET).update(text).digest('base64url');
    expect(url).toContain(`?__sf=values&__sig=${sig}&`);
  });

  it('refuses tampering: an added parameter, a changed name, a changed signed value, another design', () => {
    const url = signRenderPath(SECRET, 'values', '/r/abc', values);
    const names = signRenderPath(SECRET, 'names', '/r/abc', values);
    const invalid = { ok: false, reason: 'signature-invalid' };
    expect(check(`${url}&extra=1`)).toEqual(invalid);
    expect(check(url.replace('first_name=', 'last_name='))).toEqual(invalid);
    expect(check(url.replace('Zo%C3%AB', 'Eve'))).toEqual(invalid);
    expect(check(url.replace('/r/abc', '/r/abd'))).toEqual(invalid);
    expect(check(url.replace('/r/abc', '/r/abc/pdf'))).toEqual(invalid);
    expect(check(`${names}&extra=1`)).toEqual(invalid);
    expect(check(names.replace('first_name=', 'last_name='))).toEqual(invalid);
    // A second parameter of a signed name is one more name: refused.
    expect(check(`${names}&first_name=Eve`)).toEqual(invalid);
    // The form is covered too: a names signature does not pass as a values one.
    expect(check(names.replace('__sf=names', '__sf=values'))).toEqual(invalid);
    expect(check(url, [OTHER])).toEqual(invalid);
    expect(check(url, [])).toEqual(invalid);
  });

  it('says missing without a signature and invalid for a malformed one', () => {
    expect(check('/r/abc?first_name=Ana')).toEqual({ ok: false, reason: 'signature-missing' });
    expect(check('/r/abc?__sf=values&__sig=short')).toMatchObject({ reason: 'signature-invalid' });
  });

  it('refuses an expired URL, and an expiry changed after signing', () => {
    const exp = NOW / 1000 + 60;
    const url = signRenderPath(SECRET, 'values', '/r/abc', values, exp);
    expect(check(url)).toEqual({ ok: true, expiresAt: exp * 1000 });
    expect(check(url, [SECRET], NOW + 61_000)).toEqual({
      ok: false,
      reason: 'signature-expired',
    });
    expect(check(url.replace(`__exp=${exp}`, `__exp=${exp + 3600}`))).toMatchObject({
      reason: 'signature-invalid',
    });
    const names = signRenderPath(SECRET, 'names', '/r/abc', values, exp);
    expect(check(names.replace(`__exp=${exp}`, `__exp=${exp + 3600}`))).toMatchObject({
      reason: 'signature-invalid',
    });
  });

  it('accepts either of two secrets (a rotation with an overlap)', () => {
    const url = signRenderPath(OTHER, 'values', '/r/abc', values);
    expect(check(url, [SECRET, OTHER])).toEqual({ ok: true });
  });

  it('refuses an over-long query before hashing it', () => {
    const url = signRenderPath(SECRET, 'values', '/r/abc', [
      { name: 'a', value: 'x'.repeat(9000) },
    ]);
    expect(check(url)).toMatchObject({ reason: 'signature-invalid' });
  });
});

describe('createSignatureVerifier', () => {
  it('keeps a team’s secrets, drops the previous at its end, refuses when they cannot be read', async () => {
    let now = NOW;
    let loads = 0;
    const verifier = createSignatureVerifier(
      async (teamId) => {
        loads += 1;
        if (teamId === 'broken') throw new Error('table down');
        return { secrets: [SECRET, OTHER], previousValidUntil: NOW + 10_000 };
      },
      () => now,
    );
    const { path, query } = parts(signRenderPath(OTHER, 'values', '/r/abc', []));
    expect(await verifier.verify('t1', path, query)).toEqual({ ok: true });
    expect(await verifier.verify('t1', path, query)).toEqual({ ok: true });
    expect(loads).toBe(1);
    now = NOW + 10_000;
    expect(await verifier.verify('t1', path, query)).toMatchObject({ ok: false });
    expect(await verifier.verify('broken', path, query)).toEqual({
      ok: false,
      reason: 'signature-unverified',
    });
  });
});

describe('cacheControlUntil', () => {
  it('never caches past the expiry', () => {
    expect(cacheControlUntil('public, max-age=31536000, immutable', NOW + 120_000, NOW)).toBe(
      'public, max-age=120',
    );
    expect(
      cacheControlUntil('public, max-age=300, stale-while-revalidate=86400', NOW + 1e9, NOW),
    ).toBe('public, max-age=300');
    expect(cacheControlUntil('no-store', NOW + 1000, NOW)).toBe('no-store');
    expect(cacheControlUntil('public, max-age=300', undefined, NOW)).toBe('public, max-age=300');
  });
});

describe('the OpenAPI document', () => {
  it('says the sign route needs the `sign` ability', async () => {
    const { buildOpenApiDocument } = await import('#functions/system/openapi.ts');
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    expect(doc.paths['/api/pic-snippet/{id}/sign']?.post?.description).toContain(
      'Needs a token with the `sign` ability.',
    );
  });
});
