/**
 * The editor's commands (docs/editor.md "Architecture", "Every command declares its history
 * intent", after excalidraw's `actions/register`): each user action is one named command with its
 * label, its keyboard shortcuts, whether it is enabled, what it does, and how it enters the
 * history:
 *
 * - `none`: view state or history navigation (select, undo, open a confirmation);
 * - `step`: each run is one undo step;
 * - `merge`: runs with the same merge key less than 1000 ms apart are one step (typing in the
 *   text field, a held arrow key, a colour picker dragged), and so is everything inside an open
 *   gesture (a canvas drag, history.ts).
 *
 * Toolbar buttons, the keyboard (keyboard.ts) and the canvas (canvas/view.ts) all run commands
 * through `runCommand`; none of them changes the store directly.
 */
import { castDraft, type Draft } from 'immer';
import type { DesignDocument, Sticker, TextSnippet } from '#shared/design.ts';
import { updateParameter } from '#shared/parameters.ts';
import { setSnippetText, sharedParameters, type SharedParameter } from './document/placeholders.ts';
import {
  ADD_SNIPPET_COOLDOWN_MS,
  canvasOf,
  clampBox,
  newTextSnippet,
  snippetHeight,
  withFontSize,
} from './document/snippets.ts';
import type { HistoryEventType } from './store/history.ts';
import type { EditorState, EditorStore } from './store/index.ts';
import type { ChangeIntent } from './store/designSlice.ts';
import type { EditorNotice } from './store/uiSlice.ts';
import { canRedo, canUndo } from './store/history.ts';
import { selectedSnippet, type Selection } from './store/selectionSlice.ts';
import { TEXT_COMMANDS, settle, type TextCommandArgs } from './commands/text.ts';
import { clampTextWidth } from './document/clamps.ts';
import { IMAGE_COMMANDS, type ImageCommandArgs } from './commands/image.ts';
import { STICKER_COMMANDS, type StickerCommandArgs } from './commands/stickers.ts';
import { RULE_COMMANDS, type RuleCommandArgs } from './commands/rules.ts';
import { DATA_COMMANDS, type DataCommandArgs } from './commands/data.ts';
import { ALT_TEXT_COMMANDS, type AltTextCommandArgs } from './commands/altText.ts';

/** How a command enters the history (see the module comment). */
export type HistoryIntent =
  | { kind: 'none' }
  | { kind: 'step'; eventType: HistoryEventType }
  | { kind: 'merge'; eventType: HistoryEventType };

/** A key combination: `Mod` is Ctrl, or ⌘ on a Mac; keys are `KeyboardEvent.key` names. */
export interface Shortcut<A> {
  keys: string;
  args: A;
}

/** An object's new box on the canvas, px (a drag, a nudge, a canvas scale). */
export interface MoveArgs {
  target: Selection;
  left: number;
  top: number;
  /** The height the canvas measured for a text snippet, px (kept for the clamps). */
  height?: number;
}

/** The arguments of each command (the text toolbar's are in commands/text.ts). */
export interface CommandArgs
  extends
    TextCommandArgs,
    ImageCommandArgs,
    StickerCommandArgs,
    RuleCommandArgs,
    DataCommandArgs,
    AltTextCommandArgs {
  undo: void;
  redo: void;
  deselect: void;
  /** The Escape key: cancels crop mode, else deselects. */
  escape: void;
  select: Selection;
  addTextSnippet: void;
  requestDelete: void;
  deleteTextSnippet: { id: string };
  nudge: { dx: number; dy: number };
  moveObject: MoveArgs;
  resizeTextSnippet: {
    id: string;
    left: number;
    top: number;
    width: number;
    fontSize: number;
    /** The widest word or line the canvas measured at the new size, px (docs/editor.md "Editing rules"). */
    minWidth?: number;
  };
  setSnippetText: { id: string; text: string };
  setSnippetFontSize: { id: string; fontSize: number };
  setSnippetFill: { id: string; fill: string };
  setParameterFallback: { snippetId: string; paramId: string; value: string };
}
export type CommandName = keyof CommandArgs;

