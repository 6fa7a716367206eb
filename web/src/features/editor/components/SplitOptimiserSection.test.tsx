/**
 * "Optimise for clicks" in the rules panel (./SplitOptimiserSection.tsx, ./RulesPanel.tsx;
 * docs/optimiser.md "In the product"): shown once two rules have a random split, switched on
 * with the defaults, the hand-set ranges replaced by a note, settings checked with the schema's
 * messages, and every change undoable.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '#shared/design.ts';
import { demoDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { runCommand } from '../commands.ts';
import { RulesPanel } from './RulesPanel.tsx';

const splitRule = (id: string, from: number, to: number) => ({
  id,
  name: `Variant ${id}`,
  conditions: [{ kind: 'split' as const, from, to }],
  variant: { texts: {}, base_image: null, show_stickers: [], hide_stickers: [] },
  link_url: null,
});

/** The demo design with `n` split rules. */
function withSplits(n: number): DesignDocument {
  const rules = [splitRule('a', 0, 50), splitRule('b', 50, 100)].slice(0, n);
  return { ...demoDocument(), rules };
}

describe('Optimise for clicks', () => {
  it('is not offered until two rules have a random split', () => {
    renderInEditor(<RulesPanel />, { store: openEditor(withSplits(1)) });
    expect(screen.queryByRole('checkbox', { name: 'Optimise for clicks' })).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'From %' })).toBeTruthy();
  });

  it('switches on with the defaults, hides the hand-set ranges, and undoes', async () => {
    const { user, store } = renderInEditor(<RulesPanel />, { store: openEditor(withSplits(2)) });
    const section = screen.getByRole('region', { name: 'Random split' });
    expect(within(section).getByText(/each rule's From and To percentages decide/)).toBeTruthy();
    expect(screen.getAllByRole('spinbutton', { name: 'From %' })).toHaveLength(2);

    await user.click(within(section).getByRole('checkbox', { name: 'Optimise for clicks' }));
    expect(store.getState().design!.split_optimiser).toEqual({
      min_sample_per_variant: 100,
      exploration_floor: 0.05,
    });
    expect(screen.queryByRole('spinbutton', { name: 'From %' })).toBeNull();
    expect(screen.getAllByText(/Share set by .Optimise for clicks./)).toHaveLength(2);
    expect(
      within(section).getByText(/The 2 rules with a random split share the traffic/),
    ).toBeTruthy();
    const floor = within(section).getByRole('spinbutton', { name: 'Exploration floor (%)' });
    expect((floor as HTMLInputElement).value).toBe('5');

    act(() => runCommand(store, 'undo'));
    expect(store.getState().design!.split_optimiser).toBeNull();
    expect(screen.getAllByRole('spinbutton', { name: 'From %' })).toHaveLength(2);
  });

  it('applies a setting, and refuses one out of range with the schema’s message', async () => {
    const { user, store } = renderInEditor(<RulesPanel />, { store: openEditor(withSplits(2)) });
    await user.click(screen.getByRole('checkbox', { name: 'Optimise for clicks' }));
    const minimum = screen.getByRole('spinbutton', { name: 'Minimum impressions per rule' });
    await user.clear(minimum);
    await user.type(minimum, '250{Enter}');
    expect(store.getState().design!.split_optimiser!.min_sample_per_variant).toBe(250);

    const floor = screen.getByRole('spinbutton', { name: 'Exploration floor (%)' });
    await user.clear(floor);
    await user.type(floor, '80{Enter}');
    expect(screen.getByRole('alert').textContent).toContain(
      'The exploration floor must be from 0 to 50 %.',
    );
    expect(floor.getAttribute('aria-invalid')).toBe('true');
    expect(store.getState().design!.split_optimiser!.exploration_floor).toBe(0.05);

    await user.clear(floor);
    await user.type(floor, '10{Enter}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(store.getState().design!.split_optimiser!.exploration_floor).toBe(0.1);
  });

  it('tells the user when only one split rule is left while it is on', () => {
    renderInEditor(<RulesPanel />, {
      store: openEditor({
        ...withSplits(1),
        split_optimiser: { min_sample_per_variant: 100, exploration_floor: 0.05 },
      }),
    });
    const note = screen.getByText(/the optimiser needs two rules to compare/);
    expect(note.getAttribute('role')).toBe('status');
  });
});
