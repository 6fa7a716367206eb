/**
 * The editor's layout parts (./EditorLayout.tsx; docs/editor.md "Layout"): the selected object's
 * settings are a column named "Object settings" that holds the text tools while a text is
 * selected and says where settings come from while nothing is; its fold button (a phone's sheet)
 * says whether it is open; the image tools fold behind their own button, folded at first.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { answer } from '../../../test/api.ts';
import { renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { aTeam } from '../../../test/fixtures.ts';
import { ImageTools, SettingsColumn } from './EditorLayout.tsx';

const settings = () => screen.getByRole('complementary', { name: 'Object settings' });

describe('the editor layout', () => {
  // The text tools read the team's uploaded fonts as they mount.
  beforeEach(() => {
    answer('GET /getCustomFonts', 200, {
      success: true,
      customFonts: { names: [], path: [] },
      fontsPath: '',
    });
  });

  it('shows the selected text’s tools in the Object settings column, a hint without one', async () => {
    const { store } = renderInEditor(<SettingsColumn />);
    expect(within(settings()).getByText(/Select a text or a sticker/)).toBeTruthy();
    expect(within(settings()).queryByRole('group', { name: 'Text tools' })).toBeNull();

    store.getState().select({ kind: 'snippet', id: 'snippet-hello' });
    expect(await within(settings()).findByRole('group', { name: 'Text tools' })).toBeTruthy();
    expect(within(settings()).queryByText(/Select a text or a sticker/)).toBeNull();
  });

  it('folds the settings sheet with a button that says whether it is open', async () => {
    const { user } = renderInEditor(<SettingsColumn />);
    const fold = within(settings()).getByRole('button', { name: 'Object settings' });
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(fold.getAttribute('aria-controls')!)!;
    expect(within(body).getByText(/Select a text or a sticker/)).toBeTruthy();
    await user.click(fold);
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    expect(settings().getAttribute('data-open')).toBe('false');
  });

  it('keeps the image tools behind an Image tools button, folded at first', async () => {
    answer('GET /settings/companies/current', 200, aTeam());
    const { user } = renderInEditor(<ImageTools />);
    const fold = screen.getByRole('button', { name: 'Image tools' });
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    const body = document.getElementById(fold.getAttribute('aria-controls')!)!;
    expect(within(body).getByRole('toolbar', { name: 'Image tools' })).toBeTruthy();
    await user.click(fold);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
  });
});
