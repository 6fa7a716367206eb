/**
 * The per-address counters of sign-in and of the public calls (docs/security.md "Login
 * throttling"): an IPv6 address counts by its /64, so fresh addresses from one block share one
 * allowance; IPv4 addresses, IPv4-mapped ones and different /64s stay apart.
 */
import { describe, expect, it } from 'vitest';
import { loginKeys, publicCallKey } from '../../functions/lib/limits/attempts.ts';

describe('per-address limit keys', () => {
  it('share one sign-in allowance across an IPv6 /64', () => {
    const a = loginKeys('ana@example.com', '2001:db8:1:2::1');
    const b = loginKeys('bea@example.com', '2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a.address).toBe(b.address);
    expect(loginKeys('ana@example.com', '2001:db8:1:3::1').address).not.toBe(a.address);
    // The account's own counter is unchanged.
    expect(a.account).toBe('login#email#ana@example.com');
  });

  it('keep IPv4 addresses apart, and read an IPv4-mapped address as IPv4', () => {
    expect(loginKeys('x', '203.0.113.7').address).not.toBe(loginKeys('x', '203.0.113.8').address);
    expect(loginKeys('x', '::ffff:203.0.113.7').address).toBe(
      loginKeys('x', '203.0.113.7').address,
    );
  });

  it('share one public-call allowance across an IPv6 /64, per call', () => {
    expect(publicCallKey('register', '2001:db8::1')).toBe(
      publicCallKey('register', '2001:db8:0:0:ffff::9'),
    );
    expect(publicCallKey('register', '2001:db8::1')).not.toBe(
      publicCallKey('coupon', '2001:db8::1'),
    );
  });
});
