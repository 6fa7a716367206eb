/**
 * The snippet search of the Snippets panel (./SnippetPanel.tsx; docs/editor.md "Constants"):
 * offered from six snippets on, filtering by title and text (case and accents folded) 400 ms
 * after the last key, and saying when nothing matches.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '#shared/design.ts';
import { demoDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { SnippetPanel, snippetMatches } from './SnippetPanel.tsx';

/** The demo design with `n` snippets: "Café 1", "Offer 2", "Café 3"… */
function withSnippets(n: number): DesignDocument {
  const demo = demoDocument();
  const base = demo.text_snippets[0]!;
  return {
    ...demo,
    text_snippets: Array.from({ length: n }, (_, i) => ({
      ...base,
      id: `s${i + 1}`,
      text: `${i % 2 === 0 ? 'Café' : 'Offer'} ${i + 1}`,
      parameters: [],
    })),
  };
}

const listed = () =>
  within(screen.getByRole('list', { name: 'Text snippets' }))
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('the snippet search', () => {
  it('is not offered below six snippets', () => {
    renderInEditor(<SnippetPanel />, { store: openEditor(withSnippets(5)) });
    expect(screen.queryByRole('searchbox', { name: 'Search text snippets' })).toBeNull();
  });

  it('filters after the wait, folding case and accents, and says when nothing matches', async () => {
    const { user } = renderInEditor(<SnippetPanel />, { store: openEditor(withSnippets(6)) });
    const search = screen.getByRole('searchbox', { name: 'Search text snippets' });
    await user.type(search, 'CAFE');
    // Not yet: the list waits for the typing to stop.
    expect(listed()).toHaveLength(6);
    await waitFor(() => expect(listed()).toEqual(['Café 1', 'Café 3', 'Café 5']), {
      timeout: 2000,
    });
    await user.clear(search);
    await user.type(search, 'nothing here');
    expect(
      await screen.findByText('No text snippet holds “nothing here”.', {}, { timeout: 2000 }),
    ).toBeTruthy();
  });

  it('matches every word of the search in the title or the text', () => {
    const snippet = { text: 'Hello {{first_name}}', display_info: { title: 'Greeting' } };
    expect(snippetMatches(snippet, 'greet hello')).toBe(true);
    expect(snippetMatches(snippet, 'greet bye')).toBe(false);
  });
});
