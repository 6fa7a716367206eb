/**
 * The rules panel's command (docs/rules.md "Editor"): a rule list checked by the shared schema
 * replaces the design's, one undo step per change; a refused list changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { DesignDocumentSchema } from '../../shared/design.ts';
import { applyRuleVariant } from '../../shared/scene/rules.ts';
import { runCommand } from '../../web/src/features/editor/commands.ts';
import { RulesError } from '../../web/src/features/editor/commands/rules.ts';
import { demoDocument, openEditor } from '../support/editor.ts';

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

describe('setHiddenStickers', () => {
  const withStickers = () =>
    DesignDocumentSchema.parse({
      ...demoDocument(),
      graphics_data: [
        { uuid: 'badge', url: 'files/stickers/badge.png', left: 0, top: 0, width: 50, height: 50 },
        { uuid: 'star', url: 'files/stickers/star.png', left: 60, top: 0, width: 50, height: 50 },
      ],
    });

  it('hides stickers by default until a rule shows them, one undo step each', () => {
    const { store } = openEditor(withStickers());
    runCommand(store, 'setHiddenStickers', { uuids: ['star', 'gone', 'star'] });
    expect(store.getState().design!.hidden_stickers).toEqual(['star']);
    runCommand(store, 'setRules', {
      rules: [{ id: 'fr', variant: { show_stickers: ['star'], hide_stickers: ['badge'] } }],
    });
    const design = store.getState().design!;
    const uuids = (rule: (typeof design.rules)[number] | undefined) =>
      applyRuleVariant(design, rule).graphics_data.map((s) => s.uuid);
    expect(uuids(undefined)).toEqual(['badge']);
    expect(uuids(design.rules[0])).toEqual(['star']);
    runCommand(store, 'undo');
    runCommand(store, 'undo');
    expect(store.getState().design!.hidden_stickers).toEqual([]);
    runCommand(store, 'redo');
    expect(store.getState().design!.hidden_stickers).toEqual(['star']);
  });
});