/** One command (see the module comment). */
export interface EditorCommand<A> {
  name: CommandName;
  /** What a person reads on a button or in a tooltip. */
  label: string;
  shortcuts: readonly Shortcut<A>[];
  history: HistoryIntent;
  enabled(state: EditorState): boolean;
  /**
   * Why the command refuses to run now although it is enabled, in the spec's words (the
   * toolbar button and the keyboard shortcut share it: both go through `runCommand`), or null
   * when it may run. A refusal shows as an error notice for 4 s and changes nothing.
   */
  refusal?(state: EditorState, args: A): string | null;
  perform(store: EditorStore, args: A): void;
}

type Registry = { [K in CommandName]: EditorCommand<CommandArgs[K]> };

/** The selection's object is a text snippet and the canvas has a design. */
const hasSnippetSelected = (s: EditorState) => selectedSnippet(s) !== null;
const hasDesign = (s: EditorState) => s.design !== null;

/** The history intent of a command run, for `applyChange`. */
function intentOf(
  command: Pick<EditorCommand<unknown>, 'name' | 'label' | 'history'>,
  extra: { mergeKey?: string; paramChanges?: ChangeIntent['paramChanges'] } = {},
  eventType?: HistoryEventType,
): ChangeIntent {
  const history = command.history;
  if (history.kind === 'none') throw new Error(`${command.name} records no history`);
  return {
    eventType: eventType ?? history.eventType,
    label: command.label,
    mergeKey: history.kind === 'merge' ? (extra.mergeKey ?? command.name) : null,
    paramChanges: extra.paramChanges ?? [],
  };
}

/** The draft's snippet of `id`; throws when it is gone (a command on a stale id). */
function draftSnippet(draft: Draft<DesignDocument>, id: string): Draft<TextSnippet> {
  const snippet = draft.text_snippets.find((s) => s.id === id);
  if (!snippet) throw new Error(`No text snippet ${id}`);
  return snippet;
}

/** The draft's sticker of `uuid`. */
function draftSticker(draft: Draft<DesignDocument>, uuid: string): Draft<Sticker> {
  const sticker = draft.graphics_data.find((s) => s.uuid === uuid);
  if (!sticker) throw new Error(`No sticker ${uuid}`);
  return sticker;
}

/** Puts a snippet computed by a pure operation in place of the draft's one (a snippet-level patch). */
function putSnippet(draft: Draft<DesignDocument>, next: TextSnippet): void {
  const index = draft.text_snippets.findIndex((s) => s.id === next.id);
  if (index >= 0) draft.text_snippets[index] = castDraft(next);
}

/**
 * Moves an object to `left`, `top` inside the canvas clamps (docs/editor.md "Editing rules"): a
 * text snippet by its box (width by its height), a sticker by its drawn box. The box is clamped
 * again here, so a move from any source (canvas, keyboard, field) obeys the same rule.
 */
function moveInDraft(draft: Draft<DesignDocument>, args: MoveArgs): void {
  const canvas = canvasOf(draft as DesignDocument);
  if (args.target.kind === 'snippet') {
    const snippet = draftSnippet(draft, args.target.id);
    if (args.height !== undefined && args.height > 0) snippet.height = Math.round(args.height);
    const box = { left: args.left, top: args.top, width: snippet.width };
    const { left, top } = clampBox(
      { ...box, height: snippetHeight(snippet as TextSnippet) },
      canvas,
    );
    snippet.left = left;
    snippet.top = top;
  } else {
    const sticker = draftSticker(draft, args.target.id);
    const { left, top } = clampBox(
      {
        left: args.left,
        top: args.top,
        width: sticker.width * sticker.scaleX,
        height: sticker.height * sticker.scaleY,
      },
      canvas,
    );
    sticker.left = left;
    sticker.top = top;
  }
}

