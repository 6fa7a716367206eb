/**
 * Registration calls (docs/security.md "Sessions and tokens", "Registration and lookups"): the
 * e-mail check after step 0 and the account creation after step 1. The bodies are the routes'
 * contracts (shared/contract/auth.ts, with the billing fields of shared/contract/billing.ts).
 */
import type { RegistrationRequest } from '#shared/contract/auth.ts';
import type { RegistrationBilling } from '#shared/billing.ts';
import { call } from './client.ts';

/** The body of `POST /register`: the account fields (docs/accounts.md "Validation rules" Registration form). */
export type { RegistrationRequest } from '#shared/contract/auth.ts';

/**
 * `POST /if-mail-exists` with the e-mail only (the check needs nothing else, so the password
 * does not travel twice).
 *
 * @throws {ApiError} 422 with `errors.email` when the address is taken or malformed.
 */
export async function checkEmailFree(email: string): Promise<void> {
  await call('POST /if-mail-exists', { body: { email } });
}

/**
 * `POST /register`, or `POST /register/partner` on the partner-campaign page (the route makes
 * the server apply the campaign's coupon). On success the server has signed the new user in.
 *
 * @param form the account fields and, for a paid plan, the billing fields.
 * @param partnerCampaign true on the partner-campaign page (`PARTNER_CAMPAIGN_PATH`).
 * @returns where to go next: the answer's `redirect` when it is a path on this site, else
 *   `/confirmation` (docs/accounts.md "Screens").
 * @throws {ApiError} 422 with field errors (docs/accounts.md "Validation rules" messages), 400 with `paymentId` when the
 *   first payment needs confirming, 429, or any other failure.
 */
export async function register(
  form: RegistrationRequest & RegistrationBilling,
  partnerCampaign = false,
): Promise<string> {
  const { redirect } = await call(partnerCampaign ? 'POST /register/partner' : 'POST /register', {
    body: form,
  });
  return redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/confirmation';
}
