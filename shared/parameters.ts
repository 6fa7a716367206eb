/**
 * Parameter operations on a design document (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters" Parameter, docs/adr/0013-text-snippet-parameters.md "Text snippet parameters":
 * "Adding a parameter", "Text transform", "Parameter undo";
 * "Text snippet parameters").
 * Pure: each takes a design document and returns a new one (the input is never changed) with the
 * change record of docs/adr/0013-text-snippet-parameters.md "Text snippet parameters" (`{
 * textSnippetId, paramId, action }`) that the editor's undo history keeps. The server's calls
 * (functions/text-snippets) and the editor run the same code.
 *
 * Rules kept here:
 * - parameter names are unique in the whole design, text parameters and dynamic stickers' alike,
 *   because the render URL takes every value by name (`/r/{publicId}?first_name=Ana`);
 * - a snippet's text keeps its `{{name}}` placeholders in step with its parameters: adding a
 *   parameter appends its placeholder when the text has none, renaming rewrites it, removing
 *   deletes it (with one of the spaces around it) so the text never shows a dead `{{name}}`.
 *
 * Invalid input throws `ParameterError` before anything is built, so a caller that writes the
 * result never writes part of a change.
 */
import {
  ParameterSchema,
  type DesignDocument,
  type Parameter,
  type TextSnippet,
  type TextTransformKey,
} from './design.ts';
import {
  NO_TEXT_TRANSFORM,
  changeTextTransform,
  nextParameterName,
  sanitizeParameterName,
  storedParameterValue,
  validateParameterName,
  validateParameterValue,
} from './parameter-rules.ts';

/** What happened to a parameter (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "Parameter change record"). */
export type ParameterChangeAction = 'added' | 'updated' | 'removed';

/** The change record of docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"; the editor's undo reverses it (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
export interface ParameterChange {
  textSnippetId: string;
  paramId: string;
  action: ParameterChangeAction;
}

/** Why an operation refused: an unknown text snippet or parameter, or invalid fields. */
export type ParameterErrorKind = 'text_snippet_not_found' | 'parameter_not_found' | 'invalid';

/** Thrown by the operations below; `errors` holds field errors (`{ param_name: [message] }`). */
export class ParameterError extends Error {
  constructor(
    readonly kind: ParameterErrorKind,
    message: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ParameterError';
  }
}

/** The fields a caller may set on a parameter (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"); all optional. */
export interface ParameterInput {
  /** Sanitised, then checked (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
  param_name?: string;
  /** At most 255 characters; blank is stored as one space (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
  param_default_value?: string | null;
  /** Switch formatting on or off and choose an option; the option's name is derived. */
  text_transform?: { checkFormating?: boolean; formatOptionKey?: TextTransformKey | null };
}

/** The result of a one-parameter operation. */
export interface ParameterResult {
  document: DesignDocument;
  /** The parameter as stored after the change (for a removal: as it was). */
  parameter: Parameter;
  change: ParameterChange;
}

/**
 * Finds a text snippet by its id, or by the uuid its display data carries
 * (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters": "id or uuid"; the spec's
 * DELETE path names it `{snippetUuid}`).
 * @throws ParameterError `text_snippet_not_found`.
 */
export function findTextSnippet(design: DesignDocument, textSnippetId: string): TextSnippet {
  const snippet =
    design.text_snippets.find((s) => s.id === textSnippetId) ??
    design.text_snippets.find((s) => s.display_info?.uuid === textSnippetId);
  if (!snippet) throw new ParameterError('text_snippet_not_found', 'Text snippet not found.');
  return snippet;
}

/**
 * Finds a parameter of a text snippet.
 * @throws ParameterError `text_snippet_not_found` or `parameter_not_found`.
 */
export function findParameter(
  design: DesignDocument,
  textSnippetId: string,
  paramId: string,
): { snippet: TextSnippet; parameter: Parameter } {
  const snippet = findTextSnippet(design, textSnippetId);
  const parameter = snippet.parameters.find((p) => p.id === paramId);
  if (!parameter) throw new ParameterError('parameter_not_found', 'Parameter not found.');
  return { snippet, parameter };
}

/**
 * Every parameter name in use in the design: text parameters of all snippets and dynamic
 * stickers' parameter names, the render URL's whole namespace.
 * @param exceptParamId leave out this parameter (its own name is not a conflict when renaming).
 */
