/**
 * The send-list upload URL in AWS (functions/lib/clients.ts `s3PresignClient`;
 * docs/adr/0055-send-list-uploads-from-the-browser.md "Send-list uploads from the browser"): the
 * presigned PUT a browser sends the file to carries no checksum of its own (the SDK's default signs
 * the CRC32 of an empty body, and S3 would refuse the file), signs the length and type the API
 * announced, and goes to the assets bucket's regional origin, the one the SPA's
 * Content-Security-Policy allows.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { resetClients, s3PresignClient } from '#lib/clients.ts';
import { resetConfig } from '#lib/config.ts';

beforeAll(() => {
  // As in AWS: no local endpoint, the SDK's regional one.
  vi.stubEnv('S3_ENDPOINT', '');
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
  resetConfig();
  resetClients();
});

afterAll(() => {
  resetClients();
  vi.unstubAllEnvs();
  resetConfig();
});

it('presigns an upload PUT without a checksum, to the bucket’s regional origin', async () => {
  const url = new URL(
    await getSignedUrl(
      s3PresignClient(),
      new PutObjectCommand({
        Bucket: 'picsnippets-assets-1234',
        Key: 'send-lists/job/upload',
        ContentLength: 1234,
        ContentType: 'text/csv',
      }),
      { expiresIn: 900, signableHeaders: new Set(['content-length', 'content-type']) },
    ),
  );
  expect(url.origin).toBe('https://picsnippets-assets-1234.s3.eu-west-1.amazonaws.com');
  const names = [...url.searchParams.keys()].map((n) => n.toLowerCase());
  expect(names.filter((n) => n.includes('checksum'))).toEqual([]);
  expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
});
