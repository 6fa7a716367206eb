/**
 * The rules panel's command (docs/rules.md; docs/editor.md "Commands"): the design's whole rule
 * list is replaced by the panel's edited copy, one undo step per change (typing in one field of
 * one rule merges), after the shared schema has checked it, so the editor never saves a rule set
 * the server would refuse.
 */
import { castDraft } from 'immer';
import { DesignDocumentFieldsSchema } from '#shared/design.ts';
import { RulesSchema, SplitOptimiserSchema, type Rule } from '#shared/scene/rules.ts';
import type { EditorCommand } from '../commands.ts';
import type { EditorState } from '../store/index.ts';
import { changeIntent } from './intent.ts';

/** The arguments of the rule commands. */
export interface RuleCommandArgs {
  /** `key` merges consecutive changes of one field (`{ruleId}:{field}`); absent: one step. */
  setRules: { rules: unknown[]; key?: string };
  /** The sticker uuids hidden unless the matching rule shows them (the whole list). */
  setHiddenStickers: { uuids: string[] };
  /**
   * "Optimise for clicks" on the random split (docs/optimiser.md "In the product"): the
   * settings (`min_sample_per_variant`, `exploration_floor` 0–0.5), or null to use the hand-set
   * ranges; `key` merges consecutive changes of one field.
   */
  setSplitOptimiser: { settings: unknown; key?: string };
}

/** Thrown when the edited rules break the shared schema; `message` is the first problem. */
export class RulesError extends Error {
  constructor(
    message: string,
    /** The problem's path in the rule list (`0.link_url`). */
    readonly path: string,
  ) {
    super(message);
    this.name = 'RulesError';
  }
}

/**
 * The rules as the schema reads them, or the first problem.
 * @throws RulesError when they break the schema.
 */
export function checkedRules(rules: unknown[]): Rule[] {
  const parsed = RulesSchema.safeParse(rules);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new RulesError(issue.message, issue.path.join('.'));
}

const hasDesign = (s: EditorState) => s.design !== null;

export const RULE_COMMANDS: {
  [K in keyof RuleCommandArgs]: EditorCommand<RuleCommandArgs[K]>;
} = {
  setRules: {
    name: 'setRules',
    label: 'Rules',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'rules.event' },
    enabled: hasDesign,
    /**
     * Replaces the design's rules (docs/rules.md "Order").
     * @throws RulesError with the schema's message; nothing changes then.
     */
    perform(store, { rules, key }) {
      const next = checkedRules(rules);
      // Without a key, each run is its own step: a unique key never merges.
      const mergeKey = key ? `${this.name}:${key}` : `${this.name}:${Date.now()}:${Math.random()}`;
      store.getState().applyChange(changeIntent(this, mergeKey), (draft) => {
        draft.rules = castDraft(next);
      });
    },
  },
  setHiddenStickers: {
    name: 'setHiddenStickers',
    label: 'Stickers hidden by default',
    shortcuts: [],
    history: { kind: 'step', eventType: 'rules.event' },
    enabled: hasDesign,
    /**
     * Replaces the design's `hidden_stickers` (docs/rules.md "Variants"): the default shows
     * them hidden, a rule whose variant lists one in `show_stickers` shows it. Uuids of
     * stickers the design does not have are dropped, so the list never outgrows the stickers.
     * @throws RulesError when the list breaks the shared schema; nothing changes then.
     */
    perform(store, { uuids }) {
      const stickers = new Set(store.getState().design?.graphics_data.map((s) => s.uuid));
      const parsed = DesignDocumentFieldsSchema.shape.hidden_stickers.safeParse([
        ...new Set(uuids.filter((uuid) => stickers.has(uuid))),
      ]);
      if (!parsed.success) throw new RulesError(parsed.error.issues[0]!.message, 'hidden_stickers');
      store.getState().applyChange(changeIntent(this), (draft) => {
        draft.hidden_stickers = parsed.data;
      });
    },
  },
  setSplitOptimiser: {
    name: 'setSplitOptimiser',
    label: 'Optimise for clicks',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'rules.event' },
    enabled: hasDesign,
    /**
     * Turns "Optimise for clicks" on (with its settings) or off (null) (docs/optimiser.md "In
     * the product").
     * @throws RulesError with the schema's message (path `split_optimiser.{field}`); nothing
     *   changes then.
     */
    perform(store, { settings, key }) {
      const parsed = SplitOptimiserSchema.nullable().safeParse(settings);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new RulesError(issue.message, ['split_optimiser', ...issue.path].join('.'));
      }
      const mergeKey = key ? `${this.name}:${key}` : `${this.name}:${Date.now()}:${Math.random()}`;
      store.getState().applyChange(changeIntent(this, mergeKey), (draft) => {
        draft.split_optimiser = parsed.data;
      });
    },
  },
};