/** The current position of a selected object, px. */
function positionOf(design: DesignDocument, target: Selection): { left: number; top: number } {
  const object =
    target.kind === 'snippet'
      ? design.text_snippets.find((s) => s.id === target.id)
      : design.graphics_data.find((s) => s.uuid === target.id);
  if (!object) throw new Error(`No ${target.kind} ${target.id}`);
  return { left: object.left, top: object.top };
}

const arrow = (key: string, dx: number, dy: number): Shortcut<{ dx: number; dy: number }>[] => [
  { keys: key, args: { dx, dy } },
  { keys: `Shift+${key}`, args: { dx: dx * 10, dy: dy * 10 } },
];

/** Every command of the editor (docs/editor.md has the table). */
export const COMMANDS: Registry = {
  // Not while cropping: crop mode's rectangle belongs to the canvas it was drawn on; Done or
  // Cancel ends the mode first (docs/editor.md "Commands": "Crop").
  undo: {
    name: 'undo',
    label: 'Undo',
    shortcuts: [{ keys: 'Mod+z', args: undefined }],
    history: { kind: 'none' },
    enabled: (s) => s.crop === null && canUndo(s.history),
    perform: (store) => void store.getState().undo(),
  },
  redo: {
    name: 'redo',
    label: 'Redo',
    shortcuts: [
      { keys: 'Mod+Shift+z', args: undefined },
      { keys: 'Ctrl+y', args: undefined },
    ],
    history: { kind: 'none' },
    enabled: (s) => s.crop === null && canRedo(s.history),
    perform: (store) => void store.getState().redo(),
  },
  deselect: {
    name: 'deselect',
    label: 'Deselect',
    shortcuts: [],
    history: { kind: 'none' },
    enabled: (s) => s.selection !== null,
    perform: (store) => store.getState().deselect(),
  },
  // The Escape key: in crop mode it is the mode's Cancel (the document is untouched,
  // docs/editor.md "Commands"), else it deselects.
  escape: {
    name: 'escape',
    label: 'Cancel crop or deselect',
    shortcuts: [{ keys: 'Escape', args: undefined }],
    history: { kind: 'none' },
    enabled: (s) => s.selection !== null || s.crop !== null,
    perform(store) {
      const state = store.getState();
      if (state.crop !== null) state.setCrop(null);
      else state.deselect();
    },
  },
  select: {
    name: 'select',
    label: 'Select',
    shortcuts: [],
    history: { kind: 'none' },
    enabled: hasDesign,
    perform: (store, selection) => store.getState().select(selection),
  },
  addTextSnippet: {
    name: 'addTextSnippet',
    label: 'Add text snippet',
    shortcuts: [],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: (s) => hasDesign(s) && !s.addSnippetBlocked,
    perform(store) {
      const state = store.getState();
      const snippet = newTextSnippet(state.design!, state.env.newId());
      state.applyChange(intentOf(this), (draft) => {
        draft.text_snippets.push(castDraft(snippet));
      });
      state.select({ kind: 'snippet', id: snippet.id });
      // docs/editor.md "Commands": "Search/add": the add button is disabled for 1 second after use.
      state.setAddSnippetBlocked(true);
      setTimeout(() => store.getState().setAddSnippetBlocked(false), ADD_SNIPPET_COOLDOWN_MS);
    },
  },
  requestDelete: {
    name: 'requestDelete',
    label: 'Delete',
    shortcuts: [
      { keys: 'Delete', args: undefined },
      { keys: 'Backspace', args: undefined },
    ],
    history: { kind: 'none' },
    enabled: (s) => hasSnippetSelected(s) || s.selection?.kind === 'sticker',
    perform(store) {
      const state = store.getState();
      const snippet = selectedSnippet(state);
      // docs/editor.md "Messages": "Confirmations": 'Delete Text Snippet?', 'Delete Sticker?'.
      if (snippet) state.askConfirm({ kind: 'deleteSnippet', id: snippet.id });
      else if (state.selection?.kind === 'sticker')
        state.askConfirm({ kind: 'deleteSticker', id: state.selection.id });
    },
  },
  deleteTextSnippet: {
    name: 'deleteTextSnippet',
    label: 'Delete text snippet',
    shortcuts: [],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { id }) {
      const state = store.getState();
      const snippet = state.design?.text_snippets.find((s) => s.id === id);
      if (!snippet) return;
      const paramChanges = snippet.parameters.map((p) => ({
        textSnippetId: id,
        paramId: p.id,
        action: 'removed' as const,
      }));
      state.applyChange(intentOf(this, { paramChanges }), (draft) => {
        draft.text_snippets = draft.text_snippets.filter((s) => s.id !== id);
      });
      if (state.selection?.id === id) state.deselect();
    },
  },
  nudge: {
    name: 'nudge',
    label: 'Nudge',
    shortcuts: [
      ...arrow('ArrowLeft', -1, 0),
      ...arrow('ArrowRight', 1, 0),
      ...arrow('ArrowUp', 0, -1),
      ...arrow('ArrowDown', 0, 1),
    ],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: (s) => s.selection !== null,
    perform(store, { dx, dy }) {
      const state = store.getState();
      const target = state.selection;
      if (!target || !state.design) return;
      const at = positionOf(state.design, target);
      const eventType = target.kind === 'snippet' ? 'snippets.event' : 'stickers.event';
      state.applyChange(intentOf(this, { mergeKey: `nudge:${target.id}` }, eventType), (draft) =>
        moveInDraft(draft, { target, left: at.left + dx, top: at.top + dy }),
      );
    },
  },
  moveObject: {
    name: 'moveObject',
    label: 'Move',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, args) {
      const eventType = args.target.kind === 'snippet' ? 'snippets.event' : 'stickers.event';
      store
        .getState()
        .applyChange(intentOf(this, { mergeKey: `move:${args.target.id}` }, eventType), (draft) =>
          moveInDraft(draft, args),
        );
    },
  },
  resizeTextSnippet: {
    name: 'resizeTextSnippet',
    label: 'Resize text snippet',
    shortcuts: [],
    history: { kind: 'step', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, args) {
      store.getState().applyChange(intentOf(this), (draft) => {
        const snippet = draftSnippet(draft, args.id);
        const canvas = canvasOf(draft as DesignDocument);
        Object.assign(snippet, withFontSize(snippet, args.fontSize));
        snippet.width = clampTextWidth(args.width, args.minWidth ?? 0, canvas);
        snippet.height = null;
        moveInDraft(draft, { target: { kind: 'snippet', id: args.id }, ...args });
      });
    },
  },
  setSnippetText: {
    name: 'setSnippetText',
    label: 'Edit text',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { id, text }) {
      const state = store.getState();
      if (!state.design) return;
      const { document, changes } = setSnippetText(state.design, id, text, state.env.newId);
      const next = document.text_snippets.find((s) => s.id === id)!;
      state.applyChange(
        intentOf(this, { mergeKey: `text:${id}`, paramChanges: changes }),
        (draft) => {
          putSnippet(draft, { ...next, height: null });
          settle(draft, id, true); // docs/editor.md "Editing rules" clamps
        },
      );
      const shared = sharedParameters(document, id, changes);
      if (shared.length > 0) showTimedNotice(store, sharedParameterNotice(shared));
    },
  },
  setSnippetFontSize: {
    name: 'setSnippetFontSize',
    label: 'Font size',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { id, fontSize }) {
      store.getState().applyChange(intentOf(this, { mergeKey: `fontSize:${id}` }), (draft) => {
        const snippet = draftSnippet(draft, id);
        Object.assign(snippet, withFontSize(snippet, fontSize));
        snippet.height = null;
        settle(draft, id, true); // docs/editor.md "Editing rules" clamps
      });
    },
  },
  setSnippetFill: {
    name: 'setSnippetFill',
    label: 'Text colour',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { id, fill }) {
      store.getState().applyChange(intentOf(this, { mergeKey: `fill:${id}` }), (draft) => {
        draftSnippet(draft, id).fill = fill;
      });
    },
  },
  setParameterFallback: {
    name: 'setParameterFallback',
    label: 'Fallback value',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'snippets.event' },
    enabled: hasDesign,
    perform(store, { snippetId, paramId, value }) {
      const state = store.getState();
      if (!state.design) return;
      // Throws ParameterError 'invalid' over 255 characters (docs/editor.md "Editing rules"); the
      // field says so.
      const { document, change } = updateParameter(state.design, snippetId, paramId, {
        param_default_value: value,
      });
      const next = document.text_snippets.find((s) => s.id === snippetId)!;
      state.applyChange(
        intentOf(this, { mergeKey: `fallback:${paramId}`, paramChanges: [change] }),
        (draft) => putSnippet(draft, next),
      );
    },
  },
  ...TEXT_COMMANDS,
  ...IMAGE_COMMANDS,
  ...STICKER_COMMANDS,
  ...RULE_COMMANDS,
  ...DATA_COMMANDS,
  ...ALT_TEXT_COMMANDS,
};

