/**
 * The rules panel's command (docs/rules.md "Editor"): a rule list checked by the shared schema
 * replaces the design's, one undo step per change; a refused list changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { RulesError } from '../../web/src/features/editor/commands/rules.ts';
import { openEditor } from '../support/editor.ts';

const rule = { id: 'fr', conditions: [{ kind: 'country', countries: ['fr'] }] };

describe('setRules', () => {
  it('replaces the rules as the schema reads them, and undo and redo walk the steps', () => {
    const { store } = openEditor();
    expect(store.getState().design!.rules).toEqual([]);
    runCommand(store, 'setRules', { rules: [rule] });
    runCommand(store, 'setRules', { rules: [{ ...rule, link_url: 'https://x.example/fr' }] });
    expect(store.getState().design!.rules[0]).toMatchObject({
      conditions: [{ kind: 'country', countries: ['FR'] }],
      link_url: 'https://x.example/fr',
    });
    runCommand(store, 'undo');
    expect(store.getState().design!.rules[0]!.link_url).toBeNull();
    runCommand(store, 'undo');
    expect(store.getState().design!.rules).toEqual([]);
    runCommand(store, 'redo');
    expect(store.getState().design!.rules.map((r) => r.id)).toEqual(['fr']);
  });

  it('refuses a list the server would refuse, naming the problem, and changes nothing', () => {
    const { store } = openEditor();
    runCommand(store, 'setRules', { rules: [rule] });
    const before = store.getState().design;
    expect(() =>
      runCommand(store, 'setRules', { rules: [{ ...rule, link_url: 'javascript:alert(1)' }] }),
    ).toThrow(RulesError);
    expect(() => runCommand(store, 'setRules', { rules: [rule, rule] })).toThrow(
      'Rule ids repeat.',
    );
    expect(store.getState().design).toBe(before);
  });
});
