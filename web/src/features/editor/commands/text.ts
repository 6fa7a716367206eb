/**
 * The text snippet commands of the text toolbar, the selection overlay, the parameter list and
 * the placeholder-aware text field (docs/editor.md "Architecture": "Text toolbar and text snippet
 * panel", docs/editor.md "Commands" "Linked font sizes", "Text transform", "Parameter undo",
 * "Selection overlay", "Dragging a parameter", docs/editor.md "Editing rules" canvas and parameter
 * rules). Merged into the command table by ../commands.ts; each declares its history intent like
 * the others there (`step`: one undo step per run; `merge`: runs with the same merge key less than
 * 1000 ms apart, or inside a gesture such as a slider drag, are one step). All record
 * `snippets.event` (docs/editor.md "Commands").
 *
 * This module imports only types from ../commands.ts, so the table can spread it without an
 * import cycle at load time.
 */
import { castDraft, type Draft } from 'immer';
import type { DesignDocument, TextSnippet, TextTransformKey } from '#shared/design.ts';
import { copyParameterName } from '#shared/parameter-rules.ts';
import {
  addParameter,
  changeParameterTextTransform,
  removeParameter,
  renamePlaceholder,
  takenParameterNames,
  updateParameter,
  type ParameterChange,
} from '#shared/parameters.ts';
import type { EditorCommand } from '../commands.ts';
import { clampSnippet } from '../document/clamps.ts';
import {
  movePlaceholder,
  placeholderStartingAt,
  setSnippetText,
  shiftPlaceholder,
} from '../document/placeholders.ts';
import { canvasOf } from '../document/snippets.ts';
import {
  DEFAULT_STROKE,
  clampAngle,
  clampStrokeWidth,
  withLinked,
  withMinFontSize,
} from '../document/textStyle.ts';
import type { ChangeIntent } from '../store/designSlice.ts';
import type { EditorState, EditorStore } from '../store/index.ts';
import { selectedSnippet } from '../store/selectionSlice.ts';
import { isUploadedFont } from './uploadedFonts.ts';

/** Text alignment of a snippet (docs/editor.md "Architecture": "alignment (left, center, right)"). */
export type TextAlign = TextSnippet['textAlign'];

/** Prefix of a cloned snippet's title (docs/editor.md "Editing rules": "titles the copy 'Copy of - ' in front"). */
export const COPY_TITLE_PREFIX = 'Copy of - ';

/** How far a clone lands from its original, down and right, px (then clamped, docs/editor.md "Editing rules"). */
export const CLONE_OFFSET_PX = 20;

/** The arguments of the text commands (the command table's `CommandArgs` extends this). */
export interface TextCommandArgs {
  setSnippetFontFamily: { id: string; fontFamily: string };
  setSnippetMinFontSize: { id: string; minFontSize: number };
  setSnippetLinked: { id: string; linked: boolean };
  toggleBold: void;
  toggleItalic: void;
  toggleUnderline: void;
  setSnippetTextAlign: { id: string; textAlign: TextAlign };
  setSnippetAngle: { id: string; angle: number };
  setSnippetStroke: { id: string; stroke: string };
  setSnippetStrokeWidth: { id: string; strokeWidth: number };
  cloneTextSnippet: { id: string };
  toggleTextWrap: { id: string };
  addParameter: { id: string };
  renameParameter: { snippetId: string; paramId: string; name: string };
  setParameterTextTransform: {
    snippetId: string;
    paramId: string;
    checkFormating?: boolean;
    formatOptionKey?: TextTransformKey | null;
  };
  removeParameter: { snippetId: string; paramId: string };
  /** Removes the placeholder that starts at `start` of the snippet's text, whole. */
  deletePlaceholder: { id: string; start: number };
  /** Moves the placeholder at `start` to the offset `to`, or one word `left` or `right`. */
  moveParameterPlaceholder: { id: string; start: number; to: number | 'left' | 'right' };
}

