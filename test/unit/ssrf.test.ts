/**
 * Range checks of the SSRF guard (docs/security.md "SSRF guard"): `isBlockedAddress` is true for
 * everything that is not plain public unicast, and for anything that is not an address at all.
 */
import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from '#lib/ssrf.ts';

const BLOCKED: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network 0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'private 10/8'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['100.127.255.254', 'CGNAT 100.64/10'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback 127/8'],
  ['169.254.169.254', 'link-local, cloud metadata'],
  ['169.254.170.2', 'link-local, ECS task credentials'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12'],
  ['192.0.0.1', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.0.1', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.255', 'benchmarking 198.18/15'],
  ['198.51.100.1', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback, bracketed'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated (RFC 6145)'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated) loopback'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64 64:ff9b:1::/48'],
  ['100::1', 'discard-only 100::/64'],
  ['2001::1', 'Teredo 2001::/32'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo mapping 127.0.0.1'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['5f00::1', 'SRv6 SIDs'],
  ['fc00::1', 'unique-local'],
  ['fd00:ec2::254', 'unique-local, AWS IMDS over IPv6'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['febf::1', 'link-local fe80::/10'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'unallocated, outside 2000::/3'],
  ['', 'empty'],
  ['localhost', 'a name, not an address'],
  ['2130706433', 'decimal form (only WHATWG URL parsing may normalise it)'],
  ['0x7f.0.0.1', 'hex form'],
  ['0177.0.0.1', 'octal form'],
  ['127.1', 'short form'],
  ['1.2.3.4.5', 'not an address'],
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.215.14',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above 172.16/12
  '198.17.255.255', // just below 198.18/15
  '223.255.255.254',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '[2606:4700:4700::1111]',
];

describe('isBlockedAddress', () => {
  it.each(BLOCKED)('blocks %s (%s)', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(PUBLIC)('allows public unicast %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
});
