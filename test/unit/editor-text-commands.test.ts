/**
 * The text commands of the editor (docs/editor.md "Text tools"; docs/editor.md "Architecture" text
 * toolbar, docs/editor.md "Commands" "Linked font sizes", "Text transform", "Parameter undo",
 * "Selection overlay", "Dragging a parameter", docs/editor.md "Editing rules" clamps and clone
 * naming): what each command changes, and its exact undo and redo counts (every command here is one
 * undo step, or merges as its history intent says).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PARAMETER_MESSAGES } from '#shared/parameter-rules.ts';
import { ParameterError } from '#shared/parameters.ts';
import { runCommand, type CommandArgs } from '../../web/src/features/editor/commands.ts';
import { counts, openEditor, snippet } from '../support/editor.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const ID = 'snippet-hello';
const PARAM = 'param-first-name';

/** An editor on the demo design with its snippet selected. */
function selected() {
  const editor = openEditor();
  runCommand(editor.store, 'select', { kind: 'snippet', id: ID });
  return editor;
}

/** Runs a command, checks it made one undo entry, that undo restores and redo re-applies it. */
function oneStep<K extends keyof CommandArgs>(
  editor: ReturnType<typeof openEditor>,
  name: K,
  ...args: CommandArgs[K] extends void ? [] : [CommandArgs[K]]
) {
  const { store } = editor;
  const before = store.getState().design;
  const undoBefore = counts(store).undo;
  expect(runCommand(store, name, ...args)).toBe(true);
  const after = store.getState().design;
  expect(after).not.toEqual(before);
  expect(counts(store)).toEqual({ undo: undoBefore + 1, redo: 0 });
  runCommand(store, 'undo');
  expect(store.getState().design).toEqual(before);
  expect(counts(store)).toEqual({ undo: undoBefore, redo: 1 });
  runCommand(store, 'redo');
  expect(store.getState().design).toEqual(after);
  expect(counts(store)).toEqual({ undo: undoBefore + 1, redo: 0 });
  editor.wait(2000);
  return snippet(store, ID);
}

describe('style commands: one undo step each (spec 000 §2)', () => {
  it('bold, italic and underline toggle the selected snippet', () => {
    const editor = selected();
    expect(oneStep(editor, 'toggleBold').fontWeight).toBe('bold');
    expect(oneStep(editor, 'toggleItalic').fontStyle).toBe('italic');
    expect(oneStep(editor, 'toggleUnderline').underline).toBe(true);
    expect(oneStep(editor, 'toggleBold').fontWeight).toBe('normal');
    expect(counts(editor.store)).toEqual({ undo: 4, redo: 0 });
  });

  it('need a selected text snippet', () => {
    const editor = openEditor();
    expect(runCommand(editor.store, 'toggleBold')).toBe(false);
    expect(counts(editor.store)).toEqual({ undo: 0, redo: 0 });
  });

  it('font family, alignment, angle, outline colour and width', () => {
    const editor = selected();
    expect(
      oneStep(editor, 'setSnippetFontFamily', { id: ID, fontFamily: 'Permanent Marker' })
        .fontFamily,
    ).toBe('Permanent Marker');
    expect(oneStep(editor, 'setSnippetTextAlign', { id: ID, textAlign: 'right' }).textAlign).toBe(
      'right',
    );
    expect(oneStep(editor, 'setSnippetAngle', { id: ID, angle: 400 }).angle).toBe(360);
    // Widening a missing outline gives it the default white (docs/editor.md "Constants").
    expect(oneStep(editor, 'setSnippetStrokeWidth', { id: ID, strokeWidth: 3 })).toMatchObject({
      stroke: '#ffffff',
      strokeWidth: 3,
    });
    expect(oneStep(editor, 'setSnippetStroke', { id: ID, stroke: '#ff0000' }).stroke).toBe(
      '#ff0000',
    );
    expect(oneStep(editor, 'setSnippetStrokeWidth', { id: ID, strokeWidth: 9 }).strokeWidth).toBe(
      5,
    );
    expect(counts(editor.store)).toEqual({ undo: 6, redo: 0 });
  });

  it('a slider dragged through many angles is one undo step', () => {
    const editor = selected();
    const { store } = editor;
    store.getState().beginGesture();
    for (let angle = 0; angle <= 90; angle += 5) {
      runCommand(store, 'setSnippetAngle', { id: ID, angle });
      editor.wait(1500); // slower than the merge window: the gesture still holds them together
    }
    store.getState().endGesture();
    expect(snippet(store, ID).angle).toBe(90);
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    runCommand(store, 'undo');
    expect(snippet(store, ID).angle).toBe(0);
  });

  it('typing angles quickly merges, a pause starts a new step', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'setSnippetAngle', { id: ID, angle: 1 });
    editor.wait(300);
    runCommand(store, 'setSnippetAngle', { id: ID, angle: 12 });
    expect(counts(store).undo).toBe(1);
    editor.wait(1500);
    runCommand(store, 'setSnippetAngle', { id: ID, angle: 120 });
    expect(counts(store).undo).toBe(2);
  });
});

