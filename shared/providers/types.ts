/**
 * The shape every merge-tag provider module has (docs/export.md; docs/providers.md
 * "The provider list", docs/adr/0022-export-and-merge-tags.md "Export and merge tags"), and the
 * helpers the modules share.
 *
 * A provider is the platform that puts the render URL in front of a recipient: an e-mail
 * platform that replaces merge tags before sending (Klaviyo, Shopify, Keap, ManyChat,
 * fixyourfunnel), or a web page / video player whose own address carries the values, read by a
 * script (mywebsite, Wistia, Vidalytics). Each module says:
 * - how a field is written as a merge tag (with a fallback where the platform has one);
 * - how the tag is written inside a URL, and how the platform then substitutes a recipient's
 *   value there (its URL-encoding rule), so that tests can play the platform's part;
 * - its built-in offline catalogue of standard fields.
 *
 * Facts and their sources: docs/providers.md.
 */

/** Provider values (docs/providers.md "The provider list"); Custom is the empty value. */
export const PROVIDER_VALUES = [
  'wistia',
  'vidalytics',
  'mywebsite',
  'shopify_order',
  'shopify',
  'klaviyo',
  'infusionsoft',
  'manychat',
  'fixyourfunnel',
  '',
] as const;
export type ProviderValue = (typeof PROVIDER_VALUES)[number];

/** One entry of a list of merge tags (docs/providers.md "The provider list"; `POST /api/merge-tag`). */
export interface MergeTagChoice {
  /** What the screen shows, e.g. `First name`. */
  merge_tag_name: string;
  /** What goes into the parameter's `merge_tag_value`, e.g. `{{ first_name|default:'' }}`. */
  merge_tag_value: string;
}

/** A merge tag read back into its parts. */
export interface ParsedMergeTag {
  /** The platform's field: `first_name`, `customer.first_name`, `Contact.FirstName`, … */
  field: string;
  /** The fallback written in the tag, if the platform has the syntax and one was written. */
  fallback?: string;
}

/**
 * How a recipient's value reaches the URL (the provider's URL-encoding rule):
 * - `percent`: the platform percent-encodes the value (an encoding filter in the tag);
 * - `raw`: the platform inserts the value as it is; the mail client or browser then normalises
 *   the URL (spaces and non-ASCII are percent-encoded, tabs and newlines dropped, `#` starts a
 *   fragment), and the render service reads `+` as a space and `%xx` as an escape;
 * - `page`: the value is in the web page's own address; the web-tracking script reads it and
 *   percent-encodes it into the render URL (shared/web-tracking-script.ts).
 */
export type Substitution = 'percent' | 'raw' | 'page';

/**
 * The query of the render URL (docs/providers.md): `param_name=value` pairs, ManyChat's
 * `__format=manychat_json` prefix, or fixyourfunnel's single `txt=`.
 */
export type UrlForm = 'params' | 'manychat' | 'txt';

/** What gives live fields: a pasted private key, an OAuth token, a page API key; or nothing. */
export type Connection = 'api_key' | 'oauth' | 'page_api_key' | 'none';

/** A merge-tag provider module. */
export interface Provider {
  /** The stored `merge_tag_provider` value. */
  value: ProviderValue;
  label: string;
  /** The platform's site, for the screen's link. */
  url: string;
  /** Where the values come from: the platform's merge tags, the page's address, or typed text. */
  source: 'merge-tag' | 'page' | 'text';
  substitution: Substitution;
  urlForm: UrlForm;
  /** Whether the PDF form of the URL may be used (docs/providers.md: not website, wistia, vidalytics). */
  allowsPdf: boolean;
  /** Whether the merge-tag syntax has a fallback. */
  hasFallback: boolean;
  connection: Connection;
  /**
   * The merge tag for a field, as the platform documents it.
   * @param fallback written into the tag where the platform has the syntax (`hasFallback`),
   *   ignored otherwise; default empty, so the design's own fallback shows.
   * @throws RangeError when the fallback holds a quote (it could not be written in the tag).
   */
  mergeTag(field: string, fallback?: string): string;
  /** The tag as it is written inside the render URL: with the platform's encoding filter. */
  urlTag(field: string, fallback?: string): string;
  /** Reads a stored `merge_tag_value` as this platform's tag, or undefined when it is not one. */
  parseTag(value: string): ParsedMergeTag | undefined;
  /** What the platform writes in the URL in place of `urlTag(…)` for a recipient's value. */
  substitute(value: string): string;
  /** The built-in offline catalogue of standard fields (Klaviyo's depends on the storefront). */
  catalogue(storeFront?: string): MergeTagChoice[];
}

