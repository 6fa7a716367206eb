/**
 * String helpers and shapes that stay linear on any input (docs/security.md "Linear regular
 * expressions"): the project's regexes must not backtrack super-linearly, and an anchored
 * trim such as `/\/+$/` does (a long run of `/` followed by anything else costs the square of
 * its length), so trims are loops here.
 */

/**
 * `value` without the run of `char` at its end: `trimEndChar('https://cdn.test//', '/')` →
 * `https://cdn.test`.
 * @param char one UTF-16 code unit.
 */
export function trimEndChar(value: string, char: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === char) end--;
  return value.slice(0, end);
}

/**
 * `value` without the runs of `char` at both ends: `trimChar('--a-b--', '-')` → `a-b`.
 * @param char one UTF-16 code unit.
 */
export function trimChar(value: string, char: string): string {
  let start = 0;
  while (start < value.length && value[start] === char) start++;
  return trimEndChar(value.slice(start), char);
}

/**
 * The shape of an e-mail address worth looking up (a gravatar): a local part, `@`, and a
 * domain of dot-separated labels with at least one dot; no spaces. The labels exclude the dot,
 * so no two quantifiers can trade characters (linear). Not a full RFC 5322 check: the
 * address is only hashed or shown.
 */
export const EMAIL_SHAPE = /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/;
