/**
 * The design's alt text in the Snippets panel (./AltTextSection.tsx; docs/export.md "Alt text"):
 * the default is the texts joined, what a recipient without values hears uses the fallbacks, a
 * template is applied when the field is left and undone in one step, and an overlong one is
 * refused with the schema's message.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { SnippetPanel } from './SnippetPanel.tsx';

describe('the alt text', () => {
  it('defaults to the texts, says what a recipient without values hears, and undoes', async () => {
    const { user, store } = renderInEditor(<SnippetPanel />);
    const field = screen.getByRole('textbox', { name: 'Alt text' }) as HTMLTextAreaElement;
    expect(field.value).toBe('');
    expect(field.placeholder).toBe('Hello {{first_name}}!');
    const heard = screen.getByTestId('alt-text-heard');
    const fallback = store.getState().design!.text_snippets[0]!.parameters[0]!.param_default_value;
    expect(heard.textContent).toBe(`A recipient without values hears: “Hello ${fallback.trim()}!”`);

    await user.type(field, 'Spring sale for {{{{first_name}}');
    await user.tab();
    expect(store.getState().design!.alt_text).toBe('Spring sale for {{first_name}}');
    expect(heard.textContent).toBe(
      `A recipient without values hears: “Spring sale for ${fallback.trim()}”`,
    );
    act(() => runCommand(store, 'undo'));
    expect(store.getState().design!.alt_text).toBeNull();
    expect(field.value).toBe('');
  });

  it('refuses an alt text over 500 characters and keeps the design’s', async () => {
    const { user, store } = renderInEditor(<SnippetPanel />);
    const field = screen.getByRole('textbox', { name: 'Alt text' });
    await user.click(field);
    await user.paste('x'.repeat(501));
    await user.tab();
    expect(screen.getByRole('alert').textContent).toBe(
      '! The alt text may not be greater than 500 characters.',
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(store.getState().design!.alt_text).toBeNull();
  });
});
