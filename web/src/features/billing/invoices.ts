/** Which invoices the invoices table lists. */
import type { Invoice } from '#shared/billing.ts';

/** docs/accounts.md "Validation rules": "Invoices with a total of $0.00 are hidden" (the server leaves them out too). */
export const shownInvoices = (invoices: readonly Invoice[]): Invoice[] =>
  invoices.filter((invoice) => invoice.total !== 0);
