/**
 * The editor's store, commands and history (docs/editor.md
 * "Tests"; docs/editor.md "Commands": "Editor changes", "Parameter undo", "Linked font sizes",
 * "Search/add"; docs/editor.md "Editing rules" canvas clamps; docs/editor.md "Constants" snippet
 * defaults): exact undo and redo counts, a drag undone in one step, selection never clearing redo,
 * the history cap, and the parameter change records.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ParameterError } from '#shared/parameters.ts';
import { PARAMETER_MESSAGES } from '#shared/parameter-rules.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import {
  HISTORY_LIMIT,
  undoneParameterChanges,
} from '../../web/src/features/editor/store/history.ts';
import { counts, openEditor, snippet } from '../support/editor.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Adds a snippet and lets the 1 s cooldown pass; returns its id. */
function addSnippet(editor: ReturnType<typeof openEditor>): string {
  expect(runCommand(editor.store, 'addTextSnippet')).toBe(true);
  vi.advanceTimersByTime(1000);
  editor.wait(1000);
  return editor.store.getState().design!.text_snippets.at(-1)!.id;
}

describe('adding a text snippet (spec 000 §9, §4)', () => {
  it('adds "Snippet 1", "Snippet 2" at 32 px (minimum 16), selected, inside the canvas', () => {
    const editor = openEditor();
    const first = addSnippet(editor);
    const second = addSnippet(editor);
    const a = snippet(editor.store, first);
    const b = snippet(editor.store, second);
    expect([a.text, b.text]).toEqual(['Snippet 1', 'Snippet 2']);
    expect(a.fontSize).toBe(32);
    expect(a.minFontSize).toBe(16);
    // Legible on any photo: bold white sans-serif with a dark outline.
    expect(a).toMatchObject({
      fontFamily: 'Noto Sans',
      fontWeight: 'bold',
      fill: '#ffffff',
      stroke: '#1f2937',
      strokeWidth: 2,
    });
    expect(a.linked).toBe(true);
    expect(editor.store.getState().selection).toEqual({ kind: 'snippet', id: second });
    for (const s of [a, b]) {
      expect(s.left).toBeGreaterThanOrEqual(5);
      expect(s.left + s.width).toBeLessThanOrEqual(995);
    }
    expect(b.top).toBeGreaterThan(a.top);
    // Each lands clear of the others: no two boxes overlap.
    const boxes = editor.store.getState().design!.text_snippets;
    for (const [i, s] of boxes.entries())
      for (const t of boxes.slice(i + 1))
        expect(
          s.top + (s.height ?? 0) <= t.top ||
            t.top + (t.height ?? 0) <= s.top ||
            s.left + s.width <= t.left ||
            t.left + t.width <= s.left,
          `${s.text} / ${t.text}`,
        ).toBe(true);
  });

  it('is disabled for 1 s after use', () => {
    const editor = openEditor();
    expect(runCommand(editor.store, 'addTextSnippet')).toBe(true);
    expect(runCommand(editor.store, 'addTextSnippet')).toBe(false);
    vi.advanceTimersByTime(999);
    expect(runCommand(editor.store, 'addTextSnippet')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(runCommand(editor.store, 'addTextSnippet')).toBe(true);
    expect(editor.store.getState().design!.text_snippets).toHaveLength(3);
  });

  it('takes the first free number', () => {
    const editor = openEditor();
    const id = addSnippet(editor);
    runCommand(editor.store, 'setSnippetText', { id, text: 'Snippet 2' });
    editor.wait(2000);
    expect(snippet(editor.store, addSnippet(editor)).text).toBe('Snippet 1');
    expect(snippet(editor.store, addSnippet(editor)).text).toBe('Snippet 3');
  });
});

describe('undo and redo counts (spec 000 §4)', () => {
  it('counts one entry per change, moves entries between the lists, restores each state', () => {
    const editor = openEditor();
    const { store } = editor;
    expect(counts(store)).toEqual({ undo: 0, redo: 0 });
    const ids = [addSnippet(editor), addSnippet(editor), addSnippet(editor)];
    expect(counts(store)).toEqual({ undo: 3, redo: 0 });

    expect(runCommand(store, 'undo')).toBe(true);
    expect(runCommand(store, 'undo')).toBe(true);
    expect(counts(store)).toEqual({ undo: 1, redo: 2 });
    expect(store.getState().design!.text_snippets.map((s) => s.id)).toEqual([
      'snippet-hello',
      ids[0],
    ]);

    expect(runCommand(store, 'redo')).toBe(true);
    expect(counts(store)).toEqual({ undo: 2, redo: 1 });
    expect(store.getState().design!.text_snippets.map((s) => s.id)).toEqual([
      'snippet-hello',
      ids[0],
      ids[1],
    ]);

    runCommand(store, 'undo');
    runCommand(store, 'undo');
    expect(counts(store)).toEqual({ undo: 0, redo: 3 });
    expect(runCommand(store, 'undo')).toBe(false);
    expect(store.getState().design!.text_snippets).toHaveLength(1);
    runCommand(store, 'redo');
    runCommand(store, 'redo');
    runCommand(store, 'redo');
    expect(runCommand(store, 'redo')).toBe(false);
    expect(store.getState().design!.text_snippets.map((s) => s.text)).toEqual([
      'Hello {{first_name}}!',
      'Snippet 1',
      'Snippet 2',
      'Snippet 3',
    ]);
  });

  it('undoes a whole drag (many moves in one gesture) in one step', () => {
    const editor = openEditor();
    const { store } = editor;
    const target = { kind: 'snippet', id: 'snippet-hello' } as const;
    const before = snippet(store, 'snippet-hello');
    store.getState().beginGesture();
    for (let i = 1; i <= 40; i++) {
      editor.wait(16);
      runCommand(store, 'moveObject', { target, left: 50 - i, top: 327 - 3 * i });
    }
    store.getState().endGesture();
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 10, top: 207 });

    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello')).toEqual(before);
    expect(counts(store)).toEqual({ undo: 0, redo: 1 });
    runCommand(store, 'redo');
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 10, top: 207 });
  });

  it('makes two drags two steps, even close together', () => {
    const { store } = openEditor();
    const target = { kind: 'snippet', id: 'snippet-hello' } as const;
    for (const left of [20, 40]) {
      store.getState().beginGesture();
      runCommand(store, 'moveObject', { target, left: left - 1, top: 300 });
      runCommand(store, 'moveObject', { target, left, top: 300 });
      store.getState().endGesture();
    }
    expect(counts(store).undo).toBe(2);
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello').left).toBe(20);
  });

  it('never clears redo on selection or view changes; a new change clears it', () => {
    const editor = openEditor();
    const { store } = editor;
    const id = addSnippet(editor);
    runCommand(store, 'undo');
    expect(counts(store)).toEqual({ undo: 0, redo: 1 });

    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    runCommand(store, 'deselect');
    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    store.getState().togglePanel('stickers');
    runCommand(store, 'requestDelete');
    store.getState().closeConfirm();
    store.getState().beginGesture();
    store.getState().endGesture();
    expect(counts(store)).toEqual({ undo: 0, redo: 1 });

    runCommand(store, 'redo');
    expect(snippet(store, id).text).toBe('Snippet 1');
    runCommand(store, 'undo');
    runCommand(store, 'nudge', { dx: 1, dy: 0 });
    expect(counts(store)).toEqual({ undo: 1, redo: 0 });
  });

  it('does not record a change that changes nothing (and keeps redo)', () => {
    const editor = openEditor();
    const { store } = editor;
    addSnippet(editor);
    runCommand(store, 'undo');
    runCommand(store, 'setSnippetFill', { id: 'snippet-hello', fill: 'black' });
    expect(counts(store)).toEqual({ undo: 0, redo: 1 });
  });

  it(`keeps the newest ${HISTORY_LIMIT} entries`, () => {
    const editor = openEditor();
    const { store } = editor;
    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) {
      editor.wait(1500); // apart, so the nudges do not merge
      runCommand(store, 'nudge', { dx: 0, dy: 1 });
    }
    expect(snippet(store, 'snippet-hello').top).toBe(327 + HISTORY_LIMIT + 5);
    expect(counts(store).undo).toBe(HISTORY_LIMIT);
    while (runCommand(store, 'undo'));
    expect(snippet(store, 'snippet-hello').top).toBe(332);
    expect(counts(store)).toEqual({ undo: 0, redo: HISTORY_LIMIT });
  });

  it('clears history and selection when a design is loaded (spec 000 §4)', () => {
    const editor = openEditor();
    const { store } = editor;
    addSnippet(editor);
    addSnippet(editor);
    runCommand(store, 'undo');
    const { design, meta } = store.getState();
    store.getState().loadDesign({ meta: meta!, document: design! });
    expect(counts(store)).toEqual({ undo: 0, redo: 0 });
    expect(store.getState().selection).toBeNull();
  });
});

