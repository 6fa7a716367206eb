import { useId } from 'react';
import type { DesignDocument } from '#shared/design.ts';
import { optimisedRuleIds } from '#shared/scene/optimised-split.ts';
import { SplitOptimiserSchema } from '#shared/scene/rules.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { runCommand } from '../commands.ts';
import { RulesError } from '../commands/rules.ts';
import { DraftField } from './DraftField.tsx';

/** Applies a typed number, or says it is not one. */
const asNumber = (text: string, apply: (n: number) => string | null): string | null => {
  const n = Number(text);
  return text.trim() === '' || !Number.isFinite(n) ? 'Enter a number.' : apply(n);
};

/** The settings a newly switched-on optimiser starts with (the schema's defaults). */
const DEFAULTS = SplitOptimiserSchema.parse({});

/**
 * "Optimise for clicks" (docs/optimiser.md "In the product"): shown once two rules or more have a
 * random split. Switched on, the split rules' shares follow their clicks (the analytics roll-up
 * reweighs them) and their hand-set ranges are not used; the minimum sample and the exploration
 * floor are set here. Each change is one undoable command (`setSplitOptimiser`).
 */
export function SplitOptimiserSection({ design }: { design: DesignDocument }) {
  const { store } = useEditorContext();
  const headingId = useId();
  const splitRules = design.rules.filter((r) => r.conditions.some((c) => c.kind === 'split'));
  if (splitRules.length < 2 && !design.split_optimiser) return null;
  const settings = design.split_optimiser;

  /** Runs the command; returns the problem, or null. */
  const apply = (next: unknown, key?: string): string | null => {
    try {
      runCommand(store, 'setSplitOptimiser', { settings: next, ...(key ? { key } : {}) });
      return null;
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      return error.message;
    }
  };
  const variants = optimisedRuleIds({ ...design, split_optimiser: settings ?? DEFAULTS }).length;

  return (
    <section className="rules-panel__optimiser card stack" aria-labelledby={headingId}>
      <h3 id={headingId} className="card__title">
        Random split
      </h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={settings !== null}
          onChange={(e) => apply(e.target.checked ? DEFAULTS : null)}
        />
        Optimise for clicks
      </label>
      {settings ? (
        <>
          <p className="field__hint">
            The {variants} rules with a random split share the traffic by their clicks: equally
            until each has been seen {settings.min_sample_per_variant} times, then more to the rule
            most likely to be clicked, reweighed once a day from the campaign analytics. A recipient
            keeps their rule between reweighs. The From and To percentages are not used.
          </p>
          {variants < 2 && (
            <p className="field__error" role="status">
              ! Add a random split to a second rule: the optimiser needs two rules to compare.
            </p>
          )}
          <DraftField
            label="Minimum impressions per rule"
            type="number"
            hint="Each rule is seen this often before traffic moves (1–100,000)."
            value={String(settings.min_sample_per_variant)}
            onCommit={(text) =>
              asNumber(text, (n) =>
                apply({ ...settings, min_sample_per_variant: n }, 'min_sample_per_variant'),
              )
            }
          />
          <DraftField
            label="Exploration floor (%)"
            type="number"
            hint="The share every rule keeps once traffic moves, so a slow starter can come back (0–50)."
            value={String(Math.round(settings.exploration_floor * 1000) / 10)}
            onCommit={(text) =>
              asNumber(text, (n) =>
                apply({ ...settings, exploration_floor: n / 100 }, 'exploration_floor'),
              )
            }
          />
        </>
      ) : (
        <p className="field__hint">
          Off: each rule&apos;s From and To percentages decide who sees it. On: the shares follow
          the clicks.
        </p>
      )}
    </section>
  );
}