/** The fields of `Provider` that describe it, without the functions. */
export type ProviderFacts = Pick<
  Provider,
  'value' | 'label' | 'url' | 'source' | 'substitution' | 'urlForm' | 'allowsPdf' | 'connection'
>;

/**
 * A fallback as a quoted template string literal (`'Friend'`), for the platforms whose tags take
 * one (Klaviyo's Django filters, Shopify's Liquid).
 * @throws RangeError when the text holds a quote: neither template language escapes one, and a
 *   double quote would also end the HTML attribute the URL sits in.
 */
export function quotedFallback(fallback: string): string {
  if (/['"]/.test(fallback)) {
    throw new RangeError('A fallback in a merge tag may not contain quotes.');
  }
  return `'${fallback}'`;
}

/** Reads a quoted literal written by `quotedFallback` (or with double quotes). */
export function unquote(literal: string): string | undefined {
  const m = /^(['"])(.*)\1$/s.exec(literal.trim());
  return m ? m[2] : undefined;
}

/**
 * Percent-encodes every byte of the UTF-8 value except ASCII letters, digits and the `safe`
 * characters, as the platforms' encoding filters do (Python's `quote`, Ruby's `CGI.escape`).
 * @param spaceAsPlus write a space as `+` (CGI.escape, Liquid `url_encode`) instead of `%20`.
 */
export function percentEncode(value: string, safe: string, spaceAsPlus = false): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9]/.test(char) || (byte < 0x80 && safe.includes(char))) out += char;
    else if (spaceAsPlus && char === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Inserted as it is: the platform does not encode (see `Substitution` `raw`). */
export const rawSubstitution = (value: string): string => value;

/** Field names of a catalogue as choices: `[label, tag]` pairs. */
export function choices(
  provider: Pick<Provider, 'mergeTag'>,
  fields: ReadonlyArray<readonly [label: string, field: string]>,
): MergeTagChoice[] {
  return fields.map(([label, field]) => ({
    merge_tag_name: label,
    merge_tag_value: provider.mergeTag(field),
  }));
}

/** A `{{ … }}` template output tag split into its variable and its filters. */
export interface TemplateTag {
  variable: string;
  /** Filters in order: name and raw argument (quoted literal kept as written), trimmed. */
  filters: Array<{ name: string; arg?: string }>;
}

/**
 * Splits a Django or Liquid output tag (`{{ first_name|default:'' }}`,
 * `{{ customer.first_name | url_param_escape }}`) at the `|` outside quotes.
 * @returns undefined when the value is not one `{{ … }}` tag.
 */
export function splitTemplateTag(value: string): TemplateTag | undefined {
  const m = /^\s*\{\{([^{}]*)\}\}\s*$/.exec(value);
  if (!m) return undefined;
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of m[1]!) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '|') {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (quote) return undefined;
  parts.push(current);
  const [variable, ...rest] = parts.map((p) => p.trim());
  if (!variable) return undefined;
  const filters = rest.map((part) => {
    const colon = part.indexOf(':');
    return colon < 0
      ? { name: part }
      : { name: part.slice(0, colon).trim(), arg: part.slice(colon + 1).trim() };
  });
  return filters.some((f) => f.name === '') ? undefined : { variable, filters };
}

/**
 * Reads a Django or Liquid tag as a field and a fallback: the variable with every filter but
 * the module's own (`default` and the encoding filters), and the `default` filter's literal.
 * @param style how the field's kept filters are joined back: Django writes `|` and `:` without
 *   spaces, Liquid ` | ` and `: `.
 */
export function parseFilteredTag(
  value: string,
  ownFilters: ReadonlySet<string>,
  style: { pipe: string; colon: string },
): ParsedMergeTag | undefined {
  const parsed = splitTemplateTag(value);
  if (!parsed) return undefined;
  const kept = parsed.filters.filter((f) => !ownFilters.has(f.name));
  const field = [
    parsed.variable,
    ...kept.map((f) => (f.arg ? `${f.name}${style.colon}${f.arg}` : f.name)),
  ].join(style.pipe);
  const fallbackArg = parsed.filters.find((f) => f.name === 'default')?.arg;
  const fallback = fallbackArg === undefined ? undefined : unquote(fallbackArg);
  return { field, ...(fallback ? { fallback } : {}) };
}
