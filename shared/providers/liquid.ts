/**
 * Shopify's Liquid output tags, shared by the two Shopify providers (docs/providers.md
 * "Shopify Email"): `{{ customer.first_name }}`, with a fallback `{{ customer.first_name | default:
 * 'there' }}`, filters separated by ` | `.
 *
 * URL-encoding rule: the tag in the URL ends with `| url_encode`, which percent-encodes every
 * byte but letters, digits and `_.-~` and writes a space as `+` (Ruby's `CGI.escape`), so every
 * value round-trips through the render service. `url_param_escape` (the usual advice) escapes
 * what `url_escape` escapes plus `&`; its documentation does not list `+`, which the render
 * service would read as a space, so it is read back (`parseTag`) but not written.
 */
import {
  choices,
  parseFilteredTag,
  percentEncode,
  quotedFallback,
  type Provider,
  type ProviderFacts,
} from './types.ts';

/** Filters the module writes itself or reads as an encoding; any other is part of the field. */
const OWN_FILTERS = new Set(['default', 'url_encode', 'url_param_escape', 'url_escape']);

function tag(field: string, fallback: string, encode: boolean): string {
  const filters = [
    field,
    ...(fallback ? [`default: ${quotedFallback(fallback)}`] : []),
    ...(encode ? ['url_encode'] : []),
  ];
  return `{{ ${filters.join(' | ')} }}`;
}

/**
 * A Liquid provider.
 * @param fields the offline catalogue: `[label, Liquid variable]` pairs.
 */
export function liquidProvider(
  facts: Omit<ProviderFacts, 'source' | 'substitution' | 'urlForm' | 'allowsPdf'>,
  fields: ReadonlyArray<readonly [string, string]>,
): Provider {
  const provider: Provider = {
    ...facts,
    source: 'merge-tag',
    substitution: 'percent',
    urlForm: 'params',
    allowsPdf: true,
    hasFallback: true,
    mergeTag: (field, fallback = '') => tag(field, fallback, false),
    urlTag: (field, fallback = '') => tag(field, fallback, true),
    parseTag: (value) => parseFilteredTag(value, OWN_FILTERS, { pipe: ' | ', colon: ': ' }),
    substitute: (value) => percentEncode(value, '_.-~', true),
    catalogue: () => choices(provider, fields),
  };
  return provider;
}
