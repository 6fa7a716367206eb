/**
 * Klaviyo (docs/providers.md "Klaviyo"). Template tags are Django's: a variable, then filters
 * after `|` with their argument after `:`, written without spaces (`{{ first_name|default:'' }}`);
 * custom profile properties are read with `{{ person|lookup:'Prop' }}`.
 *
 * URL-encoding rule: Klaviyo inserts a variable as it is, so the tag in the URL ends with
 * Django's `urlencode` filter, which percent-encodes everything but letters, digits, `_.-~` and
 * `/` (Python's `quote`): `&`, `+`, spaces and non-ASCII arrive escaped.
 *
 * Live fields: the private API key (`Authorization: Klaviyo-API-Key …`) lists profiles, whose
 * custom properties become `person|lookup:` tags (functions/merge-tags/adapters.ts).
 */
import {
  choices,
  parseFilteredTag,
  percentEncode,
  quotedFallback,
  type MergeTagChoice,
  type Provider,
} from './types.ts';

/** Filters the module writes itself; any other filter is part of the field. */
const OWN_FILTERS = new Set(['default', 'urlencode']);

/**
 * The Klaviyo variable of a custom profile property: `person|lookup:'Prop'`; a nested property
 * (an object value, flattened) chains lookups: `person|lookup:'Address'|lookup:'city'`.
 * @throws RangeError when a name holds a quote.
 */
export function klaviyoProperty(...path: string[]): string {
  return ['person', ...path.map((name) => `lookup:${quotedFallback(name)}`)].join('|');
}

/** Where a Klaviyo account's profiles come from (`GET /api/merge-tag/storeFront`). */
export const KLAVIYO_STOREFRONTS = [
  { value: 'shopify', label: 'Shopify' },
  { value: 'woocommerce', label: 'WooCommerce' },
  { value: 'bigcommerce', label: 'BigCommerce' },
  { value: 'magento', label: 'Magento' },
  { value: 'other', label: 'Other or none' },
] as const;

const STANDARD_FIELDS = [
  ['First name', 'first_name'],
  ['Last name', 'last_name'],
  ['Full name', 'full_name'],
  ['E-mail', 'email'],
] as const;

/** Profile properties a storefront integration adds (docs/providers.md). */
const STOREFRONT_FIELDS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  shopify: [['Shopify tags', klaviyoProperty('Shopify Tags')]],
};

const tag = (field: string, fallback: string, extra = ''): string =>
  `{{ ${field}|default:${quotedFallback(fallback)}${extra} }}`;

export const klaviyo: Provider = {
  value: 'klaviyo',
  label: 'Klaviyo',
  url: 'https://www.klaviyo.com',
  source: 'merge-tag',
  substitution: 'percent',
  urlForm: 'params',
  allowsPdf: true,
  hasFallback: true,
  connection: 'api_key',
  mergeTag: (field, fallback = '') => tag(field, fallback),
  urlTag: (field, fallback = '') => tag(field, fallback, '|urlencode'),
  parseTag: (value) => parseFilteredTag(value, OWN_FILTERS, { pipe: '|', colon: ':' }),
  substitute: (value) => percentEncode(value, '_.-~/'),
  catalogue(storeFront?: string): MergeTagChoice[] {
    return choices(klaviyo, [...STANDARD_FIELDS, ...(STOREFRONT_FIELDS[storeFront ?? ''] ?? [])]);
  },
};
