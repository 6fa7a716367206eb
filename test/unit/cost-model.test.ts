/**
 * The cost model (infra/cost-model.ts, docs/infra.md "Cost model"): the document's table is the
 * one the model prints from the stack's settings, and the model follows those settings.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costPerMillionRenders, costPerThousandTeams, costTable } from '#infra/cost-model.ts';
import { RENDER_MEMORY_MB } from '#infra/constructs/render.ts';

describe('the cost model', () => {
  it('is the table docs/infra.md shows', () => {
    const doc = readFileSync(new URL('../../docs/infra.md', import.meta.url), 'utf8');
    expect(doc).toContain(costTable());
  });

  it('follows the render function memory and CPU', () => {
    const base = costPerMillionRenders();
    const half = costPerMillionRenders(RENDER_MEMORY_MB / 2);
    expect(half.lines['Lambda render time']).toBeCloseTo(base.lines['Lambda render time']! / 2, 6);
    expect(
      costPerMillionRenders(RENDER_MEMORY_MB, 'arm64').lines['Lambda render time'],
    ).toBeLessThan(base.lines['Lambda render time']!);
  });

  it('names what dominates each unit, and sums its lines', () => {
    for (const unit of [costPerMillionRenders(), costPerThousandTeams()]) {
      const lines = Object.entries(unit.lines);
      const largest = Math.max(...lines.map(([, usd]) => usd));
      expect(unit.lines[unit.dominant]).toBe(largest);
      expect(unit.total).toBeCloseTo(
        lines.reduce((sum, [, usd]) => sum + usd, 0),
        9,
      );
    }
    expect(costPerMillionRenders().dominant).toBe('CloudFront data out');
  });

  it('prices the API functions by CPU: arm64 time costs less, the fixed costs stay', () => {
    expect(costPerThousandTeams('arm64').lines['Lambda API time']).toBeLessThan(
      costPerThousandTeams('x64').lines['Lambda API time']!,
    );
    expect(costPerThousandTeams('arm64').lines['Fixed (WAF, alarms, keys)']).toBe(
      costPerThousandTeams('x64').lines['Fixed (WAF, alarms, keys)'],
    );
  });
});
