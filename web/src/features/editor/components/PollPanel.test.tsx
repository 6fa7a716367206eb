/**
 * The poll's properties (./PollPanel.tsx; docs/editor.md "Poll"): every control labelled, the
 * answers added, removed within 2 to 6 and moved by keyboard, a refused value shown with the
 * schema's message and not saved, the style collapsed, the panel colour's opacity kept and the
 * panel switched off and on, the voter list of text parameters, and a change undone.
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

describe('the poll panel, further', () => {
  it('moves an answer down and up by keyboard, the focus following it, each move undoable', async () => {
    const store = withPoll();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    await user.click(screen.getByRole('button', { name: 'Add answer' }));
    expect(
      (screen.getByRole('button', { name: 'Move answer 1 up' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(
      (screen.getByRole('button', { name: 'Move answer 3 down' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    screen.getByRole('button', { name: 'Move answer 1 down' }).focus();
    await user.keyboard('{Enter}');
    expect(pollOf(store).options.map((o) => o.label)).toEqual(['Option B', 'Option A', 'Option C']);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move answer 2 down');
    await user.keyboard('{Enter}');
    expect(pollOf(store).options.map((o) => o.label)).toEqual(['Option B', 'Option C', 'Option A']);
    // At the end, the focus moves to the answer's other button.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move answer 3 up');
    expect(screen.getByRole('textbox', { name: 'Answer 3' })).toHaveProperty('value', 'Option A');
    act(() => runCommand(store, 'undo'));
    expect(pollOf(store).options.map((o) => o.label)).toEqual(['Option B', 'Option A', 'Option C']);
  });

  it("keeps the panel colour's opacity, and switches the panel off and on again", async () => {
    const store = withPoll();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    await user.click(screen.getByText('Style'));
    expect(screen.getByRole('button', { name: 'Panel colour: #ffffff' })).toBeTruthy();
    const opacity = screen.getByRole('spinbutton', { name: 'Panel opacity' });
    expect((opacity as HTMLInputElement).value).toBe('90');
    await user.click(screen.getByRole('button', { name: 'Panel colour: #ffffff' }));
    const hex = screen.getByRole('textbox', { name: 'Hex' });
    await user.clear(hex);
    await user.type(hex, '#ffcc00');
    expect(pollOf(store).panel_fill).toBe('#ffcc00e6');
    await user.clear(opacity);
    await user.type(opacity, '50');
    expect(pollOf(store).panel_fill).toBe('#ffcc0080');

    const panel = screen.getByRole('checkbox', { name: 'Panel' });
    await user.click(panel);
    expect(pollOf(store).panel_fill).toBe('transparent');
    expect(screen.queryByRole('spinbutton', { name: 'Panel opacity' })).toBeNull();
    await user.click(panel);
    expect(pollOf(store).panel_fill).toBe('#ffffffe6');
  });

  it("offers the text parameters as voters, not the other dynamic stickers' parameters", () => {
    const store = withPoll();
    runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'qrCode' } });
    const poll = store.getState().design!.graphics_data.find((s) => s.poll)!;
    act(() => store.getState().select({ kind: 'sticker', id: poll.uuid }));
    renderInEditor(<StickerToolbar />, { store });
    const voter = screen.getByRole('combobox', { name: 'Voter parameter' });
    expect([...(voter as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      "All of the recipient's values",
      'first_name',
    ]);
  });
});
