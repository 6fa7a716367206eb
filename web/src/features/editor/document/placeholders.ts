/**
 * A text snippet's text edited with `{{param}}` placeholders (docs/editor.md "Architecture" text
 * snippet panel, docs/adr/0014-the-design-document-versions-and-restore.md "The design document:
 * versions and restore" Parameter, docs/editor.md "Commands": "Parameter undo"): the snippet's
 * parameters follow the placeholders the text holds, through the same pure operations the server's
 * parameter calls run (shared/parameters.ts), so the editor and the server agree on names and
 * records.
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
import { snippetLabel } from './snippets.ts';

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
 *   (`?first_name=Ann`) fills both (docs/adr/0024-editor.md "Editor");
 * - a parameter whose placeholder is gone is removed (`removeParameters`, record `removed`);
 * - a name that is not allowed (only digits, docs/editor.md "Editing rules") gets no parameter: it
 *   draws nothing.
 * @param newId makes a parameter id (a uuid).
 * @returns the new document and the parameter change records (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"), in order.
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

/** A parameter a text edit added under a name another snippet already uses. */
export interface SharedParameter {
  name: string;
  /** The snippet edited, then the other snippets holding the name, in design order. */
  snippetIds: string[];
  /** The other snippets' labels as the Snippets list shows them, in the same order. */
  others: string[];
}

/**
 * The parameters an edit of `snippetId` added (`changes`, action `added`) whose name another
 * text snippet of `design` (the edited document) already holds: the repeated parameter the
 * editor points out (docs/editor.md "Messages": "Parameters"). A name only a dynamic sticker
 * holds is not listed (no other snippet to show).
 */
export function sharedParameters(
  design: DesignDocument,
  snippetId: string,
  changes: readonly ParameterChange[],
): SharedParameter[] {
  const snippet = design.text_snippets.find((s) => s.id === snippetId);
  if (!snippet) return [];
  const shared: SharedParameter[] = [];
  for (const change of changes) {
    if (change.action !== 'added' || change.textSnippetId !== snippetId) continue;
    const name = snippet.parameters.find((p) => p.id === change.paramId)?.param_name;
    if (name === undefined) continue;
    const others = design.text_snippets.filter(
      (s) => s.id !== snippetId && s.parameters.some((p) => p.param_name === name),
    );
    if (others.length === 0) continue;
    shared.push({
      name,
      snippetIds: [snippetId, ...others.map((s) => s.id)],
      others: others.map(snippetLabel),
    });
  }
  return shared;
}

// ---- placeholders as whole units in the text field (docs/editor.md "Editing rules",
// docs/editor.md "Commands": "Dragging a parameter") --

/** Where a `{{name}}` sits in a text: `start` inclusive, `end` exclusive (UTF-16 offsets). */
export interface PlaceholderRange {
  start: number;
  end: number;
  name: string;
}

/** Every placeholder of a text, in order (the render path's `MERGE_FIELD` pattern). */
export function placeholderRanges(text: string): PlaceholderRange[] {
  return Array.from(text.matchAll(MERGE_FIELD), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    name: m[1]!,
  }));
}

/** The placeholder with `offset` strictly inside it (not at its edges), if any. */
function rangeAround(ranges: PlaceholderRange[], offset: number): PlaceholderRange | undefined {
  return ranges.find((r) => r.start < offset && offset < r.end);
}

/** A text field's selection, UTF-16 offsets (`start` ≤ `end`; equal for a caret). */
export interface TextSelection {
  start: number;
  end: number;
}

/**
 * The selection a text field should have so that no placeholder is cut (docs/editor.md "Editing
 * rules" "Parameters inside text are selected or deleted as whole units"):
 * - a caret that moved into a placeholder from one of its edges (an arrow key) jumps to the
 *   other edge, so the caret skips over it;
 * - a caret put inside one any other way (a click) selects the whole placeholder;
 * - a range with an end inside a placeholder grows to take all of it.
 * @param previous the selection before this change (the edge the caret came from).
 * @returns the snapped selection (the same offsets when nothing needed snapping).
 */
