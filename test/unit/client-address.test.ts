/**
 * The client address for per-IP limits (functions/lib/client-address.ts; docs/security.md
 * "Login throttling").
 *
 * Mutation check: with the address taken from `requestContext.http.sourceIp` alone (the login
 * handler's old rule), the AWS case keyed on the CloudFront edge (130.176.0.1), not the viewer.
 */
import { describe, expect, it } from 'vitest';
import { addressBucket, clientAddress, viewerIp } from '#lib/client-address.ts';

const event = (viewer?: string) => ({
  headers: viewer === undefined ? {} : { 'cloudfront-viewer-address': viewer },
  requestContext: { http: { sourceIp: '130.176.0.1' } },
});

describe('clientAddress', () => {
  it("uses CloudFront's viewer address in AWS, IPv4 and IPv6", () => {
    expect(clientAddress(event('198.51.100.7:46532'), 'aws')).toBe('198.51.100.7');
    expect(clientAddress(event('2001:DB8::1:443'), 'aws')).toBe('2001:db8::1');
  });

  it('falls back to the socket address without a usable header', () => {
    expect(clientAddress(event(), 'aws')).toBe('130.176.0.1');
    expect(clientAddress(event('no-port'), 'aws')).toBe('130.176.0.1');
    expect(clientAddress({}, 'aws')).toBe('unknown');
  });

  it('ignores the header locally, where no CloudFront sets it', () => {
    expect(clientAddress(event('198.51.100.7:46532'), 'local')).toBe('130.176.0.1');
    expect(clientAddress(event('198.51.100.7:46532'), 'test')).toBe('130.176.0.1');
  });

  it('splits ip:port at the last colon', () => {
    expect(viewerIp(':80')).toBeUndefined();
    expect(viewerIp(undefined)).toBeUndefined();
    expect(viewerIp('::1:80')).toBe('::1');
  });
});

describe('addressBucket', () => {
  it('counts an IPv6 address by its /64, the block one home or phone is given', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe(addressBucket('2001:db8:1:2:ffff:1:2:3'));
    expect(addressBucket('2001:db8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0DB8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
  });

  it('keeps an IPv4 address, also written IPv4-mapped, and anything else as it is', () => {
    expect(addressBucket('198.51.100.7')).toBe('198.51.100.7');
    expect(addressBucket('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
