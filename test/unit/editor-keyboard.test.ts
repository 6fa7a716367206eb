/**
 * The editor's keys (docs/editor.md "Commands"): one history while the snippet text field has focus
 * (its undo and redo keys run the editor's undo and redo, a typing burst undoes in one step and
 * the caret lands where the text changed), the uploaded-font rule shared by the Bold / Italic
 * buttons and their shortcuts (docs/editor.md "Editing rules", message docs/editor.md "Messages"),
 * and arrow keys left to the focused control that moves with them (a radio group, a slider) instead
 * of nudging the object.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand, runCommandWith } from '../../web/src/features/editor/commands.ts';
import {
  UPLOADED_FONT_STYLE_MESSAGE,
  faceStyleRefusal,
} from '../../web/src/features/editor/commands/text.ts';
import {
  forgetUploadedFonts,
  noteUploadedFont,
} from '../../web/src/features/editor/commands/uploadedFonts.ts';
import {
  caretAfterChange,
  historyInputType,
  historyShortcutFor,
  movesWithArrows,
  shortcutFor,
  type KeyPress,
} from '../../web/src/features/editor/keyboard.ts';
import type { EditorStore } from '../../web/src/features/editor/store/index.ts';
import { counts, openEditor, snippet } from '../support/editor.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  forgetUploadedFonts();
});

const ID = 'snippet-hello';

const press = (
  key: string,
  mods: Partial<Record<'ctrl' | 'meta' | 'shift' | 'alt', boolean>> = {},
  target?: unknown,
): KeyPress => ({
  key,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
  altKey: mods.alt ?? false,
  target: target as EventTarget | undefined,
});

/** A stand-in for a focused element: what the browser's element would report. */
const element = (tagName: string, type?: string, role?: string) =>
  ({
    tagName,
    type,
    getAttribute: (name: string) => (name === 'role' ? (role ?? null) : null),
  }) as unknown as EventTarget;

/** Presses a key the way the page does (Editor.tsx): the matched shortcut's command runs. */
function pressKey(store: EditorStore, key: KeyPress, typing = false): boolean {
  const match = shortcutFor(key, typing, false);
  return match ? runCommandWith(store, match.name, match.args) : false;
}

describe('undo and redo in the snippet text field: one history (docs/editor.md)', () => {
  it.each([
    [press('z', { ctrl: true }), false, 'undo'],
    [press('z', { meta: true }), true, 'undo'],
    [press('Z', { ctrl: true, shift: true }), false, 'redo'],
    [press('Z', { meta: true, shift: true }), true, 'redo'],
    [press('y', { ctrl: true }), false, 'redo'],
    [press('y', { ctrl: true }), true, 'redo'],
  ])('%o (mac %s) is the editor’s %s', (key, mac, name) => {
    expect(historyShortcutFor(key, mac)).toBe(name);
  });

  it.each([
    [press('z'), false],
    [press('z', { meta: true }), false],
    [press('z', { ctrl: true, alt: true }), false],
    [press('b', { ctrl: true }), false],
    [press('Backspace'), false],
  ])('%o (mac %s) stays the field’s', (key, mac) => {
    expect(historyShortcutFor(key, mac)).toBeNull();
  });

  it('takes over the browser’s own undo and redo input (Edit menu)', () => {
    expect(historyInputType('historyUndo')).toBe('undo');
    expect(historyInputType('historyRedo')).toBe('redo');
    expect(historyInputType('insertText')).toBeNull();
    expect(historyInputType('deleteContentBackward')).toBeNull();
  });

  it('a typing burst undoes in one step, a pause starts a new one, redo brings it back', () => {
    const editor = openEditor();
    const { store } = editor;
    let text = 'Hello {{first_name}}!';
    // What the field sends as the user types " and welcome" one key at a time.
    for (const character of ' and') {
      text += character;
      runCommand(store, 'setSnippetText', { id: ID, text });
      editor.wait(150);
    }
    editor.wait(1500);
    for (const character of ' welcome') {
      text += character;
      runCommand(store, 'setSnippetText', { id: ID, text });
      editor.wait(150);
    }
    expect(counts(store)).toEqual({ undo: 2, redo: 0 });
    const key = historyShortcutFor(press('z', { ctrl: true }), false)!;
    runCommand(store, key);
    expect(snippet(store, ID).text).toBe('Hello {{first_name}}! and');
    runCommand(store, key);
    expect(snippet(store, ID).text).toBe('Hello {{first_name}}!');
    runCommand(store, historyShortcutFor(press('y', { ctrl: true }), false)!);
    expect(snippet(store, ID).text).toBe('Hello {{first_name}}! and');
    expect(counts(store)).toEqual({ undo: 1, redo: 1 });
  });

  it('puts the caret at the end of what the undo or redo changed', () => {
    expect(caretAfterChange('Hello world', 'Hello ')).toBe(6); // typed text taken away
    expect(caretAfterChange('Hello ', 'Hello world')).toBe(11); // and brought back
    expect(caretAfterChange('Hi {{name}}!', 'Hi there {{name}}!')).toBe(9); // in the middle
    expect(caretAfterChange('aaa', 'aaaa')).toBe(4);
    expect(caretAfterChange('abc', 'abc')).toBe(3);
    expect(caretAfterChange('Hi {{name}}!', 'Hi !')).toBe(3); // a placeholder deleted
  });
});