/**
 * Runs a command if it is enabled and does not refuse (its `refusal`, e.g. bold of an uploaded
 * font: the spec's message is then shown for 4 s).
 * @returns true when it ran; false when it was disabled or refused.
 * @throws what the command's operation throws (ParameterError for a refused parameter value).
 */
export function runCommand<K extends CommandName>(
  store: EditorStore,
  name: K,
  ...args: CommandArgs[K] extends void ? [] : [CommandArgs[K]]
): boolean {
  return runCommandWith(store, name, args[0]);
}

/**
 * Runs a command with arguments typed by the caller's source (a shortcut declares its own,
 * keyboard.ts): the same as `runCommand`, for names known only at run time.
 */
export function runCommandWith(store: EditorStore, name: CommandName, args: unknown): boolean {
  const command = COMMANDS[name] as EditorCommand<unknown>;
  const state = store.getState();
  if (!command.enabled(state)) return false;
  const refused = command.refusal?.(state, args) ?? null;
  if (refused !== null) {
    showRefusal(store, refused);
    return false;
  }
  command.perform(store, args);
  return true;
}

/** How long a refusal's or a repeated parameter's notice stays, ms (docs/editor.md "Constants": "errors 4 s"). */
export const REFUSAL_NOTICE_MS = 4000;

