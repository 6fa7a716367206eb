/**
 * Metrics (functions/lib/metrics.ts, docs/infra.md "Observability"): in AWS each value is one
 * CloudWatch Embedded Metric Format line in the PicSnippets namespace with its dimension, which
 * is what the alarms of infra/constructs/monitoring.ts read; elsewhere the values are summed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRIC, METRICS_NAMESPACE, metricTotals, recordMetric } from '#lib/metrics.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('recordMetric', () => {
  it('sums values by name and dimension outside AWS', () => {
    const before = metricTotals()['RenderFallback{reason=unknown design}'] ?? 0;
    recordMetric(METRIC.renderFallback, 1, ['reason', 'unknown design']);
    recordMetric(METRIC.renderFallback, 1, ['reason', 'unknown design']);
    expect(metricTotals()['RenderFallback{reason=unknown design}']).toBe(before + 2);
  });

  it('writes one EMF line per value in AWS: the total and the breakdown by dimension, the unit', () => {
    vi.stubEnv('STAGE', 'aws');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    recordMetric(METRIC.renderFallback, 1, ['reason', 'render failed']);
    recordMetric(METRIC.renderMs, 42);
    const emf = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('_aws'))
      .map(
        (l) =>
          JSON.parse(l) as {
            _aws: {
              CloudWatchMetrics: Array<{
                Namespace: string;
                Dimensions: string[][];
                Metrics: Array<{ Name: string; Unit: string }>;
              }>;
            };
            [k: string]: unknown;
          },
      );
    expect(emf).toHaveLength(2);
    const [fallback, ms] = emf;
    const fallbackMetrics = fallback!._aws.CloudWatchMetrics[0]!;
    expect(fallbackMetrics.Namespace).toBe(METRICS_NAMESPACE);
    // The set the alarms read (service only) and the breakdown, counted once.
    expect(fallbackMetrics.Dimensions).toEqual([['service'], ['service', 'reason']]);
    expect(fallback!.reason).toBe('render failed');
    expect(fallback!.RenderFallback).toBe(1);
    expect(ms!._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
    expect(ms!._aws.CloudWatchMetrics[0]!.Metrics[0]).toEqual({
      Name: 'RenderMs',
      Unit: 'Milliseconds',
    });
    expect(ms!.RenderMs).toBe(42);
  });

  it('never throws, whatever it is given', () => {
    vi.stubEnv('STAGE', 'aws');
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(() =>
      recordMetric(METRIC.render, Number.NaN, ['outcome', 'x'.repeat(500)]),
    ).not.toThrow();
  });
});
