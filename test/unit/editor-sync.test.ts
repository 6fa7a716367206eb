/**
 * The editor's server sync (docs/editor.md "Server sync"; docs/editor.md "Commands", docs/editor.md
 * "Constants": "server save after 1000 ms"; docs/editor.md "Server sync" optimistic locking):
 * changes saved once after a 1000 ms pause with the design's version, the visible save state, a
 * failure with retry, a title saved at once, and a 409 that re-applies the user's unsaved changes
 * onto the newer version.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DesignDocument } from '#shared/design.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import {
  startSync,
  type DesignServer,
  type SaveRequest,
} from '../../web/src/features/editor/sync.ts';
import { DEMO_META, counts, demoDocument, openEditor, snippet } from '../support/editor.ts';
import { ApiError } from '../../web/src/api/client.ts';

/** A fake design API keeping one stored design and every save it was sent. */
function fakeServer() {
  const stored = { version: 1, title: DEMO_META.title, document: demoDocument() };
  const saves: SaveRequest[] = [];
  let failNext: Error | null = null;
  const server: DesignServer = {
    save: async (_id, request) => {
      saves.push(request);
      if (failNext) {
        const error = failNext;
        failNext = null;
        throw error;
      }
      if (request.version !== stored.version) {
        throw Object.assign(new Error('This design was changed elsewhere.'), { status: 409 });
      }
      stored.version++;
      stored.title = request.title;
      stored.document = structuredClone(request.document);
      return { version: stored.version, title: stored.title };
    },
    load: async () => ({
      meta: { ...DEMO_META, title: stored.title, version: stored.version },
      document: structuredClone(stored.document),
    }),
  };
  return {
    server,
    stored,
    saves,
    failOnce: (error: Error) => {
      failNext = error;
    },
    /** Another editor saves: the stored design changes and its version moves on. */
    changeElsewhere: (change: (d: DesignDocument) => void, title?: string) => {
      change(stored.document);
      if (title) stored.title = title;
      stored.version++;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets timers and the promises they start run. */
const settle = async (ms = 0) => {
  await vi.advanceTimersByTimeAsync(ms);
};

describe('saving changes', () => {
  it('saves once, 1000 ms after the last change, with the version; shows pending, saving, saved', async () => {
    const editor = openEditor();
    const { store } = editor;
    const api = fakeServer();
    const sync = startSync(store, api.server);
    expect(store.getState().saveStatus).toBe('saved');

    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    for (let i = 0; i < 5; i++) {
      runCommand(store, 'nudge', { dx: 1, dy: 0 });
      await settle(400);
    }
    expect(store.getState().saveStatus).toBe('pending');
    expect(api.saves).toHaveLength(0);
    await settle(599);
    expect(api.saves).toHaveLength(0);
    await settle(1);
    expect(api.saves).toHaveLength(1);
    expect(api.saves[0]).toMatchObject({ version: 1, title: 'Welcome' });
    expect(api.saves[0]!.document.text_snippets[0]!.left).toBe(55);
    expect(store.getState().saveStatus).toBe('saved');
    expect(store.getState().meta!.version).toBe(2);

    // The next change goes with the new version.
    runCommand(store, 'nudge', { dx: 1, dy: 0 });
    await settle(1000);
    expect(api.saves.map((s) => s.version)).toEqual([1, 2]);
    sync.stop();
  });

  it('does not save selection or view changes', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    startSync(store, api.server);
    runCommand(store, 'select', { kind: 'snippet', id: 'snippet-hello' });
    store.getState().togglePanel('images');
    await settle(3000);
    expect(api.saves).toHaveLength(0);
    expect(store.getState().saveStatus).toBe('saved');
  });

  it('shows a failure with its reason; Retry saves', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    const sync = startSync(store, api.server);
    api.failOnce(new Error('We could not reach PicSnippets.'));
    runCommand(store, 'setSnippetFill', { id: 'snippet-hello', fill: '#ff0000' });
    await settle(1000);
    expect(store.getState()).toMatchObject({
      saveStatus: 'failed',
      saveMessage: 'We could not reach PicSnippets.',
    });
    await sync.flush();
    expect(store.getState().saveStatus).toBe('saved');
    expect(api.stored.document.text_snippets[0]!.fill).toBe('#ff0000');
  });

  // docs/editor.md "Messages": a refused title save says why under the title, besides the
  // indicator; a refused save without a new title does not.
  it('tells the title field why a save with a new title was refused', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    const sync = startSync(store, api.server);
    api.failOnce(
      new ApiError(422, 'The given data was invalid.', {
        title: ['The title may not be greater than 255 characters.'],
      }),
    );
    await sync.saveTitle('Refused title');
    expect(store.getState().saveStatus).toBe('failed');
    expect(store.getState().titleError?.text).toBe(
      'The given data was invalid. The title may not be greater than 255 characters.',
    );
    store.getState().setTitleError(null);
    await sync.flush();
    expect(store.getState().saveStatus).toBe('saved');
    api.failOnce(new Error('We could not reach PicSnippets.'));
    runCommand(store, 'setSnippetFill', { id: 'snippet-hello', fill: '#00ff00' });
    await settle(1000);
    expect(store.getState().saveStatus).toBe('failed');
    expect(store.getState().titleError).toBeNull();
  });

  it('saves a title at once', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    const sync = startSync(store, api.server);
    await sync.saveTitle('Autumn offer');
    expect(api.saves).toHaveLength(1);
    expect(api.stored.title).toBe('Autumn offer');
    expect(store.getState().meta).toMatchObject({ title: 'Autumn offer', version: 2 });
  });
});

