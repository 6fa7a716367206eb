/**
 * Mail image proxies (docs/security.md "Render limits"): the services that fetch a message's
 * images for many recipients from a few addresses. A proxy's address is not one abuser, so the
 * render service gives it a much larger budget and makes its requests wait for a draw rather
 * than answer the fallback (functions/render/service.ts).
 *
 * A request is a proxy's when (test/unit/mail-proxy-ranges.test.ts):
 * 1. its user agent names the proxy ({@link MAIL_PROXY_AGENTS}) **and** its address is in that
 *    proxy's published ranges (shared/mail-proxy-ranges.json). A forged user agent from
 *    elsewhere (or Outlook's desktop client, which fetches from the recipient's own network) is
 *    an ordinary client. A proxy without shipped ranges is never recognised: a user agent alone
 *    is a claim anyone can make, and a proxy's budget is far larger than an address's, so its
 *    requests are ordinary requests until `npm run proxies:refresh` ships its ranges
 *    (docs/security.md "Open-time content");
 * 2. or, with any user agent, its address is in the ranges of a proxy marked `byAddressAlone`
 *    (Apple Mail Privacy Protection: its relays send no telling user agent, and a relay address
 *    is shared by many people anyway).
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import SHIPPED_RANGES from '#shared/mail-proxy-ranges.json' with { type: 'json' };

/** The proxies recognised, by the user-agent fragment each sends. */
export const MAIL_PROXY_AGENTS = [
  /** Gmail's image proxy (googleusercontent.com), at open time. */
  { proxy: 'gmail', fragment: 'GoogleImageProxy' },
  /** Yahoo Mail and AOL. */
  { proxy: 'yahoo', fragment: 'YahooMailProxy' },
  /** Outlook.com and Microsoft 365's image fetching. */
  { proxy: 'outlook', fragment: 'ms-office' },
  { proxy: 'outlook', fragment: 'Microsoft Outlook' },
  /** Apple Mail Privacy Protection fetches through iCloud's relays. */
  { proxy: 'apple', fragment: 'AppleMailPrivacyProtection' },
] as const;

export type MailProxy = (typeof MAIL_PROXY_AGENTS)[number]['proxy'];

/** Longest user agent read, characters (a header can be up to a few KB; proxies send ~100). */
const MAX_AGENT_LENGTH = 512;
/** Longest address parsed, characters (an IPv6 address with a zone is well under it). */
const MAX_ADDRESS_LENGTH = 64;
/** Most CIDR ranges one list may hold (Apple's egress list collapses to tens of thousands). */
const MAX_RANGES = 200_000;

/**
 * The mail proxy a request's user agent names (step 1 above without the address).
 * @param userAgent the `User-Agent` header, as the edge forwarded it (absent: not a proxy).
 * @returns the proxy's name, or undefined for anything else.
 */
export function mailProxyOf(userAgent: string | undefined): MailProxy | undefined {
  if (!userAgent) return undefined;
  const agent = userAgent.slice(0, MAX_AGENT_LENGTH);
  return MAIL_PROXY_AGENTS.find((p) => agent.includes(p.fragment))?.proxy;
}

const CIDR_LIST = z.array(z.string().max(64)).max(MAX_RANGES);

/** One proxy's published ranges as shared/mail-proxy-ranges.json keeps them. */
const ProxyRangesSchema = z.object({
  /** Where `npm run proxies:refresh` (infra/tools/refresh-mail-proxies.ts) reads them. */
  sources: z.array(z.string()),
  /** CIDR ranges (`66.249.80.0/20`, `2001:4860:4000::/36`) the proxy fetches from. */
  ranges: CIDR_LIST,
  /** CIDR ranges inside `ranges` that are not the proxy (Google Cloud customers' addresses). */
  exclude: CIDR_LIST.default([]),
  /** The address alone marks the proxy, whatever the user agent (rule 2 above). */
  byAddressAlone: z.boolean().default(false),
});

/** The data file: when it was written, whether it was downloaded, and each proxy's ranges. */
export const MailProxyRangesSchema = z.object({
  /** `YYYY-MM-DD` (UTC) of the last refresh. */
  updatedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** True when written by the refresh script from the published lists. */
  fetched: z.boolean(),
  note: z.string().optional(),
  proxies: z.object({
    gmail: ProxyRangesSchema,
    yahoo: ProxyRangesSchema,
    outlook: ProxyRangesSchema,
    apple: ProxyRangesSchema,
  }),
});
export type MailProxyRanges = z.infer<typeof MailProxyRangesSchema>;
export type MailProxyRangesInput = z.input<typeof MailProxyRangesSchema>;

/**
 * On the local stack (any STAGE but `aws`) these loopback addresses stand in for every proxy's
 * published ranges, so tests and the campaign bench can play proxies (127.0.0.x) and ordinary
 * clients (127.1.0.0 and up) from one machine (docs/security.md "Render limits").
 */
export const LOCAL_PROXY_STAND_INS: readonly string[] = ['127.0.0.0/24', '::1/128'];

