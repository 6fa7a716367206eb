/**
 * `npm run proxies:refresh`: downloads the mail proxies' published address ranges and rewrites
 * shared/mail-proxy-ranges.json with today's date (docs/security.md "Render limits"). Needs the
 * internet; review the diff and commit it. Parsing is tested on sample payloads
 * (test/unit/mail-proxy-refresh.test.ts).
 *
 * Sources:
 * - Gmail's image proxy: Google's own ranges, https://www.gstatic.com/ipranges/goog.json, less
 *   the ranges Google Cloud customers use, https://www.gstatic.com/ipranges/cloud.json (kept as
 *   `exclude`: a forger on a cloud VM is not Google's proxy);
 * - Apple Mail Privacy Protection: iCloud Private Relay's egress ranges,
 *   https://mask-api.icloud.com/egress-ip-ranges.csv (`prefix,country,region,city,` lines),
 *   collapsed to the fewest CIDRs;
 * - Outlook: the Microsoft 365 endpoints of service area `Exchange`,
 *   https://endpoints.office.com/endpoints/worldwide?clientrequestid={uuid};
 * - Yahoo publishes no list: its entry stays empty, and its user agent alone names it.
 *
 * A source that fails to download or parses to nothing stops the script before it writes, so
 * a network hiccup cannot empty a list (an empty list means "user agent alone").
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ipaddr from 'ipaddr.js';
import { format } from 'prettier';
import type { MailProxyRangesInput } from '#functions/render/mail-proxies.ts';

export const SOURCES = {
  google: 'https://www.gstatic.com/ipranges/goog.json',
  googleCloud: 'https://www.gstatic.com/ipranges/cloud.json',
  apple: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
  microsoft: 'https://endpoints.office.com/endpoints/worldwide',
} as const;

/** Largest payload read from one source, bytes (Apple's CSV is some tens of MB). */
const MAX_PAYLOAD_BYTES = 128 * 1024 * 1024;
/** Longest wait for one source, ms. */
const FETCH_TIMEOUT_MS = 120_000;
/** Most lines or entries read from one source. */
const MAX_ENTRIES = 2_000_000;

const FILE = join(import.meta.dirname, '..', '..', 'shared', 'mail-proxy-ranges.json');

/** The CIDR if it is one (host bits allowed), else undefined. */
function cidrOrUndefined(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cidr = value.trim();
  return cidr.length <= 64 && ipaddr.isValidCIDR(cidr) ? cidr : undefined;
}

/**
 * The prefixes of Google's `goog.json` or `cloud.json`:
 * `{ "prefixes": [{ "ipv4Prefix": "8.8.4.0/24" }, { "ipv6Prefix": "2001:4860::/32" }, …] }`.
 * @throws Error when the payload has no `prefixes` array.
 */
export function parseGoogleRanges(payload: unknown): string[] {
  const prefixes = (payload as { prefixes?: unknown } | null)?.prefixes;
  if (!Array.isArray(prefixes)) throw new Error('Google ranges: no "prefixes" array');
  return prefixes
    .slice(0, MAX_ENTRIES)
    .map((p: { ipv4Prefix?: unknown; ipv6Prefix?: unknown }) =>
      cidrOrUndefined(p?.ipv4Prefix ?? p?.ipv6Prefix),
    )
    .filter((c): c is string => c !== undefined);
}

/**
 * The prefixes of Apple's egress CSV: one `prefix,country,region,city,` line each; blank lines,
 * comments (`#`) and lines whose first field is not a CIDR are skipped.
 */
export function parseAppleEgressCsv(text: string): string[] {
  const out: string[] = [];
  let lines = 0;
  for (const line of text.split('\n')) {
    if (++lines > MAX_ENTRIES) break;
    const comma = line.indexOf(',');
    const cidr = cidrOrUndefined(comma < 0 ? line : line.slice(0, comma));
    if (cidr) out.push(cidr);
  }
  return out;
}

/**
 * The addresses of Microsoft's endpoints answer (an array of endpoint sets
 * `{ id, serviceArea, ips?: string[], … }`) for one service area (default `Exchange`).
 * @throws Error when the payload is not an array.
 */
export function parseMicrosoftEndpoints(payload: unknown, serviceArea = 'Exchange'): string[] {
  if (!Array.isArray(payload)) throw new Error('Microsoft endpoints: not an array');
  return payload
    .slice(0, MAX_ENTRIES)
    .filter((set: { serviceArea?: unknown }) => set?.serviceArea === serviceArea)
    .flatMap((set: { ips?: unknown }) => (Array.isArray(set.ips) ? set.ips : []))
    .map(cidrOrUndefined)
    .filter((c): c is string => c !== undefined);
}