describe('typing and nudging merge into one step', () => {
  it('merges keystrokes less than 1 s apart; a pause starts a new step', () => {
    const editor = openEditor();
    const { store } = editor;
    const id = addSnippet(editor);
    for (const text of ['H', 'Hi', 'Hi ', 'Hi t']) {
      editor.wait(200);
      runCommand(store, 'setSnippetText', { id, text });
    }
    editor.wait(1500);
    runCommand(store, 'setSnippetText', { id, text: 'Hi th' });
    expect(counts(store).undo).toBe(3); // add, "H…Hi t", "Hi th"
    runCommand(store, 'undo');
    expect(snippet(store, id).text).toBe('Hi t');
    runCommand(store, 'undo');
    expect(snippet(store, id).text).toBe('Snippet 1');
  });

  it('does not merge typing into the step before an undo', () => {
    const editor = openEditor();
    const { store } = editor;
    const id = addSnippet(editor);
    runCommand(store, 'setSnippetText', { id, text: 'A' });
    editor.wait(1500);
    runCommand(store, 'setSnippetText', { id, text: 'AB' });
    runCommand(store, 'undo');
    runCommand(store, 'setSnippetText', { id, text: 'AC' });
    expect(counts(store)).toEqual({ undo: 3, redo: 0 });
    runCommand(store, 'undo');
    expect(snippet(store, id).text).toBe('A');
  });

  it('nudges 1 px, 10 px with Shift, merges a held key, stops 5 px from the edge (spec 000 §5)', () => {
    const editor = openEditor();
    const { store } = editor;
    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    runCommand(store, 'nudge', { dx: 1, dy: 0 });
    runCommand(store, 'nudge', { dx: 0, dy: 10 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 51, top: 337 });
    for (let i = 0; i < 20; i++) {
      editor.wait(30);
      runCommand(store, 'nudge', { dx: -10, dy: 0 });
    }
    expect(snippet(store, 'snippet-hello').left).toBe(5);
    expect(counts(store).undo).toBe(1);
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 50, top: 327 });
  });

  it('does nothing without a selection', () => {
    const { store } = openEditor();
    expect(runCommand(store, 'nudge', { dx: 1, dy: 0 })).toBe(false);
    expect(counts(store).undo).toBe(0);
  });
});