type TextRegistry = { [K in keyof TextCommandArgs]: EditorCommand<TextCommandArgs[K]> };

const hasDesign = (s: EditorState) => s.design !== null;
const hasSnippetSelected = (s: EditorState) => selectedSnippet(s) !== null;

/** A text command's history intent (module comment). */
function textIntent(
  command: { label: string; history: EditorCommand<unknown>['history'] },
  mergeKey: string | null,
  paramChanges: ParameterChange[] = [],
): ChangeIntent {
  return {
    eventType: 'snippets.event',
    label: command.label,
    mergeKey: command.history.kind === 'merge' ? mergeKey : null,
    paramChanges,
  };
}

/** The draft's snippet of `id`; throws when it is gone (a command on a stale id). */
function snippetIn(draft: Draft<DesignDocument>, id: string): Draft<TextSnippet> {
  const found = draft.text_snippets.find((s) => s.id === id);
  if (!found) throw new Error(`No text snippet ${id}`);
  return found;
}

/**
 * Keeps the snippet `id` inside the canvas after a change that re-flows it (docs/editor.md "Editing
 * rules"); the height the canvas measured is dropped when `reflowed`, so the next drawing measures
 * again. The command table runs it after text and font size changes too.
 * @throws Error for an unknown snippet id.
 */
export function settle(draft: Draft<DesignDocument>, id: string, reflowed: boolean): void {
  const snippet = snippetIn(draft, id);
  if (reflowed) snippet.height = null;
  Object.assign(snippet, clampSnippet(snippet, canvasOf(draft as DesignDocument)));
}

/** Changes one snippet's fields through `edit`, then settles it (see `settle`). */
function editSnippet(
  store: EditorStore,
  intent: ChangeIntent,
  id: string,
  edit: (snippet: Draft<TextSnippet>) => void,
  reflowed = true,
): void {
  store.getState().applyChange(intent, (draft) => {
    edit(snippetIn(draft, id));
    settle(draft, id, reflowed);
  });
}

/**
 * Puts a whole new document produced by a pure parameter operation in place, as one change
 * with its parameter records (the snippet of `id` is the only one such operations touch).
 */
function applyDocument(
  store: EditorStore,
  intent: ChangeIntent,
  id: string,
  next: DesignDocument,
): void {
  const snippet = next.text_snippets.find((s) => s.id === id);
  if (!snippet) throw new Error(`No text snippet ${id}`);
  store.getState().applyChange(intent, (draft) => {
    const index = draft.text_snippets.findIndex((s) => s.id === id);
    draft.text_snippets[index] = castDraft(snippet);
    settle(draft, id, true);
  });
}

/** docs/editor.md "Messages", word for word: bold or italic asked of an uploaded font (docs/editor.md "Editing rules"). */
export const UPLOADED_FONT_STYLE_MESSAGE = 'This action is not supported for uploaded fonts!';

/** The styles an uploaded font lacks (docs/editor.md "Editing rules"). */
export type FaceStyle = 'bold' | 'italic';

/** Whether a snippet has the style on. */
const hasStyle = (snippet: TextSnippet, style: FaceStyle) =>
  style === 'bold' ? snippet.fontWeight === 'bold' : snippet.fontStyle === 'italic';

/**
 * Why bold or italic may not be switched on for `snippet`: its family is an uploaded font, which
 * has no bold or italic faces (docs/editor.md "Editing rules": "Bold and italic are not supported
 * for uploaded fonts"; message docs/editor.md "Messages"). Switching a style off is always allowed,
 * so a snippet that was bold before its font changed can be made plain.
 * @param uploaded whether the snippet's family is one of the team's uploaded fonts.
 * @returns the spec's message, or null when the toggle may run.
 */
export function faceStyleRefusal(
  snippet: TextSnippet,
  style: FaceStyle,
  uploaded: boolean,
): string | null {
  return uploaded && !hasStyle(snippet, style) ? UPLOADED_FONT_STYLE_MESSAGE : null;
}

