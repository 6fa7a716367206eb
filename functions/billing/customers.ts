/**
 * The team's Stripe customer (docs/billing.md; docs/billing.md "Model" team billing fields):
 * created on first use with the owner's e-mail, the team's name and billing address, and the VAT id
 * as a tax id (`eu_vat`, `gb_vat`) for Stripe Tax. The customer's metadata names the team, and the
 * StripeCustomer item maps it back for webhooks.
 */
import { type BillingAddress, isVatCountry } from '#shared/billing.ts';
import { db } from '#lib/db/index.ts';
import type { Stripe } from '#lib/stripe.ts';
import { idempotencyKey, stripe } from '#lib/stripe.ts';
import type { BillingTeam, TeamRecord } from './account.ts';

/** What the forms send about the customer; absent fields are left as they are. */
export interface CustomerDetails extends Partial<BillingAddress> {
  vat_id?: string | null | undefined;
  email?: string | null | undefined;
  name?: string | null | undefined;
}

const blank = (v: string | null | undefined): string | undefined =>
  v === null || v === undefined || v.trim() === '' ? undefined : v.trim();

/** True when the details carry a street, city, state or zip. */
const hasAddressLines = (d: CustomerDetails): boolean =>
  [d.address, d.address_line_2, d.city, d.state, d.zip].some((v) => blank(v) !== undefined);

/** True when the details carry any address field. */
const hasAddress = (d: CustomerDetails): boolean =>
  hasAddressLines(d) || blank(d.country) !== undefined;

/** The team's stored billing address as Stripe's address parameter. */
export function stripeAddress(team: TeamRecord): Stripe.AddressParam {
  return {
    line1: team.billingAddress ?? '',
    line2: team.billingAddressLine2 ?? '',
    city: team.billingCity ?? '',
    state: team.billingState ?? '',
    postal_code: team.billingZip ?? '',
    country: team.billingCountry ?? '',
  };
}

/**
 * The Stripe tax id type of a VAT id for a billing country: `gb_vat` for GB, `eu_vat` for the
 * EU countries of docs/accounts.md "Constants", undefined elsewhere (the VAT id is kept but not
 * sent).
 */
export function taxIdType(country: string | undefined): 'eu_vat' | 'gb_vat' | undefined {
  if (!country || !isVatCountry(country)) return undefined;
  return country.toUpperCase() === 'GB' ? 'gb_vat' : 'eu_vat';
}

/**
 * Stores the billing address and VAT id fields on the team (no Stripe call).
 * @returns the team as saved.
 */
export async function saveBillingDetails(
  team: TeamRecord,
  details: CustomerDetails,
): Promise<TeamRecord> {
  const set: Partial<TeamRecord> = {};
  // A form that sends only the (defaulted) country keeps a stored address.
  const countryOnly = !hasAddressLines(details) && team.billingCountry !== undefined;
  if (hasAddress(details) && !countryOnly) {
    set.billingAddress = blank(details.address) ?? '';
    set.billingAddressLine2 = blank(details.address_line_2) ?? '';
    set.billingCity = blank(details.city) ?? '';
    set.billingState = blank(details.state) ?? '';
    set.billingZip = blank(details.zip) ?? '';
    set.billingCountry = (blank(details.country) ?? 'US').toUpperCase();
  }
  if (details.vat_id !== undefined) set.vatId = blank(details.vat_id) ?? '';
  if (Object.keys(set).length === 0) return team;
  await db().Team.patch({ teamId: team.teamId }).set(set).go();
  return { ...team, ...set };
}

/**
 * The team's Stripe customer id, creating the customer on first use and sending changed
 * address and VAT id details to an existing one.
 * @param requestId makes the create's idempotency key (an SDK retry is not a second customer).
 * @throws Stripe errors (the caller maps them, functions/billing/errors.ts).
 */
export async function ensureCustomer(
  billing: BillingTeam,
  details: CustomerDetails,
  requestId: string,
): Promise<{ customerId: string; team: TeamRecord }> {
  const team = await saveBillingDetails(billing.team, details);
  const vatType = taxIdType(team.billingCountry);
  const vatId = blank(team.vatId);
  const email = blank(details.email) ?? billing.owner.email;
  if (!team.stripeCustomerId) {
    const customer = await stripe().customers.create(
      {
        email,
        name: blank(details.name) ?? team.name,
        ...(team.billingCountry ? { address: stripeAddress(team) } : {}),
        ...(vatId && vatType ? { tax_id_data: [{ type: vatType, value: vatId }] } : {}),
        metadata: { team_id: team.teamId },
        ...(team.extraBillingInformation
          ? { invoice_settings: { footer: team.extraBillingInformation } }
          : {}),
      },
      { idempotencyKey: idempotencyKey('customer', team.teamId, requestId) },
    );
    await db()
      .service.transaction.write(({ Team, StripeCustomer }) => [
        Team.patch({ teamId: team.teamId }).set({ stripeCustomerId: customer.id }).commit(),
        StripeCustomer.put({ customerId: customer.id, teamId: team.teamId }).commit(),
      ])
      .go();
    return { customerId: customer.id, team: { ...team, stripeCustomerId: customer.id } };
  }
  if (team !== billing.team || blank(details.email) !== undefined) {
    await stripe().customers.update(
      team.stripeCustomerId,
      { email, ...(team.billingCountry ? { address: stripeAddress(team) } : {}) },
      { idempotencyKey: idempotencyKey('customer-update', team.teamId, requestId) },
    );
  }
  if (details.vat_id !== undefined) await replaceTaxId(team, requestId);
  return { customerId: team.stripeCustomerId, team };
}

/**
 * Makes the customer's tax ids match the team's VAT id: the old ones are deleted, the new one
 * created (Stripe validates its format: an invalid one throws with `param` set).
 */
export async function replaceTaxId(team: TeamRecord, requestId: string): Promise<void> {
  if (!team.stripeCustomerId) return;
  const client = stripe();
  const vatId = blank(team.vatId);
  const vatType = taxIdType(team.billingCountry);
  const existing = await client.customers.listTaxIds(team.stripeCustomerId, { limit: 10 });
  if (existing.data.some((t) => t.value === vatId && t.type === vatType)) return;
  if (vatId && vatType) {
    await client.customers.createTaxId(
      team.stripeCustomerId,
      { type: vatType, value: vatId },
      { idempotencyKey: idempotencyKey('tax-id', team.teamId, vatId, requestId) },
    );
  }
  for (const old of existing.data)
    await client.customers.deleteTaxId(team.stripeCustomerId, old.id);
}

/**
 * Applies a `customer.updated` snapshot to the team's billing fields (address, first tax id;
 * the e-mail is the owner's and is not copied) and maps the customer to the team. Webhook side
 * (docs/billing.md).
 */
export async function applyCustomer(customer: Stripe.Customer, teamId: string): Promise<void> {
  await db().StripeCustomer.put({ customerId: customer.id, teamId }).go();
  const a = customer.address;
  const tax = customer.tax_ids?.data.find((t) => t.type === 'eu_vat' || t.type === 'gb_vat');
  await db()
    .Team.patch({ teamId })
    .set({
      stripeCustomerId: customer.id,
      ...(a
        ? {
            billingAddress: a.line1 ?? '',
            billingAddressLine2: a.line2 ?? '',
            billingCity: a.city ?? '',
            billingState: a.state ?? '',
            billingZip: a.postal_code ?? '',
            billingCountry: a.country ?? '',
          }
        : {}),
      ...(tax ? { vatId: tax.value } : {}),
    })
    .go();
}
