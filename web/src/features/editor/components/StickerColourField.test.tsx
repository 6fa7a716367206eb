/**
 * A regular sticker's colour (./StickerColourField.tsx; docs/editor.md "Sticker colour"): the
 * labelled picker sets the colour (the first filter, mode screen), No colour clears it, and each
 * change is one undo step.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { StickerToolbar } from './StickerTools.tsx';

function withSticker() {
  const store = openEditor();
  runCommand(store, 'addSticker', {
    source: {
      kind: 'image',
      url: 'stickers/star.png',
      stickerType: 'plain',
      width: 200,
      height: 200,
    },
  });
  return store;
}

const filtersOf = (store: ReturnType<typeof openEditor>) =>
  store.getState().design!.graphics_data[0]!.filters;

describe("a sticker's colour", () => {
  it('is set with the labelled picker, cleared with No colour, each undoable', async () => {
    const store = withSticker();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const swatch = screen.getByRole('button', { name: 'Sticker colour: none' });
    expect(screen.queryByRole('button', { name: 'No colour' })).toBeNull();

    await user.click(swatch);
    const hex = screen.getByRole('textbox', { name: 'Hex' });
    await user.clear(hex);
    await user.type(hex, '#ff0000');
    expect(filtersOf(store)).toEqual([
      { type: 'BlendColor', color: '#ff0000', mode: 'screen', alpha: 1 },
    ]);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Sticker colour: #ff0000' })).toBeTruthy();

    act(() => runCommand(store, 'undo'));
    expect(filtersOf(store)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sticker colour: none' })).toBeTruthy();
    act(() => runCommand(store, 'redo'));
    expect(filtersOf(store)[0]?.color).toBe('#ff0000');

    await user.click(screen.getByRole('button', { name: 'No colour' }));
    expect(filtersOf(store)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sticker colour: none' })).toBeTruthy();
    act(() => runCommand(store, 'undo'));
    expect(filtersOf(store)[0]?.color).toBe('#ff0000');
  });
});
