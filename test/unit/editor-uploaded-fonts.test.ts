/**
 * Switching a snippet to an uploaded font (docs/fonts.md "Uploads": "Bold and italic are not
 * supported for uploaded fonts"): the set-font-family command makes a bold or italic snippet plain
 * in the same history step, and it knows which families are uploads from the team's uploaded fonts
 * list read as the editor opens, not only from fonts the loader has already drawn.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import {
  forgetUploadedFonts,
  isUploadedFont,
  loadUploadedFonts,
  noteUploadedFont,
} from '../../web/src/features/editor/commands/uploadedFonts.ts';
import { setFontSources, setFontTeam } from '../../web/src/features/fonts/loadFont.ts';
import { fontFaceChanges, registerFontFaces } from '../../shared/fonts/face-set.ts';
import { counts, openEditor, snippet } from '../support/editor.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  forgetUploadedFonts();
});

const ID = 'snippet-hello';

/** The demo design with its snippet bold and italic (two undo steps), history settled. */
function boldItalicSnippet() {
  const editor = openEditor();
  const { store } = editor;
  runCommand(store, 'select', { kind: 'snippet', id: ID });
  runCommand(store, 'toggleBold');
  runCommand(store, 'toggleItalic');
  editor.wait(2000);
  return editor;
}

describe('set font family to an uploaded font', () => {
  it('clears bold and italic in the same step; one undo brings back family and style', () => {
    noteUploadedFont('Team Script');
    const { store } = boldItalicSnippet();
    const before = snippet(store, ID);
    expect(before).toMatchObject({ fontWeight: 'bold', fontStyle: 'italic' });
    const stepsBefore = counts(store).undo;

    expect(runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'team script' })).toBe(
      true,
    );
    expect(snippet(store, ID)).toMatchObject({
      fontFamily: 'team script',
      fontWeight: 'normal',
      fontStyle: 'normal',
    });
    expect(counts(store)).toEqual({ undo: stepsBefore + 1, redo: 0 });

    runCommand(store, 'undo');
    expect(snippet(store, ID)).toMatchObject({
      fontFamily: before.fontFamily,
      fontWeight: 'bold',
      fontStyle: 'italic',
    });
    runCommand(store, 'redo');
    expect(snippet(store, ID)).toMatchObject({ fontWeight: 'normal', fontStyle: 'normal' });
  });

  it('keeps bold and italic for a font that is not an upload', () => {
    noteUploadedFont('Team Script');
    const { store } = boldItalicSnippet();
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Roboto' });
    expect(snippet(store, ID)).toMatchObject({
      fontFamily: 'Roboto',
      fontWeight: 'bold',
      fontStyle: 'italic',
    });
  });

  it('knows the uploads from the team’s list as soon as it is read, before any font is drawn', async () => {
    const read = vi.fn(() =>
      Promise.resolve([{ family: 'Brand Sans' }, { family: 'Brand Serif' }]),
    );
    expect(isUploadedFont('Brand Sans')).toBe(false);
    await Promise.all([loadUploadedFonts(read), loadUploadedFonts(read)]);
    expect(read).toHaveBeenCalledTimes(1); // once per page
    const { store } = boldItalicSnippet();
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Brand Serif' });
    expect(snippet(store, ID)).toMatchObject({ fontWeight: 'normal', fontStyle: 'normal' });
    // And the bold shortcut's rule reads the same list.
    expect(runCommand(store, 'toggleBold')).toBe(false);
  });

  it('a failed read of the list is tried again on the next call', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    await loadUploadedFonts(failing);
    expect(isUploadedFont('Brand Sans')).toBe(false);
    await loadUploadedFonts(() => Promise.resolve([{ family: 'Brand Sans' }]));
    expect(isUploadedFont('brand sans')).toBe(true);
  });
});

/** The browser's FontFace and `document.fonts` (a set of faces), enough for the font loader. */
function stubFontFaceSet(): Set<{ family: string }> {
  const fonts = new Set<{ family: string }>();
  vi.stubGlobal(
    'FontFace',
    class {
      constructor(
        readonly family: string,
        readonly source: string,
      ) {}
    },
  );
  vi.stubGlobal('document', { fonts });
  return fonts;
}

describe('uploaded fonts while the editor is open, and team switches', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a font uploaded in the picker counts as uploaded at once: switching a bold snippet to it makes it plain', () => {
    stubFontFaceSet();
    setFontTeam('team-upload');
    const { store } = boldItalicSnippet();
    // What the picker does with the upload's answer (FontPicker `onFile`).
    setFontSources({
      custom: [{ family: 'Fresh Upload', url: '/files/fonts/t/fresh.woff2', format: 'woff2' }],
    });
    expect(isUploadedFont('fresh upload')).toBe(true);
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Fresh Upload' });
    expect(snippet(store, ID)).toMatchObject({ fontWeight: 'normal', fontStyle: 'normal' });
  });

  it('a team switch forgets the previous team’s uploads and takes their faces out of the document', async () => {
    const fonts = stubFontFaceSet();
    setFontTeam('team-a');
    setFontSources({
      custom: [{ family: 'Team A Script', url: '/files/fonts/a/script.woff2', format: 'woff2' }],
    });
    await vi.waitFor(() => expect([...fonts].map((f) => f.family)).toContain('Team A Script'));
    expect(isUploadedFont('Team A Script')).toBe(true);

    setFontTeam('team-a'); // the same team again: nothing is forgotten
    expect(isUploadedFont('Team A Script')).toBe(true);

    setFontTeam('team-b');
    expect(isUploadedFont('Team A Script')).toBe(false);
    expect([...fonts].map((f) => f.family)).not.toContain('Team A Script');
    // Bold stays allowed for the family in the new team (it is not one of its uploads).
    const { store } = boldItalicSnippet();
    runCommand(store, 'setSnippetFontFamily', { id: ID, fontFamily: 'Team A Script' });
    expect(snippet(store, ID)).toMatchObject({ fontWeight: 'bold', fontStyle: 'italic' });
  });

  it('counts each face added or removed, so a cache of the document’s faces knows it is stale', () => {
    stubFontFaceSet();
    const before = fontFaceChanges();
    const rule = {
      family: 'Counted',
      url: '/files/fonts/c.woff2',
      format: 'woff2' as const,
      weight: 400,
      style: 'normal' as const,
    };
    expect(registerFontFaces([rule])).toBe(1);
    expect(registerFontFaces([rule])).toBe(0); // once per rule
    expect(fontFaceChanges()).toBe(before + 1);
  });
});
