/**
 * The hostile URL corpus of the SSRF guard (docs/security.md "SSRF guard"): every URL a guard
 * must refuse, with the reason(s) it may give. `P` is a loopback port where a "victim" listens,
 * so a URL that got through would be seen there. Used by test/integration/ssrf.test.ts (the
 * guard itself) and test/integration/data-sources.test.ts (web APIs).
 */
import type { RefusalReason } from '#lib/ssrf.ts';

/** Hostile URLs and the reason(s) a guard gives for each (`P`: the victim's loopback port). */
export const hostileUrls = (P: number): [string, RefusalReason[]][] => [
  // loopback, every spelling
  [`http://127.0.0.1:${P}/`, ['address']],
  [`http://localhost:${P}/`, ['address']],
  [`http://LOCALHOST:${P}/`, ['address']],
  [`HTTP://127.0.0.1:${P}/`, ['address']],
  [`http://127.1:${P}/`, ['address']],
  [`http://127.0.0.1.:${P}/`, ['address']],
  [`http://127.000.000.001:${P}/`, ['address']],
  [`http://%31%32%37.0.0.1:${P}/`, ['address']],
  [`http://0:${P}/`, ['address']],
  [`http://0.0.0.0:${P}/`, ['address']],
  [`http://2130706433:${P}/`, ['address']],
  [`http://0x7f000001:${P}/`, ['address']],
  [`http://0x7f.0x0.0x0.0x1:${P}/`, ['address']],
  [`http://0177.0.0.1:${P}/`, ['address']],
  [`http://017700000001:${P}/`, ['address']],
  [`http://0x7f.1:${P}/`, ['address']],
  // IPv6 loopback, mapped, compatible, 6to4, NAT64, Teredo, link/site/unique-local, multicast
  [`http://[::1]:${P}/`, ['address']],
  [`http://[0:0:0:0:0:0:0:1]:${P}/`, ['address']],
  [`http://[::]:${P}/`, ['address']],
  [`http://[::ffff:127.0.0.1]:${P}/`, ['address']],
  [`http://[::ffff:7f00:1]:${P}/`, ['address']],
  [`http://[::127.0.0.1]:${P}/`, ['address']],
  [`http://[2002:7f00:1::]:${P}/`, ['address']],
  [`http://[64:ff9b::7f00:1]:${P}/`, ['address']],
  [`http://[64:ff9b:1::7f00:1]:${P}/`, ['address']],
  ['http://[64:ff9b::a9fe:a9fe]/', ['address']],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', ['address']],
  ['http://[fe80::1]/', ['address']],
  ['http://[fc00::1]/', ['address']],
  ['http://[fd00:ec2::254]/latest/meta-data/', ['address']],
  ['http://[fec0::1]/', ['address']],
  ['http://[ff02::1]/', ['address']],
  // metadata services
  ['http://169.254.169.254/latest/meta-data/', ['address']],
  ['http://169.254.170.2/v2/credentials', ['address']],
  ['http://0xa9fea9fe/latest/meta-data/', ['address']],
  ['http://[::ffff:169.254.169.254]/latest/meta-data/', ['address']],
  ['http://metadata.google.internal/computeMetadata/v1/', ['dns', 'address']],
  // private, CGNAT, benchmarking, reserved, documentation, multicast, broadcast
  ['http://10.0.0.1/', ['address']],
  ['http://172.16.0.1/', ['address']],
  ['http://172.31.255.255/', ['address']],
  ['http://192.168.1.1/', ['address']],
  ['http://100.64.0.1/', ['address']],
  ['http://198.18.0.1/', ['address']],
  ['http://192.0.0.1/', ['address']],
  ['http://192.0.2.1/', ['address']],
  ['http://240.0.0.1/', ['address']],
  ['http://224.0.0.1/', ['address']],
  ['http://255.255.255.255/', ['address']],
  // names that resolve to loopback, or not at all (no internet here: a refusal, not a hang)
  [`http://127.0.0.1.nip.io:${P}/`, ['dns', 'address']],
  [`http://localtest.me:${P}/`, ['dns', 'address']],
  [`http://foo.localhost:${P}/`, ['dns', 'address']],
  // credentials
  ['http://user:pass@example.com/', ['credentials']],
  [`http://user@127.0.0.1:${P}/`, ['credentials']],
  // schemes
  ['file:///etc/passwd', ['scheme']],
  ['FILE:///etc/passwd', ['scheme']],
  ['ftp://example.com/', ['scheme']],
  [`gopher://127.0.0.1:${P}/_x`, ['scheme']],
  [`dict://127.0.0.1:${P}/info`, ['scheme']],
  ['data:text/html,hi', ['scheme']],
  ['javascript:alert(1)', ['scheme']],
  [`ws://127.0.0.1:${P}/`, ['scheme']],
  ['wss://example.com/', ['scheme']],
  // odd ports
  ['http://example.com:22/', ['port']],
  ['http://example.com:6379/', ['port']],
  ['https://example.com:8443/', ['port']],
  ['http://example.com:0/', ['port']],
  // not URLs
  ['http://[::1%25lo]/', ['invalid']],
  ['not a url', ['invalid']],
  [`http://example.com/${'a'.repeat(9000)}`, ['invalid']],
];
