/**
 * Uploads the hosted font families (docs/fonts.md "Hosted files") to the assets bucket, as
 * `npm run deploy` does after `cdk deploy`: each face under `files/fonts/hosted/{slug}/`, served
 * by the `/files/*` CloudFront behaviour. Only missing files are sent, and nothing is ever
 * deleted: a slug carries its package version, and designs or cached renders may still name an
 * older one.
 */
import { readFile } from 'node:fs/promises';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { HOSTED_FONTS_PREFIX, hostedFontFiles } from '../local/seed-fonts.ts';

/**
 * Puts every hosted face the bucket lacks.
 * @returns how many files were uploaded and how many were already there.
 * @throws the S3 or file-system error (a face missing from node_modules: run npm ci).
 */
export async function uploadHostedFonts(
  s3: S3Client,
  bucket: string,
): Promise<{ uploaded: number; present: number }> {
  const have = new Set<string>();
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: HOSTED_FONTS_PREFIX,
        ContinuationToken: token,
      }),
    );
    for (const o of page.Contents ?? []) if (o.Key) have.add(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  let uploaded = 0;
  let present = 0;
  for (const file of hostedFontFiles()) {
    if (have.has(file.key)) {
      present += 1;
      continue;
    }
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: file.key,
        Body: await readFile(file.path),
        ContentType: 'font/woff2',
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
    uploaded += 1;
  }
  return { uploaded, present };
}
