/**
 * Providers whose merge tags the user types (Custom, fixyourfunnel): the product knows no
 * catalogue for them. A typed value of a merge-tag shape the render service knows (`{{…}}`,
 * `{…}`, `~…~`, `*|…|*`, `%…%`, `[…]`; `isUnfilledMergeTag`) is the platform's tag: it goes
 * into the URL as typed, for the platform to replace, and if the platform leaves it the render
 * service shows the fallback. Any other text is a fixed value, percent-encoded by the URL
 * builder (shared/export-url.ts).
 */
import { isUnfilledMergeTag } from '../scene/resolve.ts';
import { rawSubstitution, type Provider, type ProviderFacts } from './types.ts';

export function typedTagProvider(
  facts: Pick<ProviderFacts, 'value' | 'label' | 'url' | 'urlForm'>,
): Provider {
  return {
    ...facts,
    source: 'text',
    substitution: 'raw',
    allowsPdf: true,
    hasFallback: false,
    connection: 'none',
    mergeTag: (field) => field,
    urlTag: (field) => field,
    parseTag: (value) => (isUnfilledMergeTag(value) ? { field: value.trim() } : undefined),
    substitute: rawSubstitution,
    catalogue: () => [],
  };
}
