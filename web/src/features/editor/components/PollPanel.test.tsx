/**
 * The poll's properties (./PollPanel.tsx; docs/editor.md "Poll"): every control labelled, the
 * answers added and removed within 2 to 6, a refused value shown with the schema's message and
 * not saved, the style collapsed, and a change undone.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { POLL_MESSAGES } from '#shared/scene/poll.ts';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { StickerToolbar } from './StickerTools.tsx';

function withPoll() {
  const store = openEditor();
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'poll' } });
  return store;
}

const pollOf = (store: ReturnType<typeof openEditor>) =>
  store.getState().design!.graphics_data.find((s) => s.dynamicStickerType === 'poll')!.poll!;

describe('the poll panel', () => {
  it('labels every control and keeps the style collapsed', () => {
    renderInEditor(<StickerToolbar />, { store: withPoll() });
    expect(screen.getByRole('toolbar', { name: 'Poll tools' })).toBeTruthy();
    for (const name of ['Question', 'Answer 1', 'Answer 1 link', 'Answer 2'])
      expect(screen.getByRole('textbox', { name })).toBeTruthy();
    expect((screen.getByLabelText('Closes at') as HTMLInputElement).type).toBe('datetime-local');
    expect(screen.getByRole('combobox', { name: 'Voter parameter' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Show live results' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Keep voter values' })).toBeTruthy();
    expect(screen.getByRole('spinbutton', { name: /Results kept/ })).toBeTruthy();
    const style = screen.getByText('Style').closest('details')!;
    expect(style.open).toBe(false);
  });

  it('adds answers up to 6 and removes them down to 2', async () => {
    const store = withPoll();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const add = screen.getByRole('button', { name: 'Add answer' });
    expect(
      (screen.getByRole('button', { name: 'Remove answer 1' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    for (let i = 0; i < 4; i++) await user.click(add);
    expect(pollOf(store).options).toHaveLength(6);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove answer 3' }));
    expect(pollOf(store).options.map((o) => o.label)).toEqual([
      'Option A',
      'Option B',
      'Option D',
      'Option E',
      'Option F',
    ]);
    expect((add as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a refused value with the schema message, saving nothing, and undoes a change', async () => {
    const store = withPoll();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const link = screen.getByRole('textbox', { name: 'Answer 1 link' });
    await user.type(link, 'ftp:x');
    expect(screen.getByText(POLL_MESSAGES.url)).toBeTruthy();
    expect(link.getAttribute('aria-invalid')).toBe('true');
    expect(pollOf(store).options[0]!.url).toBe('');

    const kept = screen.getByRole('spinbutton', { name: /Results kept/ });
    await user.clear(kept);
    await user.type(kept, '5');
    expect(screen.getByText(POLL_MESSAGES.ttl)).toBeTruthy();
    expect(pollOf(store).results_ttl_s).toBe(60);

    await user.click(screen.getByRole('checkbox', { name: 'Show live results' }));
    expect(pollOf(store).show_results).toBe(false);
    act(() => runCommand(store, 'undo'));
    expect(pollOf(store).show_results).toBe(true);
    expect(
      (screen.getByRole('checkbox', { name: 'Show live results' }) as HTMLInputElement).checked,
    ).toBe(true);
  });
});