describe('canvas clamps (spec 000 §5)', () => {
  it('keeps a moved snippet 5 px inside every edge', () => {
    const { store } = openEditor();
    const target = { kind: 'snippet', id: 'snippet-hello' } as const;
    runCommand(store, 'moveObject', { target, left: -300, top: -40, height: 90 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 5, top: 5, height: 90 });
    runCommand(store, 'moveObject', { target, left: 400, top: 700, height: 90 });
    // 1000 wide canvas, 900 wide box: left at most 95; 750 high, 90 high box: top at most 655.
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 95, top: 655 });
  });

  it('re-centres a snippet moved entirely outside', () => {
    const { store } = openEditor();
    const target = { kind: 'snippet', id: 'snippet-hello' } as const;
    runCommand(store, 'moveObject', { target, left: 3000, top: 3000, height: 90 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ left: 50, top: 330 });
  });

  it('resizes from the canvas: font size at most 80, width at most the canvas less 10 px', () => {
    const { store } = openEditor();
    runCommand(store, 'resizeTextSnippet', {
      id: 'snippet-hello',
      left: 0,
      top: 20,
      width: 1400,
      fontSize: 120,
    });
    expect(snippet(store, 'snippet-hello')).toMatchObject({
      fontSize: 80,
      minFontSize: 40,
      width: 990,
      left: 5,
      top: 20,
    });
  });
});

describe('linked font sizes (spec 000 §4)', () => {
  it('while linked, the minimum is half the size; unlinked, it only goes down', () => {
    const editor = openEditor();
    const { store } = editor;
    runCommand(store, 'setSnippetFontSize', { id: 'snippet-hello', fontSize: 45 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ fontSize: 45, minFontSize: 23 });
    store.getState().applyChange({ eventType: 'snippets.event', label: 'Unlink' }, (d) => {
      d.text_snippets[0]!.linked = false;
    });
    editor.wait(2000);
    runCommand(store, 'setSnippetFontSize', { id: 'snippet-hello', fontSize: 70 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ fontSize: 70, minFontSize: 23 });
    editor.wait(2000);
    runCommand(store, 'setSnippetFontSize', { id: 'snippet-hello', fontSize: 12 });
    expect(snippet(store, 'snippet-hello')).toMatchObject({ fontSize: 12, minFontSize: 12 });
    editor.wait(2000);
    runCommand(store, 'setSnippetFontSize', { id: 'snippet-hello', fontSize: 500 });
    expect(snippet(store, 'snippet-hello').fontSize).toBe(80);
  });
});