describe('bold and italic of an uploaded font (spec 000 §5; message §8)', () => {
  /** The demo design with its snippet in an uploaded family, selected. */
  function withUploadedFont() {
    const editor = openEditor();
    runCommand(editor.store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Team Script' });
    runCommand(editor.store, 'select', { kind: 'snippet', id: ID });
    editor.wait(2000);
    noteUploadedFont('team script'); // what the font loader found (names compare without case)
    return editor;
  }

  it('Mod+B and Mod+I refuse with the spec’s message, as the buttons do, and change nothing', () => {
    const { store } = withUploadedFont();
    const before = store.getState().design;
    expect(pressKey(store, press('b', { ctrl: true }))).toBe(false);
    expect(store.getState().notice).toEqual({
      tone: 'error',
      text: 'This action is not supported for uploaded fonts!',
    });
    expect(pressKey(store, press('i', { ctrl: true }))).toBe(false);
    // The toolbar's buttons run the same commands.
    expect(runCommand(store, 'toggleBold')).toBe(false);
    expect(runCommand(store, 'toggleItalic')).toBe(false);
    expect(store.getState().design).toBe(before);
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    // The message goes after 4 s (docs/editor.md "Constants": "error banner 4 s").
    vi.advanceTimersByTime(3999);
    expect(store.getState().notice?.text).toBe(UPLOADED_FONT_STYLE_MESSAGE);
    vi.advanceTimersByTime(1);
    expect(store.getState().notice).toBeNull();
  });

  it('underline still works, and a style set before the font changed can be switched off', () => {
    const editor = openEditor();
    const { store } = editor;
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    expect(pressKey(store, press('b', { ctrl: true }))).toBe(true);
    expect(snippet(store, ID).fontWeight).toBe('bold');
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Team Script' });
    noteUploadedFont('Team Script');
    expect(pressKey(store, press('u', { ctrl: true }))).toBe(true);
    expect(snippet(store, ID).underline).toBe(true);
    expect(pressKey(store, press('b', { ctrl: true }))).toBe(true);
    expect(snippet(store, ID).fontWeight).toBe('normal');
    expect(pressKey(store, press('b', { ctrl: true }))).toBe(false);
    expect(store.getState().notice?.text).toBe(UPLOADED_FONT_STYLE_MESSAGE);
  });

  it('a built-in or hosted font keeps bold and italic', () => {
    const { store } = openEditor();
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    noteUploadedFont('Team Script'); // another family
    expect(pressKey(store, press('b', { ctrl: true }))).toBe(true);
    expect(pressKey(store, press('i', { meta: false, ctrl: true }))).toBe(true);
    expect(snippet(store, ID)).toMatchObject({ fontWeight: 'bold', fontStyle: 'italic' });
    expect(store.getState().notice).toBeNull();
  });

  it('the buttons show the same rule before they are pressed', () => {
    const plain = snippet(openEditor().store, ID);
    expect(faceStyleRefusal(plain, 'bold', true)).toBe(UPLOADED_FONT_STYLE_MESSAGE);
    expect(faceStyleRefusal(plain, 'italic', true)).toBe(UPLOADED_FONT_STYLE_MESSAGE);
    expect(faceStyleRefusal(plain, 'bold', false)).toBeNull();
    expect(faceStyleRefusal({ ...plain, fontWeight: 'bold' }, 'bold', true)).toBeNull();
  });
});

describe('arrow keys stay with the focused control (docs/editor.mdnudge)', () => {
  it.each([
    ['an alignment radio', element('INPUT', 'radio')],
    ['the angle slider', element('INPUT', 'range')],
    ['a select', element('SELECT')],
    ['a listbox option', element('LI', undefined, 'option')],
    ['a tab', element('BUTTON', 'button', 'tab')],
  ])('%s keeps the arrows: the object does not move', (_name, target) => {
    const { store } = openEditor();
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    const before = store.getState().design;
    expect(shortcutFor(press('ArrowLeft', {}, target), false, false)).toBeNull();
    expect(pressKey(store, press('ArrowDown', { shift: true }, target))).toBe(false);
    expect(store.getState().design).toBe(before);
    // Other shortcuts still apply there.
    expect(shortcutFor(press('Escape', {}, target), false, false)?.name).toBe('escape');
  });

  it.each([
    ['the canvas', element('DIV')],
    ['a button', element('BUTTON', 'submit')],
    ['a checkbox', element('INPUT', 'checkbox')],
    ['nothing focused', null],
  ])('on %s the arrows nudge the selected object', (_name, target) => {
    const { store } = openEditor();
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    const left = snippet(store, ID).left;
    expect(pressKey(store, press('ArrowRight', { shift: true }, target))).toBe(true);
    expect(snippet(store, ID).left).toBe(left + 10);
  });

  it('knows the controls without a DOM', () => {
    expect(movesWithArrows(undefined)).toBe(false);
    expect(movesWithArrows(element('TEXTAREA'))).toBe(false);
    expect(movesWithArrows(element('DIV', undefined, 'slider'))).toBe(true);
  });
});

describe('Escape and undo in crop mode (spec 000 §4 "Crop")', () => {
  it('Escape cancels crop mode and leaves the document as it was; then it deselects', () => {
    const editor = openEditor();
    const { store } = editor;
    runCommand(store, 'nudge', { dx: 1, dy: 0 }); // nothing selected: nothing to nudge
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    runCommand(store, 'nudge', { dx: 5, dy: 0 });
    editor.wait(2000);
    // Entering crop mode (the image toolbar's Crop) deselects and shows the rectangle.
    store.getState().deselect();
    store.getState().setCrop({ left: 20, top: 20, width: 120, height: 120 });
    const before = store.getState().design;
    // Ctrl+Z while cropping would change the canvas under the rectangle: it waits.
    expect(pressKey(store, press('z', { ctrl: true }))).toBe(false);
    expect(store.getState().design).toBe(before);
    expect(pressKey(store, press('Escape'))).toBe(true);
    expect(store.getState().crop).toBeNull();
    expect(store.getState().design).toBe(before);
    // Out of crop mode, undo works again and Escape deselects.
    expect(pressKey(store, press('z', { ctrl: true }))).toBe(true);
    expect(snippet(store, ID).left).toBe(50);
    runCommand(store, 'select', { kind: 'snippet', id: ID });
    expect(pressKey(store, press('Escape'))).toBe(true);
    expect(store.getState().selection).toBeNull();
    expect(pressKey(store, press('Escape'))).toBe(false);
  });
});
