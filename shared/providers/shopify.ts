/**
 * Shopify Email, the marketing e-mails of a Shopify store (docs/providers.md "Shopify Email"):
 * Liquid tags on the customer and the shop. No live field list: Shopify's are fixed.
 */
import { liquidProvider } from './liquid.ts';

export const shopify = liquidProvider(
  { value: 'shopify', label: 'Shopify Email', url: 'https://www.shopify.com', connection: 'none' },
  [
    ['First name', 'customer.first_name'],
    ['Last name', 'customer.last_name'],
    ['E-mail', 'customer.email'],
    ['Shop name', 'shop.name'],
  ],
);