describe('canvas clamps on every change (spec 000 §5)', () => {
  it('a text that grows past the bottom edge, or a larger font, pulls the snippet back inside', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'moveObject', { target: { kind: 'snippet', id: ID }, left: 50, top: 700 });
    editor.wait(2000);
    expect(snippet(store, ID).top).toBe(649); // 750 - 5 - 96 (one line at 64 px)
    runCommand(store, 'setSnippetText', { id: ID, text: 'One\nTwo\n{{first_name}}' });
    expect(snippet(store, ID).top).toBe(457); // three lines: 750 - 5 - 288
    editor.wait(2000);
    runCommand(store, 'setSnippetText', { id: ID, text: 'One' });
    editor.wait(2000);
    runCommand(store, 'setSnippetFontSize', { id: ID, fontSize: 80 });
    expect(snippet(store, ID).top).toBe(457); // 120 px high still fits from 457
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Lobster' });
    expect(snippet(store, ID).left + snippet(store, ID).width).toBeLessThanOrEqual(995);
  });
});

describe('resizing (spec 000 §5 "Text width cannot shrink below the widest line")', () => {
  it('keeps the box at least as wide as the widest word the canvas measured', () => {
    const editor = selected();
    const resize = (width: number, minWidth?: number) =>
      runCommand(editor.store, 'resizeTextSnippet', {
        id: ID,
        left: 100,
        top: 300,
        width,
        fontSize: 64,
        ...(minWidth === undefined ? {} : { minWidth }),
      });
    resize(120, 310);
    expect(snippet(editor.store, ID).width).toBe(310);
    editor.wait(2000);
    resize(400.4, 310);
    expect(snippet(editor.store, ID).width).toBe(400);
    editor.wait(2000);
    resize(5000);
    expect(snippet(editor.store, ID).width).toBe(990);
    expect(counts(editor.store)).toEqual({ undo: 3, redo: 0 });
  });
});

describe('linked minimum size (spec 000 §4)', () => {
  it('unlinking keeps the minimum; linking sets half; an unlinked minimum stays under the size', () => {
    const editor = selected();
    expect(snippet(editor.store, ID)).toMatchObject({ fontSize: 64, minFontSize: 32 });
    expect(oneStep(editor, 'setSnippetLinked', { id: ID, linked: false })).toMatchObject({
      linked: false,
      minFontSize: 32,
    });
    expect(oneStep(editor, 'setSnippetMinFontSize', { id: ID, minFontSize: 70 }).minFontSize).toBe(
      64,
    );
    runCommand(editor.store, 'setSnippetFontSize', { id: ID, fontSize: 50 });
    expect(snippet(editor.store, ID)).toMatchObject({ fontSize: 50, minFontSize: 50 });
    editor.wait(2000);
    expect(oneStep(editor, 'setSnippetLinked', { id: ID, linked: true })).toMatchObject({
      linked: true,
      minFontSize: 25,
    });
    runCommand(editor.store, 'setSnippetFontSize', { id: ID, fontSize: 31 });
    expect(snippet(editor.store, ID)).toMatchObject({ fontSize: 31, minFontSize: 16 });
  });
});

