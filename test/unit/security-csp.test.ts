/**
 * The SPA's Content-Security-Policy and the font CDN (docs/fonts.md
 * "Configuration: the fontsource CDN"; shared/security.ts): the editor may load fonts from the
 * configured CDN's path and from nowhere else, and a base that could break the header is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  FONTSOURCE_CDN_URL,
  fontCdnSource,
  SPA_CONTENT_SECURITY_POLICY,
  spaContentSecurityPolicy,
} from '#shared/security.ts';

/** The sources of one directive of a policy. */
const directive = (policy: string, name: string): string[] =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

describe('the SPA policy and the font CDN', () => {
  it('allows fonts from the own origin and data: only, without a CDN', () => {
    expect(directive(SPA_CONTENT_SECURITY_POLICY, 'font-src')).toEqual(["'self'", 'data:']);
    expect(spaContentSecurityPolicy({ fontCdnUrl: undefined })).toBe(SPA_CONTENT_SECURITY_POLICY);
  });

  it('adds the CDN’s font path to font-src only, leaving the other directives as they were', () => {
    const policy = spaContentSecurityPolicy({ fontCdnUrl: FONTSOURCE_CDN_URL });
    expect(directive(policy, 'font-src')).toEqual([
      "'self'",
      'data:',
      'https://cdn.jsdelivr.net/fontsource/fonts/',
    ]);
    for (const name of ['default-src', 'script-src', 'connect-src', 'img-src', 'object-src']) {
      expect(directive(policy, name)).toEqual(directive(SPA_CONTENT_SECURITY_POLICY, name));
    }
  });

  it('keeps an https base’s path as a folder prefix', () => {
    expect(fontCdnSource('https://fonts.example.com/fontsource/fonts/')).toBe(
      'https://fonts.example.com/fontsource/fonts/',
    );
    expect(fontCdnSource('https://fonts.example.com')).toBe('https://fonts.example.com/');
  });

  it.each([
    'http://cdn.jsdelivr.net/fontsource/fonts',
    'https://user:pw@cdn.example/fonts',
    'https://cdn.example/fonts?x=1',
    'https://cdn.example/fonts#x',
    "https://cdn.example/fonts;script-src 'unsafe-inline'",
    'not a url',
  ])('refuses %s as a font CDN base', (url) => {
    expect(() => spaContentSecurityPolicy({ fontCdnUrl: url })).toThrow(/font CDN URL/);
  });
});

describe('the SPA policy and the send-list upload origin', () => {
  it('adds the upload origin to connect-src only', () => {
    const origin = 'https://assets.s3.eu-west-1.amazonaws.com';
    const policy = spaContentSecurityPolicy({ uploadOrigin: origin });
    expect(directive(policy, 'connect-src')).toEqual([
      ...directive(SPA_CONTENT_SECURITY_POLICY, 'connect-src'),
      origin,
    ]);
    expect(policy.replace(` ${origin}`, '')).toBe(SPA_CONTENT_SECURITY_POLICY);
  });

  it.each([
    'https://bucket.example/path',
    "https://x.example;script-src 'unsafe-inline'",
    'ftp://x.example',
  ])('refuses %s as an upload origin', (origin) => {
    expect(() => spaContentSecurityPolicy({ uploadOrigin: origin })).toThrow(/upload origin/);
  });
});