/** Shows a refusal as the editor's error notice (docs/editor.md "Messages") for 4 s. */
function showRefusal(store: EditorStore, text: string): void {
  showTimedNotice(store, { tone: 'error', text });
}

/** Shows `notice` and takes it away after 4 s unless another notice replaced it meanwhile. */
function showTimedNotice(store: EditorStore, notice: EditorNotice): void {
  store.getState().showNotice(notice);
  setTimeout(() => {
    if (store.getState().notice === notice) store.getState().showNotice(null);
  }, REFUSAL_NOTICE_MS);
}

/** A snippet's label cut to 40 characters for a notice. */
const shortLabel = (label: string) => (label.length > 40 ? `${label.slice(0, 39)}…` : label);

/**
 * The repeated-parameter notice (docs/editor.md "Messages": "Parameters"): `{{first_name}} is
 * already in “Hello”: one value fills both.`, with every snippet holding a repeated name to
 * highlight.
 */
export function sharedParameterNotice(shared: readonly SharedParameter[]): EditorNotice {
  const text = shared
    .map((s) => {
      const fills =
        s.others.length > 1 ? '”: one value fills them all.' : '”: one value fills both.';
      return `{{${s.name}}} is already in “${s.others.map(shortLabel).join('”, “')}${fills}`;
    })
    .join(' ');
  return { tone: 'info', text, snippetIds: [...new Set(shared.flatMap((s) => s.snippetIds))] };
}
