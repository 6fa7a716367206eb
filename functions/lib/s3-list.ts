/**
 * Listing a bucket's objects, through the SDK's own paginator (`paginateListObjectsV2`), with a
 * bound: the deploy's upload, the font and sticker seeds and the library installer each compare
 * what a bucket holds with what they would write, and none of them may loop forever over a
 * bucket that is not what they expect.
 */
import { paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';

/**
 * The keys under `prefix` of `bucket`, with their ETags (quotes removed).
 * @param max the most objects read; past it this throws, naming the bucket and prefix.
 * @param pageSize objects per ListObjectsV2 call (S3's own cap is 1,000).
 * @returns a map of key → ETag, in the listing's (key) order.
 * @throws Error when the bucket holds more than `max` objects under `prefix`; the SDK's errors
 *   (no such bucket, access denied) as they are.
 */
export async function listObjects(
  s3: S3Client,
  bucket: string,
  prefix: string,
  max: number,
  pageSize = 1000,
): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  for await (const page of paginateListObjectsV2(
    { client: s3, pageSize },
    { Bucket: bucket, ...(prefix ? { Prefix: prefix } : {}) },
  )) {
    for (const o of page.Contents ?? []) {
      if (o.Key) objects.set(o.Key, (o.ETag ?? '').replaceAll('"', ''));
    }
    if (objects.size > max) {
      throw new Error(`${bucket}/${prefix} lists more than ${max} objects.`);
    }
  }
  return objects;
}
