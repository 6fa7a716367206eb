/**
 * A weather condition in the rules panel (./WeatherCondition.tsx, ./RulesPanel.tsx;
 * docs/weather.md "Conditions"): added with rain at the reader's place, the place picked from
 * the design's parameters, the skies and temperatures changed with the schema's messages, and
 * undo.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { RulesPanel } from './RulesPanel.tsx';

const withRule = () =>
  openEditor({
    ...demoDocument(),
    rules: [
      {
        id: 'r1',
        name: 'Rainy',
        conditions: [],
        variant: { texts: {}, base_image: null, show_stickers: [], hide_stickers: [] },
        link_url: null,
      },
    ],
  });

describe('a weather condition', () => {
  it('is added with rain at the reader’s place, and takes a parameter’s place instead', async () => {
    const { user, store } = renderInEditor(<RulesPanel />, { store: withRule() });
    await user.selectOptions(screen.getByRole('combobox', { name: 'New condition' }), 'Weather');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    const place = screen.getByRole('combobox', { name: 'Place' }) as HTMLSelectElement;
    expect(place.value).toBe('');
    expect([...place.options].map((o) => o.textContent)).toEqual([
      'The reader’s place (from the CDN)',
      '{{first_name}}',
    ]);
    const skies = screen.getByRole('group', { name: 'Weather now (none chosen: any)' });
    expect(
      (within(skies).getByRole('checkbox', { name: 'Rain' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(store.getState().design!.rules[0]!.conditions).toEqual([
      { kind: 'weather', param_name: '', skies: ['rain'], min_temp_c: null, max_temp_c: null },
    ]);
    await user.selectOptions(place, 'first_name');
    await user.click(within(skies).getByRole('checkbox', { name: 'Snow' }));
    expect(store.getState().design!.rules[0]!.conditions[0]).toMatchObject({
      param_name: 'first_name',
      skies: ['rain', 'snow'],
    });
    act(() => runCommand(store, 'undo'));
    expect(store.getState().design!.rules[0]!.conditions[0]).toMatchObject({ skies: ['rain'] });
  });

  it('refuses no sky and no temperature, and a highest below the lowest, with their messages', async () => {
    const { user, store } = renderInEditor(<RulesPanel />, { store: withRule() });
    await user.selectOptions(screen.getByRole('combobox', { name: 'New condition' }), 'Weather');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    const skies = screen.getByRole('group', { name: 'Weather now (none chosen: any)' });
    await user.click(within(skies).getByRole('checkbox', { name: 'Rain' }));
    expect(screen.getByRole('alert').textContent).toContain('Choose a sky or a temperature.');
    expect(store.getState().design!.rules[0]!.conditions[0]).toMatchObject({ skies: ['rain'] });

    const lowest = screen.getByRole('spinbutton', { name: 'Lowest temperature (°C)' });
    await user.type(lowest, '20{Enter}');
    const highest = screen.getByRole('spinbutton', { name: 'Highest temperature (°C)' });
    await user.type(highest, '10{Enter}');
    expect(
      screen
        .getAllByRole('alert')
        .some((a) =>
          a.textContent?.includes('The highest temperature must not be below the lowest.'),
        ),
    ).toBe(true);
    expect(store.getState().design!.rules[0]!.conditions[0]).toMatchObject({
      min_temp_c: 20,
      max_temp_c: null,
    });
  });
});
