/**
 * The CloudFront SDK boundary of the CDN tests (functions/lib/cdn.ts): the real client with an
 * HTTP handler that records each request the SDK sends and answers as CloudFront does.
 */
import { Readable } from 'node:stream';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';

/** One request the SDK sent. */
export interface RecordedCloudFrontRequest {
  method: string;
  path: string;
  body: string;
}

/** CloudFront's 201 answer to CreateInvalidation. */
export const INVALIDATION_CREATED = `<?xml version="1.0"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>I2J0I21PCUYOIK</Id><Status>InProgress</Status><CreateTime>2026-11-22T00:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>1</Quantity><Items><Path>/r/demo-welcome*</Path></Items></Paths><CallerReference>x</CallerReference></InvalidationBatch></Invalidation>`;

/**
 * A CloudFront client whose every request is answered `status` with `body` and recorded.
 * @returns the client and the list its requests are appended to.
 */
export function recordingCloudFront(status = 201, body = INVALIDATION_CREATED) {
  const requests: RecordedCloudFrontRequest[] = [];
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

/** The `<Path>` items of a recorded CreateInvalidation body, in order. */
export const invalidatedPaths = (body: string): string[] =>
  [...body.matchAll(/<Path>([^<]{1,2000})<\/Path>/g)].map((m) => m[1]!);
