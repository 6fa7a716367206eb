/**
 * The team slug (docs/adr/0011-registration.md "Registration"), one rule for the registration form
 * (which shows it as the company name is typed) and the server (which stores it).
 */
import { trimChar } from './strings.ts';

/**
 * The team slug for a team name: lower case, every run of spaces or non-word characters
 * replaced by one dash, no dash at either end. Letters and digits of any script count as word
 * characters ("Café Zürich" → "café-zürich"; the spec's JavaScript `\W` would turn "Café" into
 * "caf-").
 */
export function teamSlug(name: string): string {
  return trimChar(name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-'), '-');
}
