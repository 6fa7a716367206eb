/**
 * Keap, formerly Infusionsoft (docs/providers.md "Keap"): merge fields between tildes,
 * `~Contact.FirstName~`; custom fields `~Contact._FieldName~`. No fallback syntax: an empty
 * field leaves the value empty and the design's fallback shows.
 *
 * URL-encoding rule: Keap inserts the value as it is (`raw`); nothing in its merge-field syntax
 * encodes, so a value with `+`, `#`, `%xx` or `&name=` cannot arrive intact.
 *
 * Live fields: OAuth2 (authorisation code); `GET /crm/rest/v1/contacts/model` lists the
 * custom fields (functions/merge-tags/adapters.ts).
 */
import { choices, rawSubstitution, type Provider } from './types.ts';

/** The Keap field of a custom field's name: `Contact._FieldName`. */
export const keapCustomField = (fieldName: string): string =>
  `Contact._${fieldName.replace(/[^A-Za-z0-9_]/g, '')}`;

const tag = (field: string): string => `~${field}~`;

export const infusionsoft: Provider = {
  value: 'infusionsoft',
  label: 'Keap (Infusionsoft)',
  url: 'https://keap.com',
  source: 'merge-tag',
  substitution: 'raw',
  urlForm: 'params',
  allowsPdf: true,
  hasFallback: false,
  connection: 'oauth',
  mergeTag: (field) => tag(field),
  urlTag: (field) => tag(field),
  parseTag(value) {
    const m = /^\s*~([A-Za-z][A-Za-z0-9_.]*)~\s*$/.exec(value);
    return m ? { field: m[1]! } : undefined;
  },
  substitute: rawSubstitution,
  catalogue: () =>
    choices(infusionsoft, [
      ['First name', 'Contact.FirstName'],
      ['Last name', 'Contact.LastName'],
      ['E-mail', 'Contact.Email'],
      ['Company', 'Contact.Company'],
      ['City', 'Contact.City'],
      ['Phone', 'Contact.Phone1'],
    ]),
};
