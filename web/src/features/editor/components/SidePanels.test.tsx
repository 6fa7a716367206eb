/**
 * The editor's side panels (./SidePanels.tsx; docs/editor.md "Architecture": one panel open at a
 * time): the rail of toggle buttons says which panel is open, and the open panel is a region
 * named by its heading. Only the Snippets panel is opened here: the others read the API and
 * have tests of their own, or need the canvas.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { SidePanels } from './SidePanels.tsx';

const rail = () => screen.getByRole('toolbar', { name: 'Panels' });

describe('the side panels', () => {
  it('offers every panel on a vertical rail, the Snippets panel open', () => {
    renderInEditor(<SidePanels />);
    expect(rail().getAttribute('aria-orientation')).toBe('vertical');
    const buttons = within(rail()).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Templates',
      'Images',
      'Snippets',
      'Stickers',
      'Rules',
      'Data',
    ]);
    expect(
      buttons.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.textContent),
    ).toEqual(['Snippets']);
    const panel = screen.getByRole('region', { name: 'Snippets' });
    expect(within(panel).getByRole('button', { name: 'Add text snippet' })).toBeTruthy();
  });

  it('closes the open panel with its own button, and opens it again with the keyboard', async () => {
    const { user } = renderInEditor(<SidePanels />);
    const snippets = within(rail()).getByRole('button', { name: 'Snippets' });
    await user.click(snippets);
    expect(snippets.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Snippets' })).toBeNull();
    snippets.focus();
    await user.keyboard('{Enter}');
    expect(snippets.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('region', { name: 'Snippets' })).toBeTruthy();
  });
});
