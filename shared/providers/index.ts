/**
 * The merge-tag providers (docs/export.md; docs/providers.md `GET /api/merge-tag/providers`),
 * one module each, in the spec's order. See types.ts for what a module says.
 */
import { custom } from './custom.ts';
import { fixyourfunnel } from './fixyourfunnel.ts';
import { infusionsoft } from './infusionsoft.ts';
import { klaviyo } from './klaviyo.ts';
import { manychat } from './manychat.ts';
import { mywebsite } from './mywebsite.ts';
import { shopify } from './shopify.ts';
import { shopifyOrder } from './shopify_order.ts';
import type { Provider, ProviderValue } from './types.ts';
import { vidalytics } from './vidalytics.ts';
import { wistia } from './wistia.ts';

export * from './types.ts';
export { KLAVIYO_STOREFRONTS, klaviyoProperty } from './klaviyo.ts';
export { keapCustomField } from './infusionsoft.ts';
export { manychatCustomField } from './manychat.ts';
export { wistiaMediaId } from './wistia.ts';
export {
  DEFAULT_VIDALYTICS_OPTIONS,
  vidalyticsEmbed,
  type VidalyticsOptions,
} from './vidalytics.ts';

/** Every provider, in the spec's order (docs/providers.md "The provider list"). */
export const PROVIDERS: readonly Provider[] = [
  wistia,
  vidalytics,
  mywebsite,
  shopifyOrder,
  shopify,
  klaviyo,
  infusionsoft,
  manychat,
  fixyourfunnel,
  custom,
];

const BY_VALUE = new Map<string, Provider>(PROVIDERS.map((p) => [p.value, p]));

/** The provider of a stored `merge_tag_provider`; null and unknown values read as Custom. */
export function providerOf(value: string | null | undefined): Provider {
  return BY_VALUE.get(value ?? '') ?? custom;
}

/**
 * The provider list the screen offers (docs/providers.md "The provider list").
 * With `pdf` on, the providers that cannot show a PDF are left out (docs/providers.md).
 */
export function providerList(
  pdf = false,
): Array<{ value: ProviderValue; label: string; url: string }> {
  return PROVIDERS.filter((p) => !pdf || p.allowsPdf).map(({ value, label, url }) => ({
    value,
    label,
    url,
  }));
}
