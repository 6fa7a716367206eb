/**
 * The payment-confirmation page's `redirect` parameter (docs/adr/0026-billing-in-the-spa.md
 * "Billing in the SPA": "with a redirect back to settings or the team"). It comes from the address
 * bar, so it is only followed when it is a path on this site: never another origin, a
 * protocol-relative `//host`, or a `javascript:` URL.
 */

/** Where the confirmation page returns when `redirect` is missing or refused. */
export const DEFAULT_PAYMENT_REDIRECT = '/settings#/subscription';

/**
 * The same-origin path to go to after a payment confirmation.
 *
 * @param raw    the `redirect` query parameter as given (may be absent, relative or absolute).
 * @param origin this site's origin, e.g. `https://app.picsnippets.com` (`location.origin`).
 * @returns the path with its query and hash (`/settings/companies/t1#/subscription`), or
 *   {@link DEFAULT_PAYMENT_REDIRECT} when `raw` is empty or points anywhere else.
 */
export function safeRedirect(raw: string | null | undefined, origin: string): string {
  const value = raw?.trim();
  // Only absolute paths: "//evil.example" and "/\evil.example" are other hosts to a browser.
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return DEFAULT_PAYMENT_REDIRECT;
  }
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return DEFAULT_PAYMENT_REDIRECT;
  }
  if (url.origin !== new URL(origin).origin) return DEFAULT_PAYMENT_REDIRECT;
  return `${url.pathname}${url.search}${url.hash}`;
}
