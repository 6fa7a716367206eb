/**
 * Invoices (docs/billing.md "Model" Invoice; docs/accounts.md "Validation rules": "Invoices with a
 * total of $0.00 are hidden"; docs/billing.md "Flows" `GET /settings/invoices`, `GET
 * /settings/invoice/{id}`): the team's paid invoices, newest first, downloaded through Stripe's
 * hosted PDF.
 */
import type { Invoice } from '#shared/billing.ts';
import { billingOnline } from '#lib/config.ts';
import { notFound } from '#lib/errors.ts';
import { Stripe, stripe } from '#lib/stripe.ts';
import type { TeamRecord } from './account.ts';

/** How many invoices the list reads (Stripe's page maximum). */
const INVOICE_PAGE = 100;

/** The team's paid invoices with a non-zero total, newest first; [] offline or without a customer. */
export async function listInvoices(team: TeamRecord): Promise<Invoice[]> {
  if (!billingOnline() || !team.stripeCustomerId) return [];
  const page = await stripe().invoices.list({
    customer: team.stripeCustomerId,
    status: 'paid',
    limit: INVOICE_PAGE,
  });
  return page.data
    .filter((i) => i.status === 'paid' && i.total !== 0)
    .sort((a, b) => b.created - a.created)
    .map((i) => ({
      id: i.id,
      number: i.number,
      date: new Date(i.created * 1000).toISOString(),
      total: i.total,
      currency: i.currency,
      status: 'paid' as const,
      download_url: `/settings/invoice/${encodeURIComponent(i.id)}`,
    }));
}

/**
 * The Stripe-hosted PDF of one of the caller's teams' invoices.
 * @param customerIds the Stripe customers of the teams the caller owns.
 * @throws AppError 404 for an invoice of another customer, an unknown id, or no PDF yet.
 */
export async function invoicePdfUrl(invoiceId: string, customerIds: string[]): Promise<string> {
  let invoice: Stripe.Invoice;
  try {
    invoice = await stripe().invoices.retrieve(invoiceId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) throw notFound();
    throw error;
  }
  const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
  if (!customer || !customerIds.includes(customer) || !invoice.invoice_pdf) throw notFound();
  return invoice.invoice_pdf;
}
