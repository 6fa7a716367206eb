/**
 * Providers whose values are in the web page's own address (mywebsite, Wistia, Vidalytics):
 * the e-mail links to `https://site/page?first_name=Ana` and the web-tracking script
 * (shared/web-tracking-script.ts) reads the page's query parameters, optionally kept in
 * localStorage, and fills the render URL. A parameter's `merge_tag_value` is the name of the
 * page's query parameter it reads (the parameter's own name when empty).
 *
 * URL-encoding rule (`page`): the script reads the decoded value (`URLSearchParams`) and writes
 * it with `encodeURIComponent`, so every value round-trips. PDF is not offered: a page shows an
 * image (docs/providers.md).
 */
import { choices, type MergeTagChoice, type Provider, type ProviderFacts } from './types.ts';

/** A page query parameter name: what `URLSearchParams` keys usually are in links. */
const PAGE_PARAMETER = /^\s*([A-Za-z0-9_.-]{1,64})\s*$/;

export function pageProvider(
  facts: Pick<ProviderFacts, 'value' | 'label' | 'url'>,
  fields: ReadonlyArray<readonly [string, string]> = [],
): Provider {
  const provider: Provider = {
    ...facts,
    source: 'page',
    substitution: 'page',
    urlForm: 'params',
    allowsPdf: false,
    hasFallback: false,
    connection: 'none',
    mergeTag: (field) => field,
    urlTag: (field) => field,
    parseTag(value) {
      const m = PAGE_PARAMETER.exec(value);
      return m ? { field: m[1]! } : undefined;
    },
    substitute: (value) => encodeURIComponent(value),
    catalogue: (): MergeTagChoice[] => choices(provider, fields),
  };
  return provider;
}
