/**
 * The editable design title (./TitleField.tsx; docs/editor.md "Architecture": "saves on blur,
 * Enter key is blocked"; docs/editor.md "Editing rules": "Design title"): saved when left, the
 * old title back when left blank, the spec's message for one too long, and unsaved while typed.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { hasUnsavedChanges } from '../../../hooks/useUnsavedChangesGuard.ts';
import { renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { expectFieldError, expectNoFieldError } from '../../../test/expectations.ts';
import { SaveStateIndicator } from './SaveStateIndicator.tsx';
import { TITLE_ERROR_MS, TitleField } from './TitleField.tsx';

function renderTitle() {
  const view = renderInEditor(<TitleField />);
  const title = screen.getByRole('textbox', { name: 'Design title' }) as HTMLInputElement;
  return { ...view, title };
}

describe('the design title', () => {
  it('shows the design’s title under the name “Design title”', () => {
    const { title } = renderTitle();
    expect(title.value).toBe('Welcome');
    expectNoFieldError(title);
  });

  it('saves a changed title, trimmed, when the field is left', async () => {
    const { user, title, sync } = renderTitle();
    await user.clear(title);
    await user.type(title, '  Spring sale ');
    expect(sync.titles).toEqual([]);
    await user.tab();
    expect(sync.titles).toEqual(['Spring sale']);
  });

  it('does not save on Enter', async () => {
    const { user, title, sync } = renderTitle();
    await user.type(title, ' again{Enter}');
    expect(sync.titles).toEqual([]);
    expect(document.activeElement).toBe(title);
    expect(title.value).toBe('Welcome again');
  });

  it('puts the old title back when left blank, saving nothing', async () => {
    const { user, title, sync } = renderTitle();
    await user.clear(title);
    await user.tab();
    expect(title.value).toBe('Welcome');
    expect(sync.titles).toEqual([]);
  });

  it('saves nothing when the title is the same', async () => {
    const { user, title, sync } = renderTitle();
    await user.type(title, ' ');
    await user.tab();
    expect(sync.titles).toEqual([]);
  });

  it('keeps a title over 255 characters in the field with the spec’s message, unsaved', async () => {
    const { user, title, sync } = renderTitle();
    await user.clear(title);
    await user.click(title);
    await user.paste('x'.repeat(256));
    await user.tab();
    expectFieldError(title, 'The title may not be greater than 255 characters');
    expect(screen.getByRole('alert').textContent).toContain(
      'The title may not be greater than 255 characters',
    );
    expect(title.value).toHaveLength(256);
    expect(sync.titles).toEqual([]);
    // Shortening it takes the message away.
    await user.type(title, '{Backspace}');
    expectNoFieldError(title);
  });

  it('marks a typed title unsaved until it is left', async () => {
    const { user, title } = renderTitle();
    await user.type(title, ' again');
    expect(hasUnsavedChanges()).toBe(true);
    await user.tab();
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('keeps the save indicator from saying “Saved” while a title is typed', async () => {
    const { user } = renderInEditor(
      <>
        <TitleField />
        <SaveStateIndicator />
      </>,
    );
    const title = screen.getByRole('textbox', { name: 'Design title' });
    const state = () => screen.getByTestId('save-state').textContent;
    expect(state()).toContain('Saved');
    await user.type(title, ' again');
    expect(state()).toBe('• Title not saved yet: it saves when you leave the field');
    await user.tab();
    expect(state()).not.toContain('Title not saved yet');
  });

  it('shows why the server refused a title for 3 seconds, then clears', () => {
    vi.useFakeTimers();
    try {
      const { title, store } = renderTitle();
      act(() =>
        store
          .getState()
          .setTitleError(
            'The given data was invalid. The title may not be greater than 255 characters.',
          ),
      );
      expectFieldError(
        title,
        'The given data was invalid. The title may not be greater than 255 characters.',
      );
      act(() => vi.advanceTimersByTime(TITLE_ERROR_MS - 100));
      expect(title.getAttribute('aria-invalid')).toBe('true');
      act(() => vi.advanceTimersByTime(200));
      expectNoFieldError(title);
    } finally {
      vi.useRealTimers();
    }
  });
});
