/**
 * `npm run proxies:refresh` parsing (infra/tools/refresh-mail-proxies.ts) on stored sample
 * payloads of each source's format: it cannot download here, so the parsers, the collapse and
 * the written file are checked offline.
 */
import { describe, expect, it } from 'vitest';
import {
  buildRangesFile,
  collapseRanges,
  parseAppleEgressCsv,
  parseGoogleRanges,
  parseMicrosoftEndpoints,
  rangesFileText,
} from '#infra/tools/refresh-mail-proxies.ts';
import {
  AddressRanges,
  MailProxyRangesSchema,
  createMailProxyRecogniser,
} from '#functions/render/mail-proxies.ts';

/** goog.json's shape (syncToken, creationTime, prefixes of either family). */
const GOOG_JSON = {
  syncToken: '1732406400000',
  creationTime: '2026-11-24T00:00:00.000000',
  prefixes: [
    { ipv4Prefix: '66.249.80.0/20' },
    { ipv4Prefix: '66.102.0.0/20' },
    { ipv4Prefix: '34.0.0.0/15' },
    { ipv6Prefix: '2001:4860::/32' },
    { ipv4Prefix: 'not a range' },
    {},
  ],
};
/** cloud.json's shape: Google Cloud customers' ranges, with scope and service. */
const CLOUD_JSON = {
  syncToken: '1732406400000',
  creationTime: '2026-11-24T00:00:00.000000',
  prefixes: [{ ipv4Prefix: '34.0.0.0/20', service: 'Google Cloud', scope: 'us-west1' }],
};
/** Apple's egress CSV: prefix, country, region, city, then an empty field. */
const APPLE_CSV = [
  '172.224.226.0/27,GB,GB-EN,London,',
  '172.224.226.32/27,GB,GB-EN,London,',
  '2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,',
  '',
  '# a comment',
  'garbage,US,US-CA,Los Angeles,',
].join('\n');
/** Microsoft's endpoints answer: endpoint sets by service area, some with ips. */
const MICROSOFT_JSON = [
  {
    id: 1,
    serviceArea: 'Exchange',
    serviceAreaDisplayName: 'Exchange Online',
    urls: ['outlook.office.com'],
    ips: ['13.107.6.152/31', '40.96.0.0/13', '2603:1006::/40'],
    tcpPorts: '80,443',
    expressRoute: true,
    category: 'Optimize',
    required: true,
  },
  { id: 46, serviceArea: 'SharePoint', ips: ['13.107.136.0/22'] },
  { id: 9, serviceArea: 'Exchange', urls: ['*.mail.protection.outlook.com'] },
];

describe('the refresh script parses each source', () => {
  it("reads Google's prefixes of both families and skips what is not a range", () => {
    expect(parseGoogleRanges(GOOG_JSON)).toEqual([
      '66.249.80.0/20',
      '66.102.0.0/20',
      '34.0.0.0/15',
      '2001:4860::/32',
    ]);
    expect(() => parseGoogleRanges({ nothing: true })).toThrow(/prefixes/);
  });

  it("reads the first field of Apple's CSV lines", () => {
    expect(parseAppleEgressCsv(APPLE_CSV)).toEqual([
      '172.224.226.0/27',
      '172.224.226.32/27',
      '2a02:26f7:b3c0:4000::/64',
    ]);
  });

  it("reads the Exchange addresses of Microsoft's endpoints", () => {
    expect(parseMicrosoftEndpoints(MICROSOFT_JSON)).toEqual([
      '13.107.6.152/31',
      '40.96.0.0/13',
      '2603:1006::/40',
    ]);
    expect(() => parseMicrosoftEndpoints({})).toThrow(/array/);
  });
});

describe('collapseRanges', () => {
  it('merges overlapping and adjacent ranges into the fewest aligned CIDRs', () => {
    expect(
      collapseRanges([
        '172.224.226.0/27',
        '172.224.226.32/27',
        '10.0.0.0/24',
        '10.0.0.128/25',
        '10.0.1.0/24',
        '10.0.3.0/24',
        '2001:db8::/33',
        '2001:db8:8000::/33',
      ]),
    ).toEqual(['10.0.0.0/23', '10.0.3.0/24', '172.224.226.0/26', '2001:db8::/32']);
  });

  it('covers the same addresses as the ranges it came from', () => {
    const input = ['192.0.2.0/25', '192.0.2.128/26', '192.0.2.200/29', '198.51.100.7/32'];
    const before = new AddressRanges(input);
    const after = new AddressRanges(collapseRanges(input));
    for (let last = 0; last < 256; last++)
      for (const prefix of ['192.0.2', '198.51.100'])
        expect(after.has(`${prefix}.${last}`)).toBe(before.has(`${prefix}.${last}`));
  });
});

describe('buildRangesFile', () => {
  const lists = {
    google: parseGoogleRanges(GOOG_JSON),
    googleCloud: parseGoogleRanges(CLOUD_JSON),
    apple: parseAppleEgressCsv(APPLE_CSV),
    microsoft: parseMicrosoftEndpoints(MICROSOFT_JSON),
  };

  it("writes a dated file the render service reads, Google Cloud's part excluded", async () => {
    const built = buildRangesFile(lists, '2026-11-24');
    const text = await rangesFileText(built);
    const parsed = MailProxyRangesSchema.parse(JSON.parse(text));
    expect(parsed).toMatchObject({ updatedAt: '2026-11-24', fetched: true });
    expect(parsed.proxies.apple.ranges).toEqual(['172.224.226.0/26', '2a02:26f7:b3c0:4000::/64']);
    const recognise = createMailProxyRecogniser(parsed);
    const gmail = 'Mozilla/5.0 (via ggpht.com GoogleImageProxy)';
    expect(recognise(gmail, '66.249.84.1')).toBe('gmail');
    expect(recognise(gmail, '34.0.5.1')).toBeUndefined(); // a Google Cloud VM
    expect(recognise(gmail, '34.1.0.1')).toBe('gmail');
    expect(recognise('Mozilla/5.0', '172.224.226.40')).toBe('apple');
    expect(recognise('Microsoft Outlook 16.0', '40.97.1.1')).toBe('outlook');
  });

  it('refuses to write when a list came back empty', () => {
    expect(() => buildRangesFile({ ...lists, apple: [] }, '2026-11-24')).toThrow(/apple/);
  });
});
