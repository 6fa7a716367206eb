/**
 * The rules of a parameter (merge field) name and fallback value,
 * docs/adr/0013-text-snippet-parameters.md "Text snippet parameters". Pure: the server's parameter
 * calls (functions/text-snippets) and the SPA's editor both use them, so the editor refuses exactly
 * what the server refuses, with the same messages.
 *
 * Text transforms are applied by `applyTextTransform` in `shared/scene/resolve.ts` (the render
 * path); this module only builds the stored `text_transform` value.
 */
import { TEXT_TRANSFORMS, type Parameter, type TextTransformKey } from './design.ts';
import { MAX_VALUE_LENGTH } from './scene/resolve.ts';

/** The spec's messages, word for word (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). The double space is the spec's. */
export const PARAMETER_MESSAGES = {
  nameEmpty: "Parameter's name field cannot be empty",
  nameOnlyDigits: "Parameter's name field  cannot include only digits",
  nameTaken: 'This name is already being used.',
  valueTooLong: 'Value may not be greater than 255 character!',
} as const;

/**
 * The name a new parameter gets when the caller gives none
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Adding a parameter": "a
 * default name"; the spec does not say which, so the word it uses for placeholders).
 */
export const DEFAULT_PARAMETER_NAME = 'param';

/** Suffix of a copied parameter's name: `_copy` plus a number (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
const COPY_SUFFIX = /_copy\d+$/;

/**
 * Keeps only letters, digits, `_` and `-` (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters": "other characters are stripped as typed"). Letters are ASCII letters: the render
 * URL's placeholder pattern `MERGE_FIELD` (shared/scene/resolve.ts) and the query strings of e-mail
 * platforms use the same set.
 * @param raw what the user typed; any string.
 * @returns the name with every other character removed (possibly empty).
 */
export function sanitizeParameterName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '');
}

/**
 * Checks a (sanitised) parameter name against the rules of docs/adr/0013-text-snippet-parameters.md
 * "Text snippet parameters", in the spec's order: not empty, not only digits, not used by another
 * parameter of the design. Names compare exactly (case-sensitive), as the render URL's query string
 * does.
 * @param name the name after `sanitizeParameterName`.
 * @param takenNames names already used in the design, without the parameter's own name.
 * @returns the spec's message, or null when the name is allowed.
 */
export function validateParameterName(name: string, takenNames: Iterable<string>): string | null {
  if (name === '') return PARAMETER_MESSAGES.nameEmpty;
  if (/^\d+$/.test(name)) return PARAMETER_MESSAGES.nameOnlyDigits;
  for (const taken of takenNames) if (taken === name) return PARAMETER_MESSAGES.nameTaken;
  return null;
}

/**
 * The first free name of `base`, else `base` with an incremented number
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "created with a default
 * name, an incremented suffix if the name is taken"): `param` → `param1`, `param2`, …; a name that
 * already ends in a number counts on from it (`q7` → `q8`).
 * @param base a sanitised name; empty or only digits falls back to `DEFAULT_PARAMETER_NAME`.
 * @param taken names already used in the design.
 */
export function nextParameterName(base: string, taken: Iterable<string>): string {
  const start = validateParameterName(base, []) === null ? base : DEFAULT_PARAMETER_NAME;
  const used = new Set(taken);
  if (!used.has(start)) return start;
  const [, stem = start, digits] = /^(.*?[^\d])(\d*)$/.exec(start) ?? [];
  return firstFree(stem, '', used, digits ? Number(digits) + 1 : 1);
}

/**
 * The name of a copied parameter: `name_copy1`, else `name_copy2`, …
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "copies get suffix _copy
 * plus a number"). A name that already ends in `_copyN` is copied from its stem, so copies of
 * copies read `first_name_copy2`, never `first_name_copy1_copy1`.
 * @param name the original parameter's name.
 * @param taken names already used in the design (the original's included).
 */
export function copyParameterName(name: string, taken: Iterable<string>): string {
  return firstFree(name.replace(COPY_SUFFIX, ''), '_copy', new Set(taken), 1);
}

/** The first of `stem{infix}{n}`, `stem{infix}{n+1}`, … not in `used`. */
function firstFree(stem: string, infix: string, used: ReadonlySet<string>, n: number): string {
  for (; ; n++) {
    const candidate = `${stem}${infix}${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/**
 * Checks a fallback (default) value: at most 255 characters
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). Characters are UTF-16 code
 * units, as the stored schema (`ParameterSchema`) counts them.
 * @returns the spec's message, or null.
 */
export function validateParameterValue(value: string): string | null {
  return value.length > MAX_VALUE_LENGTH ? PARAMETER_MESSAGES.valueTooLong : null;
}

/**
 * The stored form of a fallback value: a blank (empty or only whitespace) is stored as a single
 * space (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"); anything else is kept
 * as typed.
 */
export function storedParameterValue(value: string | null | undefined): string {
  return value === null || value === undefined || value.trim() === '' ? ' ' : value;
}

/** A parameter's stored text transform (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters" `text_transform`). */
export type TextTransform = Parameter['text_transform'];

/** Text transform off: no option key or name (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Text transform"). */
export const NO_TEXT_TRANSFORM: TextTransform = {
  checkFormating: false,
  formatOptionKey: null,
  formatOptionName: null,
};

/**
 * The text transform after the editor's toggle or option choice
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Text transform"): switching
 * off clears the option key and name; choosing an option switches on and sets the key and its name
 * (`TEXT_TRANSFORMS`); switching on without an option keeps a previous option.
 * @param current the stored transform.
 * @param change `checkFormating` to switch on or off, `formatOptionKey` to choose an option
 *   (null clears it); a missing `checkFormating` with no option toggles.
 */
export function changeTextTransform(
  current: TextTransform,
  change: { checkFormating?: boolean; formatOptionKey?: TextTransformKey | null },
): TextTransform {
  const { formatOptionKey } = change;
  const on =
    change.checkFormating ??
    (formatOptionKey !== undefined && formatOptionKey !== null ? true : !current.checkFormating);
  if (!on) return NO_TEXT_TRANSFORM;
  const key = formatOptionKey === undefined ? current.formatOptionKey : formatOptionKey;
  return {
    checkFormating: true,
    formatOptionKey: key,
    formatOptionName: key === null ? null : TEXT_TRANSFORMS[key],
  };
}
