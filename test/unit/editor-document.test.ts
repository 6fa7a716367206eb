/**
 * The editor's pure document rules: the title field (docs/editor.md "Architecture", docs/editor.md
 * "Editing rules": "Design title"), the default snippet text (docs/editor.md "Constants"), the
 * clamps (docs/editor.md "Editing rules"), the placeholders typed in a snippet's text, the 409
 * merge, and the keyboard shortcuts (docs/editor.md "Commands").
 */
import { describe, expect, it } from 'vitest';
import { restoreDesign, type DesignDocument } from '#shared/design.ts';
import { mergeDesigns } from '../../web/src/features/editor/document/merge.ts';
import { setSnippetText } from '../../web/src/features/editor/document/placeholders.ts';
import { clampBox, nextSnippetText } from '../../web/src/features/editor/document/snippets.ts';
import { TITLE_TOO_LONG, titleEdit } from '../../web/src/features/editor/document/title.ts';
import { shortcutFor, shortcutLabel } from '../../web/src/features/editor/keyboard.ts';
import { demoDocument } from '../support/editor.ts';

describe('the title field (spec 000 §5)', () => {
  it.each([
    ['Autumn offer', { kind: 'save', title: 'Autumn offer' }],
    ['  Autumn offer  ', { kind: 'save', title: 'Autumn offer' }],
    ['Welcome', { kind: 'unchanged' }],
    [' Welcome ', { kind: 'unchanged' }],
    ['', { kind: 'revert' }],
    ['   ', { kind: 'revert' }],
    ['x'.repeat(255), { kind: 'save', title: 'x'.repeat(255) }],
    ['x'.repeat(256), { kind: 'invalid', message: TITLE_TOO_LONG }],
  ])('%j → %o', (typed, expected) => {
    expect(titleEdit('Welcome', typed)).toEqual(expected);
  });

  it('uses the spec’s message word for word', () => {
    expect(TITLE_TOO_LONG).toBe('The title may not be greater than 255 characters');
  });
});

describe('default snippet text (spec 000 §9)', () => {
  it('numbers "Snippet" with the first free number, whatever the case', () => {
    const doc = demoDocument();
    expect(nextSnippetText(doc)).toBe('Snippet 1');
    const base = doc.text_snippets[0]!;
    doc.text_snippets.push(
      { ...base, id: 'a', text: 'snippet 1' },
      { ...base, id: 'b', text: 'Snippet 3' },
    );
    expect(nextSnippetText(doc)).toBe('Snippet 2');
  });
});

describe('clamps (spec 000 §5)', () => {
  const canvas = { width: 600, height: 400 };
  it.each([
    [
      { left: 100, top: 100 },
      { left: 100, top: 100 },
    ],
    [
      { left: 0, top: 0 },
      { left: 5, top: 5 },
    ],
    [
      { left: 550, top: 380 },
      { left: 495, top: 345 },
    ],
    [
      { left: -50, top: 200 },
      { left: 5, top: 200 },
    ],
    // Entirely outside: re-centred.
    [
      { left: 900, top: 50 },
      { left: 250, top: 175 },
    ],
    [
      { left: -101, top: -51 },
      { left: 250, top: 175 },
    ],
  ])('a 100x50 box at %o goes to %o', (at, expected) => {
    expect(clampBox({ ...at, width: 100, height: 50 }, canvas)).toEqual(expected);
  });

  it('puts a box wider than the room at the 5 px margin', () => {
    expect(clampBox({ left: 40, top: 10, width: 700, height: 50 }, canvas).left).toBe(5);
  });
});

describe('placeholders typed in a snippet (spec 000 §3 Parameter)', () => {
  let n = 0;
  const newId = () => `p${++n}`;

  it('adds, renames and removes parameters with the spec’s change records', () => {
    let doc = demoDocument();
    let result = setSnippetText(doc, 'snippet-hello', 'Hello {{first_name}} from {{city}}', newId);
    expect(result.changes).toEqual([
      { textSnippetId: 'snippet-hello', paramId: 'p1', action: 'added' },
    ]);
    doc = result.document;
    result = setSnippetText(doc, 'snippet-hello', 'Hello {{first_name}} from {{town}}', newId);
    expect(result.changes).toEqual([
      { textSnippetId: 'snippet-hello', paramId: 'p1', action: 'updated' },
    ]);
    doc = result.document;
    result = setSnippetText(doc, 'snippet-hello', 'Hello', newId);
    expect(result.changes.map((c) => [c.paramId, c.action])).toEqual([
      ['param-first-name', 'removed'],
      ['p1', 'removed'],
    ]);
    expect(result.document.text_snippets[0]).toMatchObject({
      text: 'Hello',
      original_text: 'Hello',
      parameters: [],
    });
  });

  it('gives no parameter to a name of only digits, and leaves the text as typed', () => {
    const result = setSnippetText(
      demoDocument(),
      'snippet-hello',
      'Hi {{first_name}} {{42}}',
      newId,
    );
    expect(result.changes).toEqual([]);
    expect(result.document.text_snippets[0]!.text).toBe('Hi {{first_name}} {{42}}');
  });

  it('produces a document the restore path keeps as it is', () => {
    const doc = demoDocument();
    doc.text_snippets.push({
      ...doc.text_snippets[0]!,
      id: 'second',
      text: 'Snippet 1',
      parameters: [],
    });
    const { document } = setSnippetText(doc, 'second', 'Hi {{first_name}} at {{company}}', newId);
    const restored = restoreDesign(document);
    expect(restored.repaired).toEqual([]);
    expect(restored.document).toEqual(document);
  });
});