describe('clone and wrap (spec 000 §4 "Selection overlay", §5)', () => {
  it('clones with renamed parameters, a "Copy of - " title, 20 px away, selected; one step', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'cloneTextSnippet', { id: ID });
    const [original, copy] = store.getState().design!.text_snippets;
    expect(copy).toMatchObject({
      text: 'Hello {{first_name_copy1}}!',
      left: original!.left + 20,
      top: original!.top + 20,
      display_info: { title: 'Copy of - Hello {{first_name}}!' },
    });
    expect(copy!.id).not.toBe(ID);
    expect(copy!.parameters).toEqual([
      expect.objectContaining({
        param_name: 'first_name_copy1',
        param_default_value: 'there',
        text_snippet_id: copy!.id,
      }),
    ]);
    expect(copy!.parameters[0]!.id).not.toBe(PARAM);
    expect(store.getState().selection).toEqual({ kind: 'snippet', id: copy!.id });
    expect(store.getState().history.undo.at(-1)!.paramChanges).toEqual([
      { textSnippetId: copy!.id, paramId: copy!.parameters[0]!.id, action: 'added' },
    ]);
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    runCommand(store, 'undo');
    expect(store.getState().design!.text_snippets).toHaveLength(1);
    expect(store.getState().selection).toBeNull();
  });

  it('a clone of a clone counts on, and stays inside the canvas', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'cloneTextSnippet', { id: ID });
    editor.wait(10);
    runCommand(store, 'cloneTextSnippet', { id: ID });
    const names = store
      .getState()
      .design!.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name));
    expect(names.sort()).toEqual(['first_name', 'first_name_copy1', 'first_name_copy2']);
    for (const s of store.getState().design!.text_snippets)
      expect(s.left + s.width).toBeLessThanOrEqual(995);
  });

  it('wrap off widens the box to the canvas; wrap on gives the old width back', () => {
    const editor = selected();
    runCommand(editor.store, 'resizeTextSnippet', {
      id: ID,
      left: 100,
      top: 300,
      width: 400,
      fontSize: 64,
    });
    editor.wait(2000);
    expect(oneStep(editor, 'toggleTextWrap', { id: ID })).toMatchObject({
      textWrap: false,
      width: 990,
      left: 5,
    });
    expect(oneStep(editor, 'toggleTextWrap', { id: ID })).toMatchObject({
      textWrap: true,
      width: 400,
    });
  });
});

