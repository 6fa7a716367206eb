/**
 * Registration calls (spec 001 §7, "Registration and lookups"): the e-mail check after step 0
 * and the account creation after step 1.
 */
import { api } from './client.ts';
import { PARTNER_REGISTRATION_CALL } from '#shared/billing.ts';

/** The body of `POST /register` (spec 001 §3 Registration form, the fields this SPA has). */
export interface RegistrationRequest {
  name: string;
  email: string;
  /** The company (team) name. */
  team: string;
  team_slug: string;
  password: string;
  password_confirmation: string;
  terms: true;
  /** The plan id (spec 001 §7: "plan sent as the id"). */
  plan: string;
  invitation?: string;
  coupon?: string;
}

/**
 * `POST /if-mail-exists` with the e-mail only (the check needs nothing else, so the password
 * does not travel twice).
 *
 * @throws {ApiError} 422 with `errors.email` when the address is taken or malformed.
 */
export async function checkEmailFree(email: string): Promise<void> {
  await api<unknown>('POST', '/if-mail-exists', { email });
}

/**
 * `POST /register`, or `POST /register/partner` on the partner-campaign page (the route makes
 * the server apply the campaign's coupon). On success the server has signed the new user in.
 *
 * @param partnerCampaign true on the partner-campaign page (`PARTNER_CAMPAIGN_PATH`).
 * @returns where to go next: the answer's `redirect` when it is a path on this site, else
 *   `/confirmation` (spec 001 §2).
 * @throws {ApiError} 422 with field errors (spec 001 §5 messages), 429, or any other failure.
 */
export async function register(
  form: RegistrationRequest,
  partnerCampaign = false,
): Promise<string> {
  const path = partnerCampaign ? PARTNER_REGISTRATION_CALL : '/register';
  const answer = await api<{ redirect?: unknown } | undefined>('POST', path, form);
  const redirect = answer?.redirect;
  return typeof redirect === 'string' && redirect.startsWith('/') && !redirect.startsWith('//')
    ? redirect
    : '/confirmation';
}
