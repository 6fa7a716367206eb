/**
 * CDN invalidation at the SDK boundary: the real CloudFront client, with an HTTP handler that
 * records the request the SDK sends and answers as CloudFront does.
 */
import { describe, expect, it } from 'vitest';
import { invalidateDesignRenders, invalidatePaths } from '#lib/cdn.ts';
import {
  ALL_RENDERS,
  MAX_DESIGN_WILDCARDS,
  renderPathsOf,
} from '#functions/designs/team-renders.ts';
import { INVALIDATION_CREATED as CREATED, recordingCloudFront } from '../support/cloudfront.ts';

const recordingClient = recordingCloudFront;

describe('invalidateDesignRenders', () => {
  it('asks CloudFront to invalidate every render URL of the design', async () => {
    const { client, requests } = recordingClient(201, CREATED);
    const id = await invalidateDesignRenders('demo-welcome', { client, distributionId: 'E123' });
    expect(id).toBe('I2J0I21PCUYOIK');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.path).toBe('/2020-05-31/distribution/E123/invalidation');
    expect(requests[0]!.body).toContain('<Path>/r/demo-welcome*</Path>');
  });

  it('does nothing without a distribution (the local stack)', async () => {
    const { client, requests } = recordingClient(201, CREATED);
    expect(
      await invalidateDesignRenders('demo-welcome', { client, distributionId: '' }),
    ).toBeUndefined();
    expect(requests).toHaveLength(0);
  });

  it('never fails a save when CloudFront refuses', async () => {
    const { client } = recordingClient(
      400,
      '<ErrorResponse><Error><Type>Sender</Type><Code>TooManyInvalidationsInProgress</Code><Message>slow down</Message></Error></ErrorResponse>',
    );
    expect(
      await invalidateDesignRenders('demo-welcome', { client, distributionId: 'E123' }),
    ).toBeUndefined();
  });
});

describe('invalidatePaths', () => {
  it('asks CloudFront to drop a deleted file and its thumbnail from the edge', async () => {
    const { client, requests } = recordingClient(201, CREATED);
    await invalidatePaths(['/files/teams/a.jpg', '/files/teams/a-thumb.jpg'], 'upload-1', {
      client,
      distributionId: 'E123',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toContain('<Quantity>2</Quantity>');
    expect(requests[0]!.body).toContain('<Path>/files/teams/a.jpg</Path>');
    expect(requests[0]!.body).toContain('<Path>/files/teams/a-thumb.jpg</Path>');
  });

  it('sends nothing for no paths', async () => {
    const { client, requests } = recordingClient(201, CREATED);
    expect(await invalidatePaths([], 'x', { client, distributionId: 'E123' })).toBeUndefined();
    expect(requests).toHaveLength(0);
  });
});

describe('renderPathsOf (a team watermark or plan change)', () => {
  it('gives one wildcard per design, duplicates dropped', () => {
    expect(renderPathsOf(['a1', 'b2', 'a1'])).toEqual(['/r/a1*', '/r/b2*']);
    expect(renderPathsOf([])).toEqual([]);
  });

  it('stays within CloudFront’s 15 wildcards: more designs, or an unfinished read, are one /r/*', () => {
    const ids = Array.from({ length: MAX_DESIGN_WILDCARDS }, (_, i) => `d${i}`);
    expect(renderPathsOf(ids)).toHaveLength(MAX_DESIGN_WILDCARDS);
    expect(renderPathsOf([...ids, 'one-more'])).toEqual([ALL_RENDERS]);
    expect(renderPathsOf(['a1'], false)).toEqual(['/r/*']);
  });
});