describe('parameters (spec 000 §4 "Adding a parameter", "Text transform", "Parameter undo")', () => {
  it('adds "param", then "param1", appended to the text, one step each', () => {
    const editor = selected();
    const s1 = oneStep(editor, 'addParameter', { id: ID });
    expect(s1.text).toBe('Hello {{first_name}}! {{param}}');
    const s2 = oneStep(editor, 'addParameter', { id: ID });
    expect(s2.parameters.map((p) => p.param_name)).toEqual(['first_name', 'param', 'param1']);
    expect(s2.parameters[2]!.param_default_value).toBe(' ');
  });

  it('renames in the text; refuses a taken or digits-only name with the spec’s message', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'addParameter', { id: ID });
    editor.wait(2000);
    const param = snippet(store, ID).parameters[1]!;
    const rename = (name: string) =>
      runCommand(store, 'renameParameter', { snippetId: ID, paramId: param.id, name });
    expect(() => rename('first_name')).toThrow(ParameterError);
    expect(() => rename('first_name')).toThrow(PARAMETER_MESSAGES.nameTaken);
    expect(() => rename('123')).toThrow(PARAMETER_MESSAGES.nameOnlyDigits);
    expect(() => rename('!!')).toThrow(PARAMETER_MESSAGES.nameEmpty);
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    // Typing a name letter by letter is one step (merge per parameter).
    rename('c');
    editor.wait(200);
    rename('ci');
    editor.wait(200);
    rename('city');
    expect(snippet(store, ID).text).toBe('Hello {{first_name}}! {{city}}');
    expect(counts(store)).toEqual({ undo: 2, redo: 0 });
    runCommand(store, 'undo');
    expect(snippet(store, ID).text).toBe('Hello {{first_name}}! {{param}}');
  });

  it('switches a text transform on with an option, and off clears key and name', () => {
    const editor = selected();
    const on = oneStep(editor, 'setParameterTextTransform', {
      snippetId: ID,
      paramId: PARAM,
      formatOptionKey: 'allCaps',
    });
    expect(on.parameters[0]!.text_transform).toEqual({
      checkFormating: true,
      formatOptionKey: 'allCaps',
      formatOptionName: 'All Caps',
    });
    expect(editor.store.getState().history.undo.at(-1)!.paramChanges).toEqual([
      { textSnippetId: ID, paramId: PARAM, action: 'updated' },
    ]);
    const off = oneStep(editor, 'setParameterTextTransform', {
      snippetId: ID,
      paramId: PARAM,
      checkFormating: false,
    });
    expect(off.parameters[0]!.text_transform).toEqual({
      checkFormating: false,
      formatOptionKey: null,
      formatOptionName: null,
    });
  });

  it('removes a parameter with its placeholder; undo re-adds it with its fallback', () => {
    const editor = selected();
    const removed = oneStep(editor, 'removeParameter', { snippetId: ID, paramId: PARAM });
    expect(removed.text).toBe('Hello!');
    expect(removed.parameters).toEqual([]);
    runCommand(editor.store, 'undo');
    expect(snippet(editor.store, ID).parameters[0]).toMatchObject({
      id: PARAM,
      param_default_value: 'there',
    });
  });
});

describe('placeholders as whole units (spec 000 §5, §4 "Parameter undo", "Dragging a parameter")', () => {
  it('deleting the placeholder removes the parameter in one step; undo brings both back', () => {
    const editor = selected();
    const { store } = editor;
    const after = oneStep(editor, 'deletePlaceholder', { id: ID, start: 6 });
    expect(after.text).toBe('Hello !');
    expect(after.parameters).toEqual([]);
    expect(store.getState().history.undo.at(-1)!.paramChanges).toEqual([
      { textSnippetId: ID, paramId: PARAM, action: 'removed' },
    ]);
    runCommand(store, 'undo');
    expect(snippet(store, ID)).toMatchObject({
      text: 'Hello {{first_name}}!',
      parameters: [{ id: PARAM, param_default_value: 'there' }],
    });
  });

  it('deleting one of two placeholders of a name keeps the parameter', () => {
    const editor = selected();
    const { store } = editor;
    runCommand(store, 'setSnippetText', { id: ID, text: '{{first_name}} and {{first_name}}' });
    editor.wait(2000);
    runCommand(store, 'deletePlaceholder', { id: ID, start: 0 });
    expect(snippet(store, ID)).toMatchObject({
      text: ' and {{first_name}}',
      parameters: [{ id: PARAM }],
    });
    expect(store.getState().history.undo.at(-1)!.paramChanges).toEqual([]);
  });

  it('refuses an offset where no placeholder starts (a stale edit changes nothing)', () => {
    const editor = selected();
    expect(() => runCommand(editor.store, 'deletePlaceholder', { id: ID, start: 2 })).toThrow();
    expect(counts(editor.store)).toEqual({ undo: 0, redo: 0 });
  });

  it('moves a placeholder by drop offset or one word, keeping its parameter', () => {
    const editor = selected();
    const dropped = oneStep(editor, 'moveParameterPlaceholder', { id: ID, start: 6, to: 0 });
    expect(dropped.text).toBe('{{first_name}}Hello !');
    expect(dropped.parameters.map((p) => p.id)).toEqual([PARAM]);
    const shifted = oneStep(editor, 'moveParameterPlaceholder', { id: ID, start: 0, to: 'right' });
    expect(shifted.text).toBe('Hello{{first_name}} !');
    expect(editor.store.getState().history.undo.at(-1)!.paramChanges).toEqual([]);
  });
});
