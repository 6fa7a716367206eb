/**
 * The rules panel's command (docs/rules.md; docs/editor.md "Commands"): the design's whole rule
 * list is replaced by the panel's edited copy, one undo step per change (typing in one field of
 * one rule merges), after the shared schema has checked it, so the editor never saves a rule set
 * the server would refuse.
 */
import { castDraft } from 'immer';
import { RulesSchema, type Rule } from '#shared/scene/rules.ts';
import type { EditorCommand } from '../commands.ts';
import type { EditorState } from '../store/index.ts';
import { changeIntent } from './intent.ts';

/** The arguments of the rule commands. */
export interface RuleCommandArgs {
  /** `key` merges consecutive changes of one field (`{ruleId}:{field}`); absent: one step. */
  setRules: { rules: unknown[]; key?: string };
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
};
