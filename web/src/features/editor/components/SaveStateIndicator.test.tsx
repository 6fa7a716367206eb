/**
 * The editor's save state (./SaveStateIndicator.tsx; docs/editor.md "Server sync") driven by the
 * real save queue (../sync.ts over ../api.ts `designServer`) against the mock API: "Saving…"
 * while a change is on its way, "Saved", or "Not saved" with the reason and Retry.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, failNetwork } from '../../../test/api.ts';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { designServer } from '../api.ts';
import { startSync, type SyncController } from '../sync.ts';
import { SaveStateIndicator } from './SaveStateIndicator.tsx';

const SAVED = {
  success: true as const,
  version: 2,
  title: 'Welcome',
  updated_at: '2026-03-01T10:00:00Z',
};

let sync: SyncController | undefined;
afterEach(() => sync?.stop());

/** The indicator of an editor whose changes are saved at once (no 1 s pause). */
function renderSaving() {
  const store = openEditor();
  sync = startSync(store, designServer, { debounceMs: 0 });
  const view = renderInEditor(<SaveStateIndicator />, { store, sync });
  /** Changes the document as a command would: moves the snippet 10 px right. */
  const change = () =>
    act(() => {
      store.getState().applyChange({ eventType: 'snippets.event', label: 'Move' }, (draft) => {
        draft.text_snippets[0]!.left += 10;
      });
    });
  const state = () => screen.getByRole('status').textContent?.trim();
  return { ...view, change, state };
}

describe('the save state', () => {
  it('says “Saved” when nothing is waiting', () => {
    const { state } = renderSaving();
    expect(state()).toBe('✓ Saved');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says “Saving…” while a change is on its way, then “Saved”', async () => {
    const save = answer('PUT /api/pic-snippet/{id}', 200, SAVED, { held: true });
    const { change, state } = renderSaving();
    change();
    await waitFor(() => expect(state()).toBe('Saving…'));
    save.release();
    await waitFor(() => expect(state()).toBe('✓ Saved'));
    expect(save.requests[0]?.params).toEqual({ id: 'design-1' });
    expect(save.requests[0]?.body).toMatchObject({ title: 'Welcome', version: 1 });
  });

  it('says why a change was not saved, and saves it with Retry', async () => {
    answer('PUT /api/pic-snippet/{id}', 422, {
      message: 'The document is not valid.',
      errors: { text_snippets: ['The text may not be greater than 1000 characters.'] },
    });
    const { change, state, user } = renderSaving();
    change();
    await waitFor(() => expect(state()).toBe('! Not saved: The document is not valid.'));
    const retried = answer('PUT /api/pic-snippet/{id}', 200, SAVED);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(state()).toBe('✓ Saved'));
    expect(retried.requests).toHaveLength(1);
  });

  it('says there is no connection when the save gets no answer', async () => {
    failNetwork('PUT /api/pic-snippet/{id}');
    const { change, state } = renderSaving();
    change();
    await waitFor(() =>
      expect(state()).toBe(
        '! Not saved: We could not reach PicSnippets. Check your connection and try again.',
      ),
    );
  });
});
