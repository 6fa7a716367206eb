/**
 * Shopify order notifications (order confirmation, shipping…; docs/providers.md "Shopify Email"):
 * Liquid tags such as `{{ customer.first_name | url_param_escape }}` in the notification
 * templates, on the customer and the order.
 */
import { liquidProvider } from './liquid.ts';

export const shopifyOrder = liquidProvider(
  {
    value: 'shopify_order',
    label: 'Shopify order notifications',
    url: 'https://help.shopify.com/en/manual/orders/notifications',
    connection: 'none',
  },
  [
    ['First name', 'customer.first_name'],
    ['Last name', 'customer.last_name'],
    ['E-mail', 'customer.email'],
    ['Order name', 'order_name'],
    ['Shop name', 'shop_name'],
  ],
);
