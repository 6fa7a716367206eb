/**
 * CDN invalidation at the SDK boundary: the real CloudFront client, with an HTTP handler that
 * records the request the SDK sends and answers as CloudFront does.
 */
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { describe, expect, it } from 'vitest';
import { invalidateDesignRenders, invalidatePaths } from '#lib/cdn.ts';

function recordingClient(status: number, body: string) {
  const requests: Array<{ method: string; path: string; body: string }> = [];
  const client = new CloudFrontClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    requestHandler: {
      handle: async (request: { method: string; path: string; body?: string }) => {
        requests.push({
          method: request.method,
          path: request.path,
          body: String(request.body ?? ''),
        });
        const { Readable } = await import('node:stream');
        return {
          response: {
            statusCode: status,
            headers: { 'content-type': 'text/xml' },
            body: Readable.from([Buffer.from(body)]),
          },
        };
      },
    } as never,
  });
  return { client, requests };
}

const CREATED = `<?xml version="1.0"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>I2J0I21PCUYOIK</Id><Status>InProgress</Status><CreateTime>2026-11-22T00:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>1</Quantity><Items><Path>/r/demo-welcome*</Path></Items></Paths><CallerReference>x</CallerReference></InvalidationBatch></Invalidation>`;

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