describe('a 409 (saved elsewhere meanwhile)', () => {
  it('re-applies the unsaved text onto the newer version, keeps theirs, and saves', async () => {
    const editor = openEditor();
    const { store } = editor;
    const api = fakeServer();
    startSync(store, api.server);
    // Elsewhere: a new snippet and a new title.
    api.changeElsewhere((d) => {
      d.text_snippets.push({
        ...d.text_snippets[0]!,
        id: 'theirs',
        text: 'From elsewhere',
        parameters: [],
      });
    }, 'Renamed elsewhere');
    // Here: the user types into the demo snippet.
    runCommand(store, 'setSnippetText', {
      id: 'snippet-hello',
      text: 'Hi {{first_name}}, welcome',
    });
    await settle(1000);

    expect(api.saves.map((s) => s.version)).toEqual([1, 2]);
    expect(store.getState().saveStatus).toBe('saved');
    const texts = api.stored.document.text_snippets.map((s) => s.text);
    expect(texts).toEqual(['Hi {{first_name}}, welcome', 'From elsewhere']);
    expect(api.stored.title).toBe('Renamed elsewhere');
    expect(store.getState().design!.text_snippets.map((s) => s.text)).toEqual(texts);
    expect(store.getState().meta).toMatchObject({ version: 3, title: 'Renamed elsewhere' });
    expect(store.getState().notice?.text).toMatch(/changed elsewhere.*re-applied/);
    // The document changed underneath the history: undo starts again (its patches were for the
    // old document).
    expect(counts(store)).toEqual({ undo: 0, redo: 0 });
  });

  it('keeps the undo history when the newer version changed nothing the editor shows', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    startSync(store, api.server);
    api.changeElsewhere(() => {}, 'Renamed elsewhere');
    runCommand(store, 'setSnippetFontSize', { id: 'snippet-hello', fontSize: 50 });
    await settle(1000);
    expect(store.getState().saveStatus).toBe('saved');
    expect(api.stored.document.text_snippets[0]!.fontSize).toBe(50);
    expect(counts(store).undo).toBe(1);
    runCommand(store, 'undo');
    expect(snippet(store, 'snippet-hello').fontSize).toBe(64);
  });

  it('keeps a title typed here over the one saved elsewhere', async () => {
    const { store } = openEditor();
    const api = fakeServer();
    const sync = startSync(store, api.server);
    api.changeElsewhere(() => {}, 'Renamed elsewhere');
    await sync.saveTitle('Mine');
    expect(api.stored.title).toBe('Mine');
    expect(store.getState().saveStatus).toBe('saved');
  });
});
