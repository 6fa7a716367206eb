/**
 * The weather sticker's properties (./WeatherPanel.tsx; docs/editor.md "Weather"): every control
 * labelled, the fallback place and the reader's place, the units, a refused text shown with the
 * schema's message and not saved, the style collapsed, and a change undone.
 */
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { StickerToolbar } from './StickerTools.tsx';

function withWeather() {
  const store = openEditor();
  runCommand(store, 'addSticker', { source: { kind: 'dynamic', dynamicType: 'weather' } });
  return store;
}

const stickerOf = (store: ReturnType<typeof openEditor>) =>
  store.getState().design!.graphics_data.find((s) => s.dynamicStickerType === 'weather')!;

describe('the weather panel', () => {
  it('labels every control and keeps the style collapsed', async () => {
    const { user } = renderInEditor(<StickerToolbar />, { store: withWeather() });
    expect(screen.getByRole('toolbar', { name: 'Weather tools' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Parameter' })).toHaveProperty('value', 'weather1');
    expect(screen.getByRole('textbox', { name: 'Fallback place' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: "Use the reader's place" })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '°C' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: '°F' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: "Show the place's name" })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByRole('textbox', { name: 'Text when no weather is known' })).toBeTruthy();
    const style = screen.getByText('Style').closest('details')!;
    expect(style.open).toBe(false);
    await user.click(screen.getByText('Style'));
    expect(screen.getByRole('spinbutton', { name: 'Text size' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Text colour/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Icon colour/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Panel' })).toBeTruthy();
  });

  it('saves the place settings and units, each an undo step', async () => {
    const store = withWeather();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    await user.type(screen.getByRole('textbox', { name: 'Fallback place' }), 'Madrid');
    expect(stickerOf(store).dynamicStickerUrl).toBe('Madrid');
    await user.click(screen.getByRole('checkbox', { name: "Use the reader's place" }));
    await user.click(screen.getByRole('radio', { name: '°F' }));
    expect(stickerOf(store).weather).toMatchObject({ use_viewer_place: true, unit: 'f' });
    act(() => runCommand(store, 'undo'));
    expect(stickerOf(store).weather!.unit).toBe('c');
    expect(screen.getByRole('radio', { name: '°C' })).toHaveProperty('checked', true);
    act(() => runCommand(store, 'undo'));
    expect(stickerOf(store).weather!.use_viewer_place).toBe(false);
  });

  it('offers units by the reader’s country', async () => {
    const store = withWeather();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    await user.click(screen.getByRole('radio', { name: "By the reader's country" }));
    expect(stickerOf(store).weather!.unit).toBe('auto');
  });

  it('shows a refused fallback text with the schema message, saving nothing', async () => {
    const store = withWeather();
    const { user } = renderInEditor(<StickerToolbar />, { store });
    const text = screen.getByRole('textbox', { name: 'Text when no weather is known' });
    await user.type(text, 'Weather unavailable');
    expect(stickerOf(store).weather!.fallback_text).toBe('Weather unavailable');
    await user.type(text, ' — '.padEnd(45, 'x'));
    expect(screen.getByText('The fallback text may have at most 60 characters.')).toBeTruthy();
    expect(text.getAttribute('aria-invalid')).toBe('true');
    // Saved while it fitted: the 61st character onwards is not.
    expect(stickerOf(store).weather!.fallback_text).toHaveLength(60);
    expect((text as HTMLInputElement).value).toHaveLength(64);
  });

  it('shows the canvas without weather while chosen, and the sample again once closed', async () => {
    const store = withWeather();
    const { user, unmount } = renderInEditor(<StickerToolbar />, { store });
    const none = screen.getByRole('radio', { name: 'No weather known' });
    expect(screen.getByRole('radio', { name: /^Sample weather/ })).toHaveProperty('checked', true);
    await user.click(none);
    expect(store.getState().weatherPreview).toBe('unknown');
    // A view choice: nothing to undo, the document unchanged.
    expect(store.getState().history.undo).toHaveLength(1);
    unmount();
    expect(store.getState().weatherPreview).toBe('sample');
  });
});
