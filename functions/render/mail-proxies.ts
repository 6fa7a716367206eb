/**
 * Mail image proxies (docs/security.md "Render limits"): the services that fetch a message's
 * images for many recipients from a few addresses. A proxy's address is not one abuser, so the
 * render service gives it a much larger budget and makes its requests wait for a draw rather
 * than answer the fallback (functions/render/service.ts).
 *
 * Recognised by the user agent each proxy documents and sends on every fetch. A user agent can be
 * forged, so a forger only moves itself into the proxy budget, which is still bounded per
 * address and per design; the edge's rate rule still labels it (infra/constructs/render.ts).
 */

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

/**
 * The mail proxy a request comes from, by its user agent.
 * @param userAgent the `User-Agent` header, as the edge forwarded it (absent: not a proxy).
 * @returns the proxy's name, or undefined for anything else.
 */
export function mailProxyOf(userAgent: string | undefined): MailProxy | undefined {
  if (!userAgent) return undefined;
  const agent = userAgent.slice(0, MAX_AGENT_LENGTH);
  return MAIL_PROXY_AGENTS.find((p) => agent.includes(p.fragment))?.proxy;
}
