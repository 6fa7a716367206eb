/**
 * A web API's URL template filled with a render URL's values (functions/data-sources/web-api.ts
 * `fillTemplate`; docs/data-sources.md "Web APIs"): a value is one encoded piece of its segment,
 * never a new segment, a query, a host, or a step up the path.
 */
import { describe, expect, it } from 'vitest';
import { fillTemplate, TemplateRefused } from '#functions/data-sources/web-api.ts';

const T = 'https://api.example.com/v1/customers/{a}/{b}/{c}';

describe('fillTemplate', () => {
  it('encodes each value into its place', () => {
    expect(fillTemplate(T, { a: 'A/1 b', b: 'x?y#z', c: 'ü' })).toBe(
      'https://api.example.com/v1/customers/A%2F1%20b/x%3Fy%23z/%C3%BC',
    );
    expect(fillTemplate('https://api.example.com/q?email={e}', { e: 'a&b=c' })).toBe(
      'https://api.example.com/q?email=a%26b%3Dc',
    );
  });

  it.each([
    [{ a: '..', b: '..', c: 'admin' }],
    [{ a: '.', b: 'x', c: 'y' }],
    [{ a: 'x', b: 'y', c: '..' }],
  ])('refuses a value that is a dot segment: %o', (values) => {
    expect(() => fillTemplate(T, values)).toThrow(TemplateRefused);
  });

  it('refuses two values that make a dot segment together', () => {
    const joined = 'https://api.example.com/v1/customers/{a}{b}/profile';
    expect(() => fillTemplate(joined, { a: '.', b: '.' })).toThrow(TemplateRefused);
    expect(fillTemplate(joined, { a: '.', b: 'x' })).toBe(
      'https://api.example.com/v1/customers/.x/profile',
    );
  });

  it('keeps an encoded dot a literal: %2e in a value cannot walk up', () => {
    expect(fillTemplate(T, { a: '%2e%2e', b: '%2E', c: 'admin' })).toBe(
      'https://api.example.com/v1/customers/%252e%252e/%252E/admin',
    );
  });

  it('lets dots stand inside a value, and dot values in the query', () => {
    expect(fillTemplate(T, { a: '1.2', b: '...', c: '.env.x' })).toBe(
      'https://api.example.com/v1/customers/1.2/.../.env.x',
    );
    expect(fillTemplate('https://api.example.com/find?dir={d}', { d: '..' })).toBe(
      'https://api.example.com/find?dir=..',
    );
  });

  it('fills a placeholder in the host without a path check, and an empty value with nothing', () => {
    expect(fillTemplate('https://{tenant}.example.com/v1/me', { tenant: 'acme' })).toBe(
      'https://acme.example.com/v1/me',
    );
    expect(fillTemplate(T, {})).toBe('https://api.example.com/v1/customers///');
  });
});
