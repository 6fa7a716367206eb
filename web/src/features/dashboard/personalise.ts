/**
 * The "how to personalise" hint of the show page: the design's parameter names
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" `text_snippets[].parameters[].param_name`) as a query string with made-up values, the
 * way a render URL takes them (`{base_url}?first_name=Ann`, docs/adr/0004-render-slice.md "Render
 * slice").
 */
import type { DesignDetails } from '../../api/designs.ts';

/** Made-up values for common parameter names; anything else gets "value". */
const EXAMPLES: readonly (readonly [RegExp, string])[] = [
  [/mail/i, 'ann@example.com'],
  [/last|surname|family/i, 'Lee'],
  [/first|given|^name$|full_?name|^user/i, 'Ann'],
  [/city|town/i, 'Oslo'],
  [/country/i, 'Norway'],
  [/company|team|org|business|shop|store/i, 'Acme'],
  [/url|link|site/i, 'https://example.com'],
  [/date|day/i, '22 Nov'],
];

/**
 * The design's parameter names, each once: its text snippets' in their order, then its dynamic
 * stickers' (a QR code's value, …), as the export screen lists them.
 */
export function parameterNames(
  design: Pick<DesignDetails, 'text_snippets' | 'sticker_parameters'>,
): string[] {
  const names = design.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name));
  return [...new Set([...names, ...(design.sticker_parameters ?? [])])];
}

/** A made-up value for a parameter named `name` ("first_name" → "Ann"). */
export function exampleValue(name: string): string {
  return EXAMPLES.find(([pattern]) => pattern.test(name))?.[1] ?? 'value';
}

/**
 * `?first_name=Ann&city=Oslo` for the given names (each value URL-encoded), or '' for none.
 * @param limit at most this many parameters go in (a hint, not a full list).
 */
export function exampleQuery(names: readonly string[], limit = 3): string {
  if (names.length === 0) return '';
  const query = new URLSearchParams(names.slice(0, limit).map((n) => [n, exampleValue(n)]));
  return `?${query}`;
}