/**
 * A toggle of the selected snippet's style (bold, italic, underline; docs/editor.md
 * "Architecture").
 * @param style for bold and italic: switching it on is refused for an uploaded font
 *   (`faceStyleRefusal`). Underline has no such rule.
 */
function styleToggle(
  name: 'toggleBold' | 'toggleItalic' | 'toggleUnderline',
  label: string,
  key: string,
  flip: (snippet: Draft<TextSnippet>) => void,
  style?: FaceStyle,
): EditorCommand<void> {
  return {
    name,
    label,
    shortcuts: [{ keys: `Mod+${key}`, args: undefined }],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: hasSnippetSelected,
    refusal(state) {
      const snippet = selectedSnippet(state);
      if (!snippet || !style) return null;
      return faceStyleRefusal(snippet, style, isUploadedFont(snippet.fontFamily));
    },
    perform(store) {
      const snippet = selectedSnippet(store.getState());
      if (snippet) editSnippet(store, textIntent(this, null), snippet.id, flip);
    },
  };
}

/**
 * A copy of a snippet (docs/editor.md "Commands": "Selection overlay: clone"; docs/editor.md
 * "Editing rules": "Cloning a snippet renames its parameters to stay unique and titles the copy
 * 'Copy of - ' in front"): new ids, each parameter renamed `name_copyN` in the text too (fallback
 * and text transform kept), the title prefixed, 20 px down and right within the clamps.
 * @returns the copy and one `added` record per parameter.
 */
export function cloneSnippet(
  design: DesignDocument,
  id: string,
  newId: () => string,
): { snippet: TextSnippet; changes: ParameterChange[] } {
  const source = design.text_snippets.find((s) => s.id === id);
  if (!source) throw new Error(`No text snippet ${id}`);
  const snippetId = newId();
  const taken = takenParameterNames(design);
  let text = source.text;
  let originalText = source.original_text;
  const parameters = source.parameters.map((p) => {
    const name = p.dynamicStickerParamName ? p.param_name : copyParameterName(p.param_name, taken);
    taken.push(name);
    text = renamePlaceholder(text, p.param_name, name);
    originalText = renamePlaceholder(originalText, p.param_name, name);
    return {
      ...p,
      id: newId(),
      param_name: name,
      original_param_name: name,
      text_snippet_id: snippetId,
    };
  });
  const title = source.display_info?.title;
  const moved = clampSnippet(
    { ...source, left: source.left + CLONE_OFFSET_PX, top: source.top + CLONE_OFFSET_PX },
    canvasOf(design),
  );
  const snippet: TextSnippet = {
    ...source,
    ...moved,
    id: snippetId,
    text,
    original_text: originalText,
    display_info: {
      ...source.display_info,
      uuid: snippetId,
      title: `${COPY_TITLE_PREFIX}${typeof title === 'string' ? title : source.text}`,
    },
    parameters,
  };
  return {
    snippet,
    changes: parameters.map((p) => ({
      textSnippetId: snippetId,
      paramId: p.id,
      action: 'added' as const,
    })),
  };
}

/** A command that edits one snippet's fields: one step, or merged per snippet (`{name}:{id}`). */
function snippetCommand<K extends keyof TextCommandArgs>(
  name: K,
  label: string,
  kind: 'step' | 'merge',
  edit: (snippet: Draft<TextSnippet>, args: TextCommandArgs[K] & { id: string }) => void,
  reflowed = true,
): EditorCommand<TextCommandArgs[K] & { id: string }> {
  return {
    name,
    label,
    shortcuts: [],
    history: { kind, eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, args) {
      const intent = textIntent(this, `${name}:${args.id}`);
      editSnippet(store, intent, args.id, (s) => edit(s, args), reflowed);
    },
  };
}

/** What a parameter operation of shared/parameters.ts or ../document/placeholders.ts gives. */
interface ParameterOutcome {
  document: DesignDocument;
  changes: ParameterChange[];
}

