/**
 * A merge field typed in one text snippet that another snippet already holds (docs/editor.md
 * "Messages": "Parameters"; ../document/placeholders.ts `setSnippetText`, `sharedParameters`):
 * the editor's notice says the two share one value, and the Snippets list marks both snippets
 * while it shows.
 */
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { REFUSAL_NOTICE_MS } from '../commands.ts';
import { SnippetPanel } from './SnippetPanel.tsx';

/** The demo design ("Hello {{first_name}}!") and a second snippet "Bye", titled "Farewell". */
function twoSnippets() {
  const demo = demoDocument();
  const hello = demo.text_snippets[0]!;
  return openEditor({
    ...demo,
    text_snippets: [hello, { ...hello, id: 'snippet-bye', text: 'Bye', parameters: [], top: 500 }],
  });
}

const marked = () =>
  within(screen.getByRole('list', { name: 'Text snippets' }))
    .getAllByRole('button')
    .filter((b) => b.textContent?.includes('Shares a merge field'))
    .map((b) => b.textContent?.replace(' Shares a merge field', ''));

/** The panel on {@link twoSnippets} with "Bye" picked, and its Text field. */
async function byeSelected() {
  const view = renderInEditor(<SnippetPanel />, { store: twoSnippets() });
  await view.user.click(screen.getByRole('button', { name: 'Bye' }));
  const selected = screen.getByRole('region', { name: 'Selected text snippet' });
  return { ...view, text: within(selected).getByRole('textbox', { name: 'Text' }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a merge field another snippet already holds', () => {
  it('gets the repeated-parameter notice and both snippets marked, for 4 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, store, text } = await byeSelected();
    // `{{` types one brace (user-event's escape).
    await user.type(text, ' {{{{first_nam');
    expect(store.getState().notice).toBeNull();
    expect(marked()).toEqual([]);
    await user.type(text, 'e}}');

    expect(store.getState().notice).toMatchObject({
      tone: 'info',
      text: '{{first_name}} is already in “Hello {{first_name}}!”: one value fills both.',
    });
    expect(marked()).toEqual(['Hello {{first_name}}!', 'Bye {{first_name}}']);
    // One parameter per snippet, sharing the fallback.
    const fallbacks = store
      .getState()
      .design!.text_snippets.map((s) => s.parameters.map((p) => p.param_default_value));
    expect(fallbacks).toEqual([['there'], ['there']]);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(REFUSAL_NOTICE_MS + 100);
    });
    expect(store.getState().notice).toBeNull();
    expect(marked()).toEqual([]);
  });

  it('says nothing for a merge field of its own', async () => {
    const { user, store, text } = await byeSelected();
    await user.type(text, ' {{{{last_name}}');
    expect(store.getState().notice).toBeNull();
    expect(marked()).toEqual([]);
  });
});
