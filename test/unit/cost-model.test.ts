/**
 * The cost model (infra/cost-model.ts, docs/infra.md "Cost model"): the document's table is the
 * one the model prints from the stack's settings, and the model follows those settings.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PRICES,
  costPerMillionRenders,
  costPerThousandTeams,
  costTable,
  renderImageCost,
  warmCapacityCost,
} from '#infra/cost-model.ts';
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

  it('prices warm capacity by the list: 200,000 rows keep 10 sandboxes for 25 minutes, $0.18', () => {
    const send = warmCapacityCost(200_000);
    expect(send).toMatchObject({ capacity: 10, seconds: 1_500 });
    // 10 × 2.9375 GB (3,008 MB) × 1,500 s, at the provisioned-concurrency rate on x86.
    expect(send.gbSeconds).toBeCloseTo(44_062.5, 6);
    expect(send.total).toBeCloseTo(44_062.5 * PRICES.lambdaProvisionedGbSecond.x64, 9);
    expect(send.total).toBeCloseTo(0.18, 2);
    // Twice the rows, twice the sandboxes; the deploy's cap holds; an empty list costs nothing.
    expect(warmCapacityCost(400_000).capacity).toBe(20);
    expect(warmCapacityCost(10_000_000, 100)).toMatchObject({ capacity: 100 });
    expect(warmCapacityCost(10_000_000, 100).total).toBeCloseTo(1.84, 2);
    expect(warmCapacityCost(0).total).toBe(0);
    // It follows the render function's memory.
    expect(warmCapacityCost(200_000, 1_000, RENDER_MEMORY_MB / 2).total).toBeCloseTo(
      send.total / 2,
      9,
    );
  });

  it('prices the render image by its ECR storage, the older images growing with deploys', () => {
    const month = renderImageCost();
    expect(month.lines['ECR storage, the deployed image']).toBeCloseTo(0.04, 9);
    expect(month.lines["ECR storage, a month's 10 older images (unpruned)"]).toBeCloseTo(0.4, 9);
    expect(renderImageCost(0).total).toBeCloseTo(0.04, 9);
  });
});