/**
 * A command that runs a pure parameter operation on the snippet `snippetOf(args)` and puts its
 * document in place with its change records
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore": "Parameter change record"). The operation throws `ParameterError` for refused input,
 * before anything changes.
 */
function parameterCommand<K extends keyof TextCommandArgs>(
  name: K,
  label: string,
  kind: 'step' | 'merge',
  snippetOf: (args: TextCommandArgs[K]) => string,
  operate: (state: EditorState, args: TextCommandArgs[K]) => ParameterOutcome,
  mergeKey: (args: TextCommandArgs[K]) => string | null = () => null,
): EditorCommand<TextCommandArgs[K]> {
  return {
    name,
    label,
    shortcuts: [],
    history: { kind, eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, args) {
      const state = store.getState();
      if (!state.design) return;
      const { document, changes } = operate(state, args);
      applyDocument(store, textIntent(this, mergeKey(args), changes), snippetOf(args), document);
    },
  };
}

/** The snippet's text in the state's design; throws for an unknown snippet (a stale id). */
function textOf(state: EditorState, id: string): string {
  const snippet = state.design?.text_snippets.find((s) => s.id === id);
  if (!snippet) throw new Error(`No text snippet ${id}`);
  return snippet.text;
}

/** Every text command (docs/editor.md has the table). */
export const TEXT_COMMANDS: TextRegistry = {
  // An uploaded font has no bold or italic faces (docs/editor.md "Editing rules"): switching to one
  // makes the snippet plain in the same step, so one undo brings back both the family and the
  // style.
  setSnippetFontFamily: snippetCommand('setSnippetFontFamily', 'Font', 'step', (s, a) => {
    const family = a.fontFamily.trim();
    if (family === '') return;
    s.fontFamily = family;
    if (!isUploadedFont(family)) return;
    s.fontWeight = 'normal';
    s.fontStyle = 'normal';
  }),
  setSnippetMinFontSize: snippetCommand(
    'setSnippetMinFontSize',
    'Minimum font size',
    'merge',
    (s, a) => {
      Object.assign(s, withMinFontSize(s, a.minFontSize));
    },
  ),
  setSnippetLinked: snippetCommand('setSnippetLinked', 'Link minimum size', 'step', (s, a) => {
    Object.assign(s, withLinked(s, a.linked));
  }),
  toggleBold: styleToggle(
    'toggleBold',
    'Bold',
    'b',
    (s) => {
      s.fontWeight = s.fontWeight === 'bold' ? 'normal' : 'bold';
    },
    'bold',
  ),
  toggleItalic: styleToggle(
    'toggleItalic',
    'Italic',
    'i',
    (s) => {
      s.fontStyle = s.fontStyle === 'italic' ? 'normal' : 'italic';
    },
    'italic',
  ),
  toggleUnderline: styleToggle('toggleUnderline', 'Underline', 'u', (s) => {
    s.underline = !s.underline;
  }),
  setSnippetTextAlign: snippetCommand(
    'setSnippetTextAlign',
    'Alignment',
    'step',
    (s, a) => {
      s.textAlign = a.textAlign;
    },
    false,
  ),
  setSnippetAngle: snippetCommand(
    'setSnippetAngle',
    'Angle',
    'merge',
    (s, a) => {
      s.angle = clampAngle(a.angle);
    },
    false,
  ),
  setSnippetStroke: snippetCommand(
    'setSnippetStroke',
    'Outline colour',
    'merge',
    (s, a) => {
      s.stroke = a.stroke;
      // A colour chosen with no outline width shows nothing: give it the thinnest one.
      if (s.strokeWidth === 0) s.strokeWidth = 1;
    },
    false,
  ),
  setSnippetStrokeWidth: snippetCommand(
    'setSnippetStrokeWidth',
    'Outline width',
    'merge',
    (s, a) => {
      s.strokeWidth = clampStrokeWidth(a.strokeWidth);
      if (s.strokeWidth > 0 && s.stroke === null) s.stroke = DEFAULT_STROKE;
    },
    false,
  ),
  cloneTextSnippet: {
    name: 'cloneTextSnippet',
    label: 'Clone',
    shortcuts: [],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { id }) {
      const state = store.getState();
      if (!state.design) return;
      const { snippet, changes } = cloneSnippet(state.design, id, state.env.newId);
      state.applyChange(textIntent(this, null, changes), (draft) => {
        const index = draft.text_snippets.findIndex((s) => s.id === id);
        draft.text_snippets.splice(index + 1, 0, castDraft(snippet));
      });
      state.select({ kind: 'snippet', id: snippet.id });
    },
  },
  // Wrap off: the box takes the canvas's width, so lines break only at line breaks (or at the
  // canvas edge); wrap on: the box gets back the width it had (`originalWidth`). The clamps
  // then keep it inside (docs/editor.md "Editing rules").
  toggleTextWrap: snippetCommand('toggleTextWrap', 'Wrap text', 'step', (s) => {
    if (s.textWrap) {
      s.originalWidth = s.width;
      s.width = Number.MAX_SAFE_INTEGER; // `settle` narrows it to the canvas less its margins
    } else {
      s.width = s.originalWidth ?? s.width;
    }
    s.textWrap = !s.textWrap;
  }),
  // docs/editor.md "Commands": "Adding a parameter": a default name, an incremented suffix when
  // taken.
  addParameter: parameterCommand(
    'addParameter',
    'Add custom data',
    'step',
    (a) => a.id,
    (state, a) => {
      const { document, change } = addParameter(state.design!, a.id, {}, state.env.newId);
      return { document, changes: [change] };
    },
  ),
  // Refused names throw ParameterError with the docs/editor.md "Editing rules" message; the field
  // shows it.
  renameParameter: parameterCommand(
    'renameParameter',
    'Rename custom data',
    'merge',
    (a) => a.snippetId,
    (state, a) => {
      const { document, change } = updateParameter(state.design!, a.snippetId, a.paramId, {
        param_name: a.name,
      });
      return { document, changes: [change] };
    },
    (a) => `rename:${a.paramId}`,
  ),
  setParameterTextTransform: parameterCommand(
    'setParameterTextTransform',
    'Text transform',
    'step',
    (a) => a.snippetId,
    (state, { snippetId, paramId, ...change }) => {
      const result = changeParameterTextTransform(state.design!, snippetId, paramId, change);
      return { document: result.document, changes: [result.change] };
    },
  ),
  removeParameter: parameterCommand(
    'removeParameter',
    'Remove custom data',
    'step',
    (a) => a.snippetId,
    (state, a) => {
      const { document, change } = removeParameter(state.design!, a.snippetId, a.paramId);
      return { document, changes: [change] };
    },
  ),
  // The parameter goes when its last placeholder goes (record `removed`); undo re-adds it with
  // its fallback and text transform (docs/editor.md "Commands": "Parameter undo").
  deletePlaceholder: parameterCommand(
    'deletePlaceholder',
    'Delete custom data',
    'step',
    (a) => a.id,
    (state, a) => {
      const text = textOf(state, a.id);
      const range = placeholderStartingAt(text, a.start);
      const next = text.slice(0, range.start) + text.slice(range.end);
      return setSnippetText(state.design!, a.id, next, state.env.newId);
    },
  ),
  moveParameterPlaceholder: parameterCommand(
    'moveParameterPlaceholder',
    'Move custom data',
    'step',
    (a) => a.id,
    (state, a) => {
      const text = textOf(state, a.id);
      const range = placeholderStartingAt(text, a.start);
      const moved =
        typeof a.to === 'number'
          ? movePlaceholder(text, range, a.to)
          : shiftPlaceholder(text, range, a.to);
      return setSnippetText(state.design!, a.id, moved.text, state.env.newId);
    },
  ),
};