export function takenParameterNames(design: DesignDocument, exceptParamId?: string): string[] {
  const names: string[] = [];
  for (const s of design.text_snippets)
    for (const p of s.parameters) if (p.id !== exceptParamId) names.push(p.param_name);
  for (const s of design.graphics_data)
    if (s.dynamicStickerParamName) names.push(s.dynamicStickerParamName);
  return names;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `{{name}}` with the optional inner spaces the render path accepts (`MERGE_FIELD`). */
const placeholder = (name: string) => `\\{\\{\\s*${escapeRegExp(name)}\\s*\\}\\}`;

/** True when `text` holds the placeholder of `name`. */
export function hasPlaceholder(text: string, name: string): boolean {
  return new RegExp(placeholder(name)).test(text);
}

/** `text` with every `{{from}}` written as `{{to}}`. */
export function renamePlaceholder(text: string, from: string, to: string): string {
  return text.replace(new RegExp(placeholder(from), 'g'), () => `{{${to}}}`);
}

/**
 * `text` without the placeholders of `name`. One space around each goes with it, so
 * `Hello {{name}} there` becomes `Hello there` and `Hello {{name}}!` becomes `Hello!`.
 */
export function removePlaceholder(text: string, name: string): string {
  return text.replace(new RegExp(`( ?)${placeholder(name)}( ?)`, 'g'), (_m, before, after) =>
    before && after ? ' ' : '',
  );
}

/** `text` with `{{name}}` appended (after a space when the text does not end in one). */
function appendPlaceholder(text: string, name: string): string {
  if (hasPlaceholder(text, name)) return text;
  const gap = text === '' || /\s$/.test(text) ? '' : ' ';
  return `${text}${gap}{{${name}}}`;
}

/** Applies `edit` to the snippet's `text` and `original_text` (both hold the placeholders). */
function editTexts(snippet: TextSnippet, edit: (text: string) => string): TextSnippet {
  return { ...snippet, text: edit(snippet.text), original_text: edit(snippet.original_text) };
}

/** The design with one snippet replaced. */
function withSnippet(design: DesignDocument, snippet: TextSnippet): DesignDocument {
  return {
    ...design,
    text_snippets: design.text_snippets.map((s) => (s.id === snippet.id ? snippet : s)),
  };
}

/** Checks and normalises the value and transform of `input` (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"). */
function checkedFields(input: ParameterInput, current: Parameter['text_transform']) {
  const errors: Record<string, string[]> = {};
  let value: string | undefined;
  if (input.param_default_value !== undefined) {
    const message = validateParameterValue(input.param_default_value ?? '');
    if (message) errors.param_default_value = [message];
    value = storedParameterValue(input.param_default_value);
  }
  const transform = input.text_transform
    ? changeTextTransform(current, {
        checkFormating: input.text_transform.checkFormating ?? current.checkFormating,
        ...(input.text_transform.formatOptionKey !== undefined
          ? { formatOptionKey: input.text_transform.formatOptionKey }
          : {}),
      })
    : current;
  return { errors, value, transform };
}

/** Throws the collected field errors, the first message as the error's own. */
function throwIfInvalid(errors: Record<string, string[]>): void {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new ParameterError('invalid', first, errors);
}

/**
 * Adds a parameter to a text snippet (docs/adr/0013-text-snippet-parameters.md "Text snippet
 * parameters": "Adding a parameter"): named `input.param_name` (sanitised) or `param`, with an
 * incremented suffix when that name is taken in the design (`param1`, `param2`, …); its placeholder
 * is appended to the snippet's text if missing.
 * @param input the new parameter's fields; `id` re-adds a removed parameter under its old id
 *   (the editor's undo, docs/adr/0013-text-snippet-parameters.md "Text snippet parameters":
 *   "Parameter undo").
 * @param newId makes the id (a uuid) when `input.id` is absent.
 * @throws ParameterError `text_snippet_not_found`; `invalid` for a given name that is empty or
 *   only digits after sanitising, a value over 255 characters, or an id already in the design.
 */
export function addParameter(
  design: DesignDocument,
  textSnippetId: string,
  input: ParameterInput & { id?: string },
  newId: () => string,
): ParameterResult {
  const snippet = findTextSnippet(design, textSnippetId);
  const { errors, value, transform } = checkedFields(input, NO_TEXT_TRANSFORM);
  let base = '';
  if (input.param_name !== undefined) {
    base = sanitizeParameterName(input.param_name);
    const message = validateParameterName(base, []);
    if (message) errors.param_name = [message];
  }
  if (
    input.id !== undefined &&
    design.text_snippets.some((s) => s.parameters.some((p) => p.id === input.id))
  )
    errors.id = ['This parameter already exists.'];
  throwIfInvalid(errors);

  const parameter = {
    ...ParameterSchema.parse({
      id: input.id ?? newId(),
      param_name: nextParameterName(base, takenParameterNames(design)),
      param_default_value: value ?? ' ',
      text_transform: transform,
    }),
    text_snippet_id: snippet.id,
  };
  const next = editTexts(snippet, (text) => appendPlaceholder(text, parameter.param_name));
  next.parameters = [...snippet.parameters, parameter];
  return {
    document: withSnippet(design, next),
    parameter,
    change: { textSnippetId: snippet.id, paramId: parameter.id, action: 'added' },
  };
}

/**
 * Updates a parameter: rename (rewriting its placeholders in the snippet's text), fallback value,
 * text transform. Fields left out are kept. A name equal to the current one is not re-checked.
 * @throws ParameterError `text_snippet_not_found`, `parameter_not_found`; `invalid` with field
 *   errors on `param_name` (docs/adr/0013-text-snippet-parameters.md "Text snippet parameters"
 *   messages) and `param_default_value` (255 characters).
 */
export function updateParameter(
  design: DesignDocument,
  textSnippetId: string,
  paramId: string,
  input: ParameterInput,
): ParameterResult & { previous: Parameter } {
  const { snippet, parameter: previous } = findParameter(design, textSnippetId, paramId);
  const { errors, value, transform } = checkedFields(input, previous.text_transform);
  let name = previous.param_name;
  if (input.param_name !== undefined) {
    name = sanitizeParameterName(input.param_name);
    const message =
      name === previous.param_name
        ? null
        : validateParameterName(name, takenParameterNames(design, paramId));
    if (message) errors.param_name = [message];
  }
  throwIfInvalid(errors);

  const renamed = name !== previous.param_name;
  const parameter = {
    ...previous,
    param_name: name,
    // The name before the last rename, which the restore path uses to re-link a stale
    // placeholder (shared/design.ts `restoreDesign`).
    original_param_name: renamed ? previous.param_name : previous.original_param_name,
    param_default_value: value ?? previous.param_default_value,
    text_transform: transform,
  };
  const next = !renamed
    ? { ...snippet }
    : editTexts(snippet, (text) => renamePlaceholder(text, previous.param_name, name));
  next.parameters = snippet.parameters.map((p) => (p.id === paramId ? parameter : p));
  return {
    document: withSnippet(design, next),
    parameter,
    previous,
    change: { textSnippetId: snippet.id, paramId, action: 'updated' },
  };
}

/**
 * The formatting toggle and option choice of the editor (docs/adr/0013-text-snippet-parameters.md
 * "Text snippet parameters": "Text transform"), as `changeTextTransform` defines them: a change
 * with neither field toggles.
 * @throws ParameterError `text_snippet_not_found`, `parameter_not_found`.
 */
export function changeParameterTextTransform(
  design: DesignDocument,
  textSnippetId: string,
  paramId: string,
  change: { checkFormating?: boolean; formatOptionKey?: TextTransformKey | null },
): ParameterResult & { previous: Parameter } {
  const { parameter } = findParameter(design, textSnippetId, paramId);
  const next = changeTextTransform(parameter.text_transform, change);
  return updateParameter(design, textSnippetId, paramId, {
    text_transform: { checkFormating: next.checkFormating, formatOptionKey: next.formatOptionKey },
  });
}

/**
 * Removes parameters of one text snippet and their placeholders from its text (see the module
 * comment). All or nothing: an unknown id refuses the whole call. Repeated ids count once.
 * @returns the new document, the removed parameters as they were, one change record each.
 * @throws ParameterError `text_snippet_not_found`, `parameter_not_found`.
 */
export function removeParameters(
  design: DesignDocument,
  textSnippetId: string,
  paramIds: readonly string[],
): { document: DesignDocument; parameters: Parameter[]; changes: ParameterChange[] } {
  const snippet = findTextSnippet(design, textSnippetId);
  const ids = [...new Set(paramIds)];
  const removed = ids.map((id) => {
    const parameter = snippet.parameters.find((p) => p.id === id);
    if (!parameter) throw new ParameterError('parameter_not_found', 'Parameter not found.');
    return parameter;
  });
  const next = editTexts(snippet, (text) =>
    removed.reduce((t, p) => removePlaceholder(t, p.param_name), text),
  );
  next.parameters = snippet.parameters.filter((p) => !ids.includes(p.id));
  return {
    document: withSnippet(design, next),
    parameters: removed,
    changes: removed.map((p) => ({
      textSnippetId: snippet.id,
      paramId: p.id,
      action: 'removed' as const,
    })),
  };
}

/**
 * Removes one parameter and its placeholders (docs/adr/0013-text-snippet-parameters.md "Text
 * snippet parameters" DELETE …/parameter/{parameterId}).
 * @throws ParameterError `text_snippet_not_found`, `parameter_not_found`.
 */
export function removeParameter(
  design: DesignDocument,
  textSnippetId: string,
  paramId: string,
): ParameterResult {
  const { document, parameters, changes } = removeParameters(design, textSnippetId, [paramId]);
  return { document, parameter: parameters[0]!, change: changes[0]! };
}