/** An address as a number and its family (IPv4-mapped IPv6 is read as IPv4). */
function addressNumber(address: string): { v6: boolean; n: bigint } | undefined {
  if (address.length > MAX_ADDRESS_LENGTH || !ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  let n = 0n;
  for (const byte of parsed.toByteArray()) n = (n << 8n) | BigInt(byte);
  return { v6: parsed.kind() === 'ipv6', n };
}

/**
 * A set of CIDR ranges, merged and sorted, matched by binary search: O(log n) per address,
 * no regular expressions.
 */
export class AddressRanges {
  private readonly v4: { starts: bigint[]; ends: bigint[] };
  private readonly v6: { starts: bigint[]; ends: bigint[] };

  /**
   * @param cidrs ranges like `66.249.80.0/20` or `2001:4860:4000::/36` (host bits are ignored).
   * @throws Error naming the first range that is not a CIDR, or when there are more than
   *   200,000.
   */
  constructor(cidrs: readonly string[]) {
    if (cidrs.length > MAX_RANGES) throw new Error(`more than ${MAX_RANGES} ranges`);
    const spans: { v4: Array<[bigint, bigint]>; v6: Array<[bigint, bigint]> } = { v4: [], v6: [] };
    for (const cidr of cidrs) {
      if (cidr.length > MAX_ADDRESS_LENGTH || !ipaddr.isValidCIDR(cidr))
        throw new Error(`not a CIDR range: ${cidr.slice(0, MAX_ADDRESS_LENGTH)}`);
      const [network, bits] = ipaddr.parseCIDR(cidr);
      const width = network.kind() === 'ipv6' ? 128n : 32n;
      const { n } = addressNumber(network.toString())!;
      const hostBits = width - BigInt(bits);
      const start = (n >> hostBits) << hostBits;
      const end = start + (1n << hostBits) - 1n;
      (width === 128n ? spans.v6 : spans.v4).push([start, end]);
    }
    this.v4 = AddressRanges.merge(spans.v4);
    this.v6 = AddressRanges.merge(spans.v6);
  }

  /** Sorted, overlapping and adjacent spans joined. */
  private static merge(spans: Array<[bigint, bigint]>): { starts: bigint[]; ends: bigint[] } {
    spans.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const starts: bigint[] = [];
    const ends: bigint[] = [];
    for (const [start, end] of spans) {
      const last = ends.length - 1;
      if (last >= 0 && start <= ends[last]! + 1n) {
        if (end > ends[last]!) ends[last] = end;
      } else {
        starts.push(start);
        ends.push(end);
      }
    }
    return { starts, ends };
  }

  /** Merged spans held (IPv4 and IPv6). */
  get size(): number {
    return this.v4.starts.length + this.v6.starts.length;
  }

  /**
   * True when the address is in one of the ranges.
   * @param address an IPv4 or IPv6 address as the client address gives it; anything else
   *   (`unknown`, too long, malformed) is in no range.
   */
  has(address: string): boolean {
    const parsed = addressNumber(address);
    if (!parsed) return false;
    const { starts, ends } = parsed.v6 ? this.v6 : this.v4;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= parsed.n) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && parsed.n <= ends[hi]!;
  }
}

/** Tells which mail proxy a request comes from, if any (the rules at the top of this file). */
export type MailProxyRecogniser = (
  userAgent: string | undefined,
  address: string,
) => MailProxy | undefined;

/**
 * Builds the recogniser from the data file's ranges.
 * @param file the ranges (default: shared/mail-proxy-ranges.json as shipped).
 * @param standIns ranges added to every proxy (the local stack's {@link LOCAL_PROXY_STAND_INS}).
 * @throws Error when the file does not have the shape of {@link MailProxyRangesSchema} or holds
 *   a range that is not a CIDR (caught by test/unit/mail-proxy-ranges.test.ts, never at run
 *   time with the shipped file).
 */
export function createMailProxyRecogniser(
  file: MailProxyRangesInput = SHIPPED_RANGES,
  standIns: readonly string[] = [],
): MailProxyRecogniser {
  const parsed = MailProxyRangesSchema.parse(file);
  const sets = new Map<MailProxy, { include: AddressRanges; exclude: AddressRanges }>();
  /** Rule 2's ranges: the published ones only, never the local stand-ins. */
  const alone: Array<[MailProxy, AddressRanges, AddressRanges]> = [];
  for (const [name, entry] of Object.entries(parsed.proxies) as Array<
    [MailProxy, MailProxyRanges['proxies'][MailProxy]]
  >) {
    const exclude = new AddressRanges(entry.exclude);
    if (entry.ranges.length + standIns.length > 0)
      sets.set(name, { include: new AddressRanges([...entry.ranges, ...standIns]), exclude });
    if (entry.byAddressAlone && entry.ranges.length > 0)
      alone.push([name, new AddressRanges(entry.ranges), exclude]);
  }
  return (userAgent, address) => {
    const named = mailProxyOf(userAgent);
    if (named) {
      const set = sets.get(named);
      // No ranges for this proxy: a user agent alone is a claim, not a proxy.
      if (!set) return undefined;
      return set.include.has(address) && !set.exclude.has(address) ? named : undefined;
    }
    for (const [name, include, exclude] of alone)
      if (include.has(address) && !exclude.has(address)) return name;
    return undefined;
  };
}
