/**
 * The Snippets side panel (./SnippetPanel.tsx, ./SnippetTextField.tsx, ./ParameterList.tsx;
 * docs/editor.md "Architecture", "Commands", "Editing rules"), rendered on the editor store
 * without the canvas: the empty state, picking a snippet, adding one (the button rests for a
 * second), a merge field edited as one piece, and the parameter fields with the spec's
 * messages.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { descriptionOf, expectFieldError, expectNoFieldError } from '../../../test/expectations.ts';
import { SnippetPanel } from './SnippetPanel.tsx';

/** Renders the panel with the demo snippet selected. */
async function withHelloSelected() {
  const view = renderInEditor(<SnippetPanel />);
  await view.user.click(screen.getByRole('button', { name: 'Hello {{first_name}}!' }));
  const selected = screen.getByRole('region', { name: 'Selected text snippet' });
  const text = within(selected).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement;
  return { ...view, selected, text };
}

describe('the Snippets panel', () => {
  it('says there are no text snippets yet, and how to start', () => {
    renderInEditor(<SnippetPanel />, { store: openEditor(emptyDocument()) });
    expect(screen.getByText('No text snippets yet. Add one, then type its text.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add text snippet' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Text snippets' })).toBeNull();
  });

  it('lists the snippets and says how to pick one while none is', () => {
    renderInEditor(<SnippetPanel />);
    const list = screen.getByRole('list', { name: 'Text snippets' });
    const hello = within(list).getByRole('button', { name: 'Hello {{first_name}}!' });
    expect(hello.getAttribute('aria-pressed')).toBe('false');
    expect(
      screen.getByText('Select a text snippet on the picture or in the list to edit it.'),
    ).toBeTruthy();
  });

  it('shows the picked snippet’s text, place and fallbacks', async () => {
    const { selected, text } = await withHelloSelected();
    expect(
      screen.getByRole('button', { name: 'Hello {{first_name}}!' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(text.value).toBe('Hello {{first_name}}!');
    expect(descriptionOf(text)).toContain('Write a merge field in double braces');
    expect(
      (within(selected).getByRole('spinbutton', { name: 'X' }) as HTMLInputElement).value,
    ).toBe('50');
    expect(
      (within(selected).getByRole('spinbutton', { name: 'Y' }) as HTMLInputElement).value,
    ).toBe('327');
    const fallbacks = within(selected).getByRole('group', {
      name: 'Custom data and fallback values',
    });
    expect(
      (within(fallbacks).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value,
    ).toBe('first_name');
    expect(
      (
        within(fallbacks).getByRole('textbox', {
          name: 'Fallback for {{first_name}}',
        }) as HTMLInputElement
      ).value,
    ).toBe('there');
  });

  it('adds a snippet, selects it, and rests the button for a second', async () => {
    const { user, store } = renderInEditor(<SnippetPanel />);
    const add = screen.getByRole('button', { name: 'Add text snippet' }) as HTMLButtonElement;
    await user.click(add);
    expect(add.disabled).toBe(true);
    expect(
      within(screen.getByRole('list', { name: 'Text snippets' })).getAllByRole('button'),
    ).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Selected text snippet' })).toBeTruthy();
    expect(store.getState().selection).toEqual({ kind: 'snippet', id: 'id-1' });
    await waitFor(() => expect(add.disabled).toBe(false), { timeout: 2000 });
  });

  it('shows what is typed in the list as the snippet’s name', async () => {
    const { user, text } = await withHelloSelected();
    await user.type(text, ' See you');
    expect(text.value).toBe('Hello {{first_name}}! See you');
    expect(screen.getByRole('button', { name: 'Hello {{first_name}}! See you' })).toBeTruthy();
  });

  it('deletes a merge field as one piece with Backspace, and its fallback with it', async () => {
    const { user, text, selected } = await withHelloSelected();
    // The caret goes to the end; the first Backspace takes "!", the second the whole merge field.
    await user.type(text, '{Backspace}{Backspace}');
    expect(text.value).toBe('Hello ');
    expect(
      within(selected).queryByRole('textbox', { name: 'Fallback for {{first_name}}' }),
    ).toBeNull();
    expect(within(selected).getByText(/No custom data yet\./)).toBeTruthy();
  });

  it('refuses an empty or digits-only merge field name with the spec’s words, keeping the old one', async () => {
    const { user, selected, text } = await withHelloSelected();
    const name = within(selected).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    await user.clear(name);
    expectFieldError(name, "Parameter's name field cannot be empty");
    await user.type(name, '123');
    expectFieldError(name, "Parameter's name field  cannot include only digits");
    expect(text.value).toBe('Hello {{first_name}}!');
    await user.tab();
    expect(name.value).toBe('first_name');
    expectNoFieldError(name);
  });

  it('renames a merge field in the text as it is typed', async () => {
    const { user, selected, text } = await withHelloSelected();
    const name = within(selected).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'vorname');
    expect(text.value).toBe('Hello {{vorname}}!');
    expectNoFieldError(name);
  });

  it('refuses a fallback longer than 255 characters with the spec’s words', async () => {
    const { user, selected } = await withHelloSelected();
    const fallback = within(selected).getByRole('textbox', { name: 'Fallback for {{first_name}}' });
    await user.clear(fallback);
    await user.click(fallback);
    await user.paste('x'.repeat(256));
    expectFieldError(fallback, 'Value may not be greater than 255 character!');
  });
});