describe('parameter change records (spec 000 §3, §4 "Parameter undo")', () => {
  it('typing {{first_name}} adds a parameter sharing the design’s fallback; undo removes it, redo re-adds it', () => {
    const editor = openEditor();
    const { store } = editor;
    const id = addSnippet(editor);
    runCommand(store, 'setSnippetText', { id, text: 'Hi {{first_name}' });
    expect(snippet(store, id).parameters).toEqual([]);
    editor.wait(100);
    runCommand(store, 'setSnippetText', { id, text: 'Hi {{first_name}}' });
    const [parameter] = snippet(store, id).parameters;
    expect(parameter).toMatchObject({
      param_name: 'first_name',
      param_default_value: 'there',
      text_snippet_id: id,
    });
    const entry = store.getState().history.undo.at(-1)!;
    expect(entry.eventType).toBe('snippets.event');
    expect(entry.paramChanges).toEqual([
      { textSnippetId: id, paramId: parameter!.id, action: 'added' },
    ]);
    expect(undoneParameterChanges(entry)).toEqual([
      { textSnippetId: id, paramId: parameter!.id, action: 'removed' },
    ]);

    runCommand(store, 'undo');
    expect(snippet(store, id)).toMatchObject({ text: 'Snippet 1', parameters: [] });
    runCommand(store, 'redo');
    expect(snippet(store, id).parameters).toEqual([parameter]);
  });

  it('a new name gets a parameter with a blank fallback (stored as one space)', () => {
    const editor = openEditor();
    const id = addSnippet(editor);
    runCommand(editor.store, 'setSnippetText', { id, text: 'Dear {{company}}' });
    expect(snippet(editor.store, id).parameters).toMatchObject([
      { param_name: 'company', param_default_value: ' ' },
    ]);
  });

  it('editing the name between the braces renames (updated), keeping id and fallback', () => {
    const { store } = openEditor();
    runCommand(store, 'setSnippetText', { id: 'snippet-hello', text: 'Hello {{first}}!' });
    const entry = store.getState().history.undo.at(-1)!;
    expect(entry.paramChanges).toEqual([
      { textSnippetId: 'snippet-hello', paramId: 'param-first-name', action: 'updated' },
    ]);
    expect(snippet(store, 'snippet-hello').parameters).toMatchObject([
      { id: 'param-first-name', param_name: 'first', param_default_value: 'there' },
    ]);
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello').parameters).toMatchObject([
      { id: 'param-first-name', param_name: 'first_name', param_default_value: 'there' },
    ]);
  });

  it('deleting the placeholder removes the parameter (removed); undo re-adds it as it was', () => {
    const { store } = openEditor();
    const before = snippet(store, 'snippet-hello');
    runCommand(store, 'setSnippetText', { id: 'snippet-hello', text: 'Hello!' });
    expect(snippet(store, 'snippet-hello').parameters).toEqual([]);
    const entry = store.getState().history.undo.at(-1)!;
    expect(entry.paramChanges).toEqual([
      { textSnippetId: 'snippet-hello', paramId: 'param-first-name', action: 'removed' },
    ]);
    expect(undoneParameterChanges(entry)[0]!.action).toBe('added');
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello')).toEqual(before);
    runCommand(store, 'redo');
    expect(snippet(store, 'snippet-hello').parameters).toEqual([]);
  });

  it('a fallback change is "updated"; undo restores the previous value', () => {
    const editor = openEditor();
    const { store } = editor;
    const args = { snippetId: 'snippet-hello', paramId: 'param-first-name' };
    runCommand(store, 'setParameterFallback', { ...args, value: 'friend' });
    editor.wait(100);
    runCommand(store, 'setParameterFallback', { ...args, value: 'friends' });
    expect(counts(store).undo).toBe(1);
    expect(store.getState().history.undo[0]!.paramChanges.map((c) => c.action)).toEqual([
      'updated',
      'updated',
    ]);
    expect(snippet(store, 'snippet-hello').parameters[0]!.param_default_value).toBe('friends');
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello').parameters[0]!.param_default_value).toBe('there');
  });

  it('refuses a fallback over 255 characters with the spec’s message, recording nothing', () => {
    const { store } = openEditor();
    const value = 'x'.repeat(256);
    const refused = () =>
      runCommand(store, 'setParameterFallback', {
        snippetId: 'snippet-hello',
        paramId: 'param-first-name',
        value,
      });
    expect(refused).toThrow(ParameterError);
    expect(refused).toThrow(PARAMETER_MESSAGES.valueTooLong);
    expect(counts(store).undo).toBe(0);
  });

  it('deleting a snippet records its parameters as removed; undo puts it back in place', () => {
    const editor = openEditor();
    const { store } = editor;
    addSnippet(editor);
    const before = store.getState().design!.text_snippets;
    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    runCommand(store, 'requestDelete');
    expect(store.getState().confirm).toEqual({ kind: 'deleteSnippet', id: 'snippet-hello' });
    runCommand(store, 'deleteTextSnippet', { id: 'snippet-hello' });
    expect(store.getState().design!.text_snippets.map((s) => s.id)).not.toContain('snippet-hello');
    expect(store.getState().selection).toBeNull();
    expect(store.getState().history.undo.at(-1)!.paramChanges).toEqual([
      { textSnippetId: 'snippet-hello', paramId: 'param-first-name', action: 'removed' },
    ]);
    runCommand(store, 'undo');
    expect(store.getState().design!.text_snippets).toEqual(before);
  });
});