/** An address number (IPv4: 32 bits, IPv6: 128) as the address text. */
function addressText(n: bigint, v6: boolean): string {
  const bytes: number[] = [];
  for (let i = v6 ? 15 : 3; i >= 0; i--) bytes.push(Number((n >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * The fewest CIDRs covering the same addresses: ranges merged (overlapping and adjacent), then
 * each span cut into aligned blocks. IPv4 first, then IPv6, each ascending.
 * @param cidrs valid CIDRs (host bits are cleared).
 */
export function collapseRanges(cidrs: readonly string[]): string[] {
  const spans = { v4: [] as Array<[bigint, bigint]>, v6: [] as Array<[bigint, bigint]> };
  for (const cidr of cidrs) {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    const v6 = network.kind() === 'ipv6';
    let n = 0n;
    for (const byte of network.toByteArray()) n = (n << 8n) | BigInt(byte);
    const host = BigInt((v6 ? 128 : 32) - bits);
    const start = (n >> host) << host;
    (v6 ? spans.v6 : spans.v4).push([start, start + (1n << host) - 1n]);
  }
  const out: string[] = [];
  for (const [family, list] of [
    ['v4', spans.v4],
    ['v6', spans.v6],
  ] as const) {
    const width = family === 'v6' ? 128n : 32n;
    list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const merged: Array<[bigint, bigint]> = [];
    for (const [start, end] of list) {
      const last = merged.at(-1);
      if (last && start <= last[1] + 1n) last[1] = end > last[1] ? end : last[1];
      else merged.push([start, end]);
    }
    for (const [first, end] of merged) {
      let start = first;
      while (start <= end) {
        // The largest aligned block that starts at `start` and stays within `end`.
        let host = 0n;
        while (
          host < width &&
          (start & ((1n << (host + 1n)) - 1n)) === 0n &&
          start + (1n << (host + 1n)) - 1n <= end
        )
          host += 1n;
        out.push(`${addressText(start, family === 'v6')}/${width - host}`);
        start += 1n << host;
      }
    }
  }
  return out;
}

/** The lists as downloaded, each already parsed. */
export interface DownloadedLists {
  google: string[];
  googleCloud: string[];
  apple: string[];
  microsoft: string[];
}

/**
 * The data file's content from the downloaded lists.
 * @param date `YYYY-MM-DD`, the day of the download.
 * @throws Error naming a list that came back empty (nothing is written then).
 */
export function buildRangesFile(lists: DownloadedLists, date: string): MailProxyRangesInput {
  for (const [name, list] of Object.entries(lists))
    if (list.length === 0) throw new Error(`the ${name} list came back empty: not writing`);
  return {
    updatedAt: date,
    fetched: true,
    note: 'Written by `npm run proxies:refresh` (infra/tools/refresh-mail-proxies.ts) from the sources listed with each proxy.',
    proxies: {
      gmail: {
        sources: [SOURCES.google, SOURCES.googleCloud],
        ranges: collapseRanges(lists.google),
        exclude: collapseRanges(lists.googleCloud),
      },
      outlook: {
        sources: [`${SOURCES.microsoft}?clientrequestid={uuid}`],
        ranges: collapseRanges(lists.microsoft),
        exclude: [],
      },
      apple: {
        sources: [SOURCES.apple],
        ranges: collapseRanges(lists.apple),
        exclude: [],
        byAddressAlone: true,
      },
      yahoo: { sources: [], ranges: [], exclude: [] },
    },
  };
}

/** The file's text, formatted as the repository's prettier formats JSON. */
export async function rangesFileText(file: MailProxyRangesInput): Promise<string> {
  return format(JSON.stringify(file), { parser: 'json', printWidth: 100 });
}

/** GETs one source as text, bounded in time and size. @throws Error on a non-200 answer. */
async function download(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_PAYLOAD_BYTES) throw new Error(`${url}: ${length} bytes, over the limit`);
  const text = await res.text();
  if (text.length > MAX_PAYLOAD_BYTES) throw new Error(`${url}: over the size limit`);
  return text;
}

async function main(): Promise<void> {
  const [google, googleCloud, apple, microsoft] = await Promise.all([
    download(SOURCES.google).then((t) => parseGoogleRanges(JSON.parse(t))),
    download(SOURCES.googleCloud).then((t) => parseGoogleRanges(JSON.parse(t))),
    download(SOURCES.apple).then(parseAppleEgressCsv),
    download(`${SOURCES.microsoft}?clientrequestid=${randomUUID()}`).then((t) =>
      parseMicrosoftEndpoints(JSON.parse(t)),
    ),
  ]);
  const date = new Date().toISOString().slice(0, 10);
  const file = buildRangesFile({ google, googleCloud, apple, microsoft }, date);
  const before = await readFile(FILE, 'utf8').catch(() => '');
  await writeFile(FILE, await rangesFileText(file));
  console.log(
    `wrote shared/mail-proxy-ranges.json (${date}): gmail ${file.proxies.gmail.ranges.length} ` +
      `(less ${file.proxies.gmail.exclude?.length ?? 0}), outlook ` +
      `${file.proxies.outlook.ranges.length}, apple ${file.proxies.apple.ranges.length} ranges` +
      (before ? '; review `git diff shared/mail-proxy-ranges.json` and commit it' : ''),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`proxies:refresh failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
