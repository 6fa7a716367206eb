/**
 * A text snippet's text edited with `{{param}}` placeholders (spec 000 §2 text snippet panel,
 * §3 Parameter, §4 "Parameter undo"): the snippet's parameters follow the placeholders the text
 * holds, through the same pure operations the server's parameter calls run
 * (shared/parameters.ts), so the editor and the server agree on names and records.
 */
import { MERGE_FIELD } from '#shared/scene/resolve.ts';
import { ParameterSchema, type DesignDocument, type Parameter } from '#shared/design.ts';
import { validateParameterName } from '#shared/parameter-rules.ts';
import {
  addParameter,
  findTextSnippet,
  removeParameters,
  updateParameter,
  type ParameterChange,
} from '#shared/parameters.ts';

/** The placeholder names of a text, in order of first appearance, each once. */
export function placeholderNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(MERGE_FIELD), (m) => m[1]!))];
}

/** The text parameter named `name` in another snippet of the design, if any. */
function namesake(design: DesignDocument, snippetId: string, name: string): Parameter | undefined {
  for (const s of design.text_snippets) {
    if (s.id === snippetId) continue;
    const found = s.parameters.find((p) => p.param_name === name);
    if (found) return found;
  }
  return undefined;
}

/** True when a dynamic sticker of the design takes its value from the parameter `name`. */
const stickerTakes = (design: DesignDocument, name: string) =>
  design.graphics_data.some((s) => s.dynamicStickerParamName === name);

/**
 * Sets a snippet's text (and `original_text`) and brings its parameters in step with the
 * placeholders of the new text:
 * - one placeholder gone and one new in the same edit is a rename (the user edited the name
 *   between the braces): the parameter keeps its id, fallback and text transform
 *   (`updateParameter`, record `updated`), unless the new name is used elsewhere in the design;
 * - a new name gets a parameter (`addParameter`, record `added`) with a blank fallback; a name
 *   that another snippet's parameter (or a dynamic sticker) already uses gets a parameter of
 *   the same name, copying that one's fallback and text transform, so one render URL value
 *   (`?first_name=Ann`) fills both (docs/decisions.md "Editor: placeholders typed in the text");
 * - a parameter whose placeholder is gone is removed (`removeParameters`, record `removed`);
 * - a name that is not allowed (only digits, spec 000 §5) gets no parameter: it draws nothing.
 * @param newId makes a parameter id (a uuid).
 * @returns the new document and the parameter change records (spec 000 §3), in order.
 * @throws ParameterError `text_snippet_not_found` for an unknown snippet id.
 */
export function setSnippetText(
  design: DesignDocument,
  snippetId: string,
  text: string,
  newId: () => string,
): { document: DesignDocument; changes: ParameterChange[] } {
  const snippet = findTextSnippet(design, snippetId);
  const names = placeholderNames(text).filter((n) => validateParameterName(n, []) === null);
  let document: DesignDocument = {
    ...design,
    text_snippets: design.text_snippets.map((s) =>
      s.id === snippet.id ? { ...s, text, original_text: text } : s,
    ),
  };
  const changes: ParameterChange[] = [];
  const gone = snippet.parameters.filter(
    (p) => !names.includes(p.param_name) && p.dynamicStickerParamName === null,
  );
  let added = names.filter((n) => !snippet.parameters.some((p) => p.param_name === n));
  const sharedName = (name: string) =>
    namesake(document, snippet.id, name) !== undefined || stickerTakes(document, name);

  if (gone.length === 1 && added.length === 1 && !sharedName(added[0]!)) {
    const result = updateParameter(document, snippet.id, gone[0]!.id, { param_name: added[0]! });
    document = result.document;
    changes.push(result.change);
    gone.length = 0;
    added = [];
  }
  if (gone.length > 0) {
    const result = removeParameters(
      document,
      snippet.id,
      gone.map((p) => p.id),
    );
    document = result.document;
    changes.push(...result.changes);
  }
  for (const name of added) {
    const other = namesake(document, snippet.id, name);
    if (other || stickerTakes(document, name)) {
      const parameter = ParameterSchema.parse({
        id: newId(),
        param_name: name,
        param_default_value: other?.param_default_value ?? ' ',
        text_transform: other?.text_transform,
        text_snippet_id: snippet.id,
      });
      document = {
        ...document,
        text_snippets: document.text_snippets.map((s) =>
          s.id === snippet.id ? { ...s, parameters: [...s.parameters, parameter] } : s,
        ),
      };
      changes.push({ textSnippetId: snippet.id, paramId: parameter.id, action: 'added' });
    } else {
      const result = addParameter(document, snippet.id, { param_name: name }, newId);
      document = result.document;
      changes.push(result.change);
    }
  }
  return { document, changes };
}