export function snapSelection(
  text: string,
  selection: TextSelection,
  previous: TextSelection | null,
): TextSelection {
  const ranges = placeholderRanges(text);
  if (selection.start === selection.end) {
    const inside = rangeAround(ranges, selection.start);
    if (!inside) return selection;
    const cameFrom = previous && previous.start === previous.end ? previous.start : null;
    if (cameFrom === inside.start) return { start: inside.end, end: inside.end };
    if (cameFrom === inside.end) return { start: inside.start, end: inside.start };
    return { start: inside.start, end: inside.end };
  }
  return {
    start: rangeAround(ranges, selection.start)?.start ?? selection.start,
    end: rangeAround(ranges, selection.end)?.end ?? selection.end,
  };
}

/**
 * The placeholder a Backspace (the one ending at the caret) or Delete (the one starting at the
 * caret) removes whole, if the caret touches one that way. A selection is left to the field
 * (snapped, it holds only whole placeholders).
 */
export function placeholderAtCaret(
  text: string,
  selection: TextSelection,
  key: 'Backspace' | 'Delete',
): PlaceholderRange | null {
  if (selection.start !== selection.end) return null;
  const at = selection.start;
  return (
    placeholderRanges(text).find((r) => (key === 'Backspace' ? r.end === at : r.start === at)) ??
    null
  );
}

/** The placeholder starting at `start` in `text`; throws when there is none (a stale edit). */
export function placeholderStartingAt(text: string, start: number): PlaceholderRange {
  const range = placeholderRanges(text).find((r) => r.start === start);
  if (!range) throw new Error(`No placeholder at ${start}`);
  return range;
}

/**
 * `text` with the placeholder `range` taken out and put at `to` (an offset of the original
 * text; docs/editor.md "Commands": "Dragging a parameter inside a snippet moves its placeholder to
 * the drop position"). A drop inside another placeholder lands after it; a drop on the placeholder
 * itself changes nothing.
 * @returns the new text and where the moved placeholder now is.
 */
export function movePlaceholder(
  text: string,
  range: PlaceholderRange,
  to: number,
): { text: string; selection: TextSelection } {
  const unchanged = { text, selection: { start: range.start, end: range.end } };
  if (to >= range.start && to <= range.end) return unchanged;
  const other = rangeAround(placeholderRanges(text), to);
  const drop = other ? other.end : Math.max(0, Math.min(text.length, to));
  const piece = text.slice(range.start, range.end);
  const rest = text.slice(0, range.start) + text.slice(range.end);
  const at = drop > range.end ? drop - piece.length : drop;
  return {
    text: rest.slice(0, at) + piece + rest.slice(at),
    selection: { start: at, end: at + piece.length },
  };
}

/**
 * The keyboard alternative to dragging (Alt+Arrow in the text field): the placeholder swaps
 * places with the word before it (`left`) or after it (`right`), keeping the spaces between:
 * `Hi {{name}} there` → right → `Hi there {{name}}`. At the text's edge nothing changes.
 */
export function shiftPlaceholder(
  text: string,
  range: PlaceholderRange,
  direction: 'left' | 'right',
): { text: string; selection: TextSelection } {
  const before = text.slice(0, range.start);
  const piece = text.slice(range.start, range.end);
  const after = text.slice(range.end);
  if (direction === 'right') {
    const next = /^(\s*)(\S+)/.exec(after);
    if (!next) return { text, selection: { start: range.start, end: range.end } };
    const start = before.length + next[2]!.length + next[1]!.length;
    return {
      text: before + next[2] + next[1] + piece + after.slice(next[0].length),
      selection: { start, end: start + piece.length },
    };
  }
  const previous = /(?<!\S)(\S+)(\s*)$/.exec(before);
  if (!previous) return { text, selection: { start: range.start, end: range.end } };
  const start = previous.index;
  return {
    text: before.slice(0, start) + piece + previous[2] + previous[1] + after,
    selection: { start, end: start + piece.length },
  };
}
