/**
 * Cookie names and attributes per stage (functions/lib/session.ts; docs/security.md "Cookies").
 *
 * Mutation check: with the old fixed names (`picsnippets_session`, `XSRF-TOKEN` everywhere and
 * `Secure` only from PUBLIC_URL), the AWS cases failed on the names, on `Secure` with an http
 * PUBLIC_URL, and a plain `XSRF-TOKEN` cookie was accepted in AWS.
 */
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '#lib/http.ts';
import { checkCsrf, cookieNames, readCookies, sessionCookie, xsrfCookie } from '#lib/session.ts';

/** The attributes of a Set-Cookie value, lower-cased names (`secure`, `path`, …). */
function attributes(setCookie: string): { name: string; attrs: Map<string, string> } {
  const [pair, ...rest] = setCookie.split(';').map((p) => p.trim());
  const attrs = new Map(
    rest.map((a) => {
      const eq = a.indexOf('=');
      return eq === -1 ? [a.toLowerCase(), ''] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)];
    }),
  );
  return { name: pair!.slice(0, pair!.indexOf('=')), attrs };
}

describe('in AWS (STAGE=aws)', () => {
  it('names both cookies with the __Host- prefix', () => {
    expect(cookieNames('aws')).toEqual({
      session: '__Host-picsnippets_session',
      xsrf: '__Host-XSRF-TOKEN',
    });
  });

  it('sets the session cookie Secure, HttpOnly, SameSite=Lax, Path=/ and without Domain', () => {
    // The unit project's PUBLIC_URL is http://localhost: Secure must not depend on it in AWS.
    for (const token of ['abc', '']) {
      const { name, attrs } = attributes(sessionCookie(token, 'aws'));
      expect(name).toBe('__Host-picsnippets_session');
      expect(attrs.has('secure')).toBe(true);
      expect(attrs.has('httponly')).toBe(true);
      expect(attrs.get('path')).toBe('/');
      expect(attrs.get('samesite')).toBe('Lax');
      expect(attrs.has('domain')).toBe(false);
    }
  });

  it('sets the readable XSRF cookie Secure, Path=/ and without Domain or HttpOnly', () => {
    const { name, attrs } = attributes(xsrfCookie('aws'));
    expect(name).toBe('__Host-XSRF-TOKEN');
    expect(attrs.has('secure')).toBe(true);
    expect(attrs.has('httponly')).toBe(false);
    expect(attrs.get('path')).toBe('/');
    expect(attrs.has('domain')).toBe(false);
  });

  it('reads only the __Host- cookies, under their plain names', () => {
    const event = { cookies: ['XSRF-TOKEN=planted', 'picsnippets_session=planted'] };
    expect(readCookies(event as ApiEvent, 'aws')).toEqual({});
    const hosted = { cookies: ['__Host-XSRF-TOKEN=t', '__Host-picsnippets_session=s', 'x=1'] };
    expect(readCookies(hosted as ApiEvent, 'aws')).toMatchObject({
      'XSRF-TOKEN': 't',
      picsnippets_session: 's',
      x: '1',
    });
  });
});

describe('locally (http://localhost)', () => {
  it('keeps the plain names, without Secure', () => {
    expect(cookieNames('local')).toEqual({ session: 'picsnippets_session', xsrf: 'XSRF-TOKEN' });
    expect(cookieNames('test')).toEqual(cookieNames('local'));
    const session = attributes(sessionCookie('abc', 'local'));
    expect(session.name).toBe('picsnippets_session');
    expect(session.attrs.has('secure')).toBe(false);
    expect(session.attrs.has('httponly')).toBe(true);
    expect(attributes(xsrfCookie('local')).name).toBe('XSRF-TOKEN');
    expect(readCookies({ cookies: ['XSRF-TOKEN=t'] } as ApiEvent, 'local')).toEqual({
      'XSRF-TOKEN': 't',
    });
  });

  it('checks CSRF against the plain cookie', () => {
    const event = {
      requestContext: { http: { method: 'POST' } },
      cookies: ['XSRF-TOKEN=tok'],
      headers: { 'x-xsrf-token': 'tok', 'x-requested-with': 'XMLHttpRequest' },
    } as unknown as ApiEvent;
    expect(() => checkCsrf(event)).not.toThrow();
  });
});