describe('the 409 merge', () => {
  /** The demo design with a second snippet, as both editors loaded it. */
  function base(): DesignDocument {
    const doc = demoDocument();
    doc.text_snippets.push({
      ...doc.text_snippets[0]!,
      id: 'footer',
      text: 'Footer',
      parameters: [],
    });
    return doc;
  }

  it('keeps what this editor changed and takes the rest from the newer version', () => {
    const mine = base();
    mine.text_snippets[0]!.left = 20;
    mine.text_snippets.push({ ...mine.text_snippets[1]!, id: 'mine', text: 'Mine' });
    const theirs = base();
    theirs.text_snippets[1]!.fill = '#ff0000';
    theirs.text_snippets.push({ ...theirs.text_snippets[1]!, id: 'theirs', text: 'Theirs' });
    theirs.flip_x = true;
    const { document, changedUnderneath } = mergeDesigns(base(), mine, theirs);
    expect(document.text_snippets.map((s) => [s.id, s.left, s.fill])).toEqual([
      ['snippet-hello', 20, 'black'],
      ['footer', 50, '#ff0000'],
      ['theirs', 50, '#ff0000'],
      ['mine', 50, 'black'],
    ]);
    expect(document.flip_x).toBe(true);
    expect(changedUnderneath).toBe(true);
  });

  it('drops what this editor deleted, and keeps what it changed that was deleted there', () => {
    const mine = base();
    mine.text_snippets = mine.text_snippets.filter((s) => s.id !== 'footer');
    mine.text_snippets[0]!.text = 'Hello {{first_name}}, edited here';
    const theirs = base();
    theirs.text_snippets = theirs.text_snippets.filter((s) => s.id !== 'snippet-hello');
    const { document } = mergeDesigns(base(), mine, theirs);
    expect(document.text_snippets.map((s) => s.text)).toEqual([
      'Hello {{first_name}}, edited here',
    ]);
  });

  it('reports no change underneath when the newer version only differs where this editor did', () => {
    const mine = base();
    mine.text_snippets[0]!.top = 100;
    const { document, changedUnderneath } = mergeDesigns(base(), mine, base());
    expect(document).toEqual(mine);
    expect(changedUnderneath).toBe(false);
  });
});

describe('keyboard shortcuts (docs/editor.md)', () => {
  const press = (
    key: string,
    mods: Partial<Record<'ctrl' | 'meta' | 'shift' | 'alt', boolean>> = {},
  ) => ({
    key,
    ctrlKey: mods.ctrl ?? false,
    metaKey: mods.meta ?? false,
    shiftKey: mods.shift ?? false,
    altKey: mods.alt ?? false,
  });

  it.each([
    [press('z', { ctrl: true }), false, 'undo', undefined],
    [press('z', { meta: true }), true, 'undo', undefined],
    [press('Z', { ctrl: true, shift: true }), false, 'redo', undefined],
    [press('Z', { meta: true, shift: true }), true, 'redo', undefined],
    [press('y', { ctrl: true }), false, 'redo', undefined],
    [press('y', { ctrl: true }), true, 'redo', undefined],
    [press('Delete'), false, 'requestDelete', undefined],
    [press('Backspace'), false, 'requestDelete', undefined],
    [press('Escape'), false, 'escape', undefined],
    [press('ArrowLeft'), false, 'nudge', { dx: -1, dy: 0 }],
    [press('ArrowDown', { shift: true }), false, 'nudge', { dx: 0, dy: 10 }],
  ])('%o (mac %s) runs %s %o', (key, mac, name, args) => {
    expect(shortcutFor(key, false, mac)).toEqual({ name, args });
  });

  it.each([
    [press('z', { ctrl: true }), true],
    [press('z', { meta: true }), false],
    [press('z', { ctrl: true, alt: true }), false],
    [press('z'), false],
    [press('ArrowLeft', { ctrl: true }), false],
  ])('%o (mac %s) runs nothing', (key, mac) => {
    expect(shortcutFor(key, false, mac)).toBeNull();
  });

  it('leaves every key to a text field being typed in', () => {
    for (const key of [press('z', { ctrl: true }), press('Backspace'), press('ArrowLeft')]) {
      expect(shortcutFor(key, true, false)).toBeNull();
    }
  });

  it('labels shortcuts for each platform', () => {
    expect(shortcutLabel('Mod+Shift+z', false)).toBe('Ctrl+Shift+Z');
    expect(shortcutLabel('Mod+Shift+z', true)).toBe('⌘⇧Z');
  });
});
