/**
 * ManyChat (docs/providers.md "ManyChat"): fields in double braces without spaces,
 * `{{first_name}}`; custom user fields by id, `{{cuf_123}}`. ManyChat fetches the render URL
 * with `__format=manychat_json` first and gets its dynamic-block JSON (version v2, one image
 * message) pointing at the image.
 *
 * URL-encoding rule: modelled as `raw` (nothing in the syntax encodes a value), the cautious
 * reading; an unfilled field arrives as the literal tag, which the render service treats as
 * missing.
 *
 * Live fields: the page's API key (`Authorization: Bearer …`) on `GET /fb/page/getCustomFields`
 * (functions/merge-tags/adapters.ts).
 */
import { choices, rawSubstitution, type Provider } from './types.ts';

/** The ManyChat field of a custom user field: `cuf_{id}`. */
export const manychatCustomField = (id: number | string): string => `cuf_${id}`;

const tag = (field: string): string => `{{${field}}}`;

export const manychat: Provider = {
  value: 'manychat',
  label: 'ManyChat',
  url: 'https://manychat.com',
  source: 'merge-tag',
  substitution: 'raw',
  urlForm: 'manychat',
  allowsPdf: true,
  hasFallback: false,
  connection: 'page_api_key',
  mergeTag: (field) => tag(field),
  urlTag: (field) => tag(field),
  parseTag(value) {
    const m = /^\s*\{\{\s*([A-Za-z0-9_]+)\s*\}\}\s*$/.exec(value);
    return m ? { field: m[1]! } : undefined;
  },
  substitute: rawSubstitution,
  catalogue: () =>
    choices(manychat, [
      ['First name', 'first_name'],
      ['Last name', 'last_name'],
      ['E-mail', 'email'],
      ['Phone', 'phone'],
    ]),
};
