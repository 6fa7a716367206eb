/**
 * Mail proxies by user agent and address (functions/render/mail-proxies.ts; docs/security.md
 * "Render limits"): CIDR matching, the rule that joins the two, and the shipped data file.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import SHIPPED from '#shared/mail-proxy-ranges.json' with { type: 'json' };
import {
  AddressRanges,
  LOCAL_PROXY_STAND_INS,
  MailProxyRangesSchema,
  createMailProxyRecogniser,
  type MailProxyRangesInput,
} from '#functions/render/mail-proxies.ts';

const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
const YAHOO = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0) Chrome/120 Safari/537.36';

const file = (proxies: Partial<Record<string, object>>): MailProxyRangesInput => ({
  updatedAt: '2026-11-24',
  fetched: true,
  proxies: {
    gmail: { sources: [], ranges: [] },
    yahoo: { sources: [], ranges: [] },
    outlook: { sources: [], ranges: [] },
    apple: { sources: [], ranges: [] },
    ...proxies,
  } as MailProxyRangesInput['proxies'],
});

describe('AddressRanges', () => {
  const ranges = new AddressRanges([
    '66.249.80.0/20',
    '66.249.96.0/20', // adjacent: merged with the one before
    '10.0.0.7/8', // host bits ignored
    '2001:4860:4000::/36',
  ]);

  it('matches IPv4, IPv6 and IPv4-mapped IPv6 addresses at the edges of each range', () => {
    expect(ranges.has('66.249.80.0')).toBe(true);
    expect(ranges.has('66.249.111.255')).toBe(true);
    expect(ranges.has('66.249.112.0')).toBe(false);
    expect(ranges.has('66.249.79.255')).toBe(false);
    expect(ranges.has('10.255.255.255')).toBe(true);
    expect(ranges.has('::ffff:66.249.84.1')).toBe(true);
    expect(ranges.has('2001:4860:4fff:ffff::1')).toBe(true);
    expect(ranges.has('2001:4860:5000::')).toBe(false);
    expect(ranges.size).toBe(3);
  });

  it('finds nothing for what is not an address', () => {
    for (const bad of ['unknown', '', '66.249.80', '1.2.3.4.5', `${'1'.repeat(70)}`, '::g'])
      expect(ranges.has(bad)).toBe(false);
  });

  it('refuses a range that is not a CIDR, naming it', () => {
    expect(() => new AddressRanges(['66.249.80.0/33'])).toThrow(/66\.249\.80\.0\/33/);
    expect(() => new AddressRanges(['google.com/20'])).toThrow(/not a CIDR/);
  });

  it('agrees with a plain prefix comparison for any IPv4 address and range', () => {
    const toNumber = (o: number[]) => o.reduce((n, b) => n * 256 + b, 0);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 32 }),
        (net, addr, bits) => {
          const set = new AddressRanges([`${net.join('.')}/${bits}`]);
          const block = 2 ** (32 - bits);
          const expected = Math.floor(toNumber(net) / block) === Math.floor(toNumber(addr) / block);
          expect(set.has(addr.join('.'))).toBe(expected);
        },
      ),
    );
  });
});

describe('createMailProxyRecogniser', () => {
  const recognise = createMailProxyRecogniser(
    file({
      gmail: { sources: [], ranges: ['66.249.80.0/20'], exclude: ['66.249.95.0/24'] },
      apple: { sources: [], ranges: ['172.224.226.0/27'], byAddressAlone: true },
    }),
  );

  it('names a proxy by its user agent from inside its ranges, not outside or in its excluded part', () => {
    expect(recognise(GMAIL, '66.249.84.1')).toBe('gmail');
    expect(recognise(GMAIL, '203.0.113.9')).toBeUndefined(); // a forged user agent
    expect(recognise(GMAIL, '66.249.95.3')).toBeUndefined(); // excluded (a cloud customer)
    // Its address alone is not the proxy: Google runs more than the image proxy there.
    expect(recognise(BROWSER, '66.249.84.1')).toBeUndefined();
  });

  it('never names a proxy without published ranges: its user agent alone is a claim', () => {
    expect(recognise(YAHOO, '203.0.113.9')).toBeUndefined();
    expect(recognise(YAHOO, '66.249.84.1')).toBeUndefined(); // Gmail's range, Yahoo's name
  });

  it('names a proxy marked byAddressAlone by its address, whatever the user agent', () => {
    expect(recognise(BROWSER, '172.224.226.5')).toBe('apple');
    expect(recognise(undefined, '172.224.226.5')).toBe('apple');
    expect(recognise(undefined, '172.224.227.5')).toBeUndefined();
  });

  it('adds the local stand-ins to every proxy, but never to the address-alone rule', () => {
    const local = createMailProxyRecogniser(
      file({ apple: { sources: [], ranges: ['172.224.226.0/27'], byAddressAlone: true } }),
      LOCAL_PROXY_STAND_INS,
    );
    expect(local(GMAIL, '127.0.0.3')).toBe('gmail');
    expect(local(YAHOO, '::1')).toBe('yahoo');
    expect(local(GMAIL, '127.1.0.1')).toBeUndefined();
    expect(local(BROWSER, '127.0.0.3')).toBeUndefined();
  });
});

describe('shared/mail-proxy-ranges.json', () => {
  it('has the schema, a date, a source for each published list, and only valid ranges', () => {
    const parsed = MailProxyRangesSchema.parse(SHIPPED);
    expect(parsed.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const entry of Object.values(parsed.proxies)) {
      if (entry.ranges.length > 0) expect(entry.sources.length).toBeGreaterThan(0);
      expect(() => new AddressRanges([...entry.ranges, ...entry.exclude])).not.toThrow();
    }
    // The shipped recogniser builds, and knows Gmail's image proxy's usual addresses.
    const recognise = createMailProxyRecogniser();
    expect(recognise(GMAIL, '66.249.84.1')).toBe('gmail');
    expect(recognise(GMAIL, '66.102.8.4')).toBe('gmail');
    expect(recognise(GMAIL, '198.51.100.4')).toBeUndefined();
  });
});
