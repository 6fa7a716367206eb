/**
 * AWS SDK v3 clients, created once per process at first use ("clients created once at
 * module scope, never per request"). Locally they point at DynamoDB Local and s3rver through
 * the endpoints in config; in AWS the SDK finds the regional endpoints.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { config } from './config.ts';
import { traced } from './tracing.ts';

let dynamo: DynamoDBClient | undefined;
let doc: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let s3Presign: S3Client | undefined;

const localCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Time budgets of one HTTP attempt, ms (docs/operations.md "Timeouts"): a DynamoDB or S3 call
 * that hangs (a network fault, a throttled partition that never answers) must fail within the
 * function's own timeout, so the render URL serves its fallback image and the API answers 5xx
 * instead of the Lambda dying silently. `connectionTimeout` bounds the TCP/TLS connect,
 * `requestTimeout` the wait for the answer once sent (`throwOnRequestTimeout`: without it the
 * handler only logs a warning and keeps waiting); the SDK retries within `maxAttempts` (3).
 * test/integration/client-timeouts.test.ts.
 */
export const CLIENT_TIMEOUTS = {
  dynamodb: { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true },
  s3: { connectionTimeout: 1_000, requestTimeout: 4_000, throwOnRequestTimeout: true },
} as const;

/**
 * The budgets of `npm start`'s product (STAGE=local), ms: the emulators run in one Java and one
 * Node process on the developer's machine, and DynamoDB Local can stall for seconds while its
 * JIT warms up or the machine is busy (creating the table and seeding the demo data on a loaded
 * 2-core machine took longer than 3 s per call). Nothing there has a Lambda timeout to keep, so
 * the local product waits longer instead of failing to start; the test stack and AWS keep
 * {@link CLIENT_TIMEOUTS} (docs/operations.md "Timeouts").
 */
export const LOCAL_CLIENT_TIMEOUTS = {
  dynamodb: { ...CLIENT_TIMEOUTS.dynamodb, requestTimeout: 30_000 },
  s3: { ...CLIENT_TIMEOUTS.s3, requestTimeout: 30_000 },
} as const;

/** The budgets for `stage` (functions/lib/config.ts STAGE). */
export const clientTimeouts = (
  stage: 'local' | 'test' | 'aws',
): typeof CLIENT_TIMEOUTS | typeof LOCAL_CLIENT_TIMEOUTS =>
  stage === 'local' ? LOCAL_CLIENT_TIMEOUTS : CLIENT_TIMEOUTS;

/** The low-level DynamoDB client (ElectroDB takes this or the document client). */
export function dynamoClient(): DynamoDBClient {
  const c = config();
  dynamo ??= traced(
    new DynamoDBClient({
      region: c.AWS_REGION,
      ...(c.DYNAMODB_ENDPOINT
        ? {
            endpoint: c.DYNAMODB_ENDPOINT,
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
      maxAttempts: 3,
      requestHandler: clientTimeouts(c.STAGE).dynamodb,
    }),
  );
  return dynamo;
}

/** The DynamoDB document client (plain JS values, `undefined` removed). */
export function documentClient(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  return doc;
}

/** The S3 client's options (see {@link s3Client}). */
function s3Options(): S3ClientConfig {
  const c = config();
  return {
    region: c.AWS_REGION,
    ...(c.S3_ENDPOINT
      ? {
          endpoint: c.S3_ENDPOINT,
          forcePathStyle: true,
          credentials: localCredentials,
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
    requestHandler: clientTimeouts(c.STAGE).s3,
  };
}

/**
 * The S3 client. Locally: path-style addressing and checksums only where required, because
 * s3rver predates the SDK's default CRC32 checksums.
 */
export function s3Client(): S3Client {
  s3 ??= traced(new S3Client(s3Options()));
  return s3;
}

/**
 * The S3 client that presigns URLs a browser uses (the send-list upload's PUT, docs/send-lists.md
 * "The API"): as {@link s3Client}, with checksums only where required in AWS too. With the SDK's
 * default a presigned PutObject carries `x-amz-checksum-crc32` of an empty body, and S3 refuses
 * the file sent to it (test/unit/s3-presign.test.ts).
 */
export function s3PresignClient(): S3Client {
  s3Presign ??= new S3Client({ ...s3Options(), requestChecksumCalculation: 'WHEN_REQUIRED' });
  return s3Presign;
}

/** Drops the cached clients (the local stack and tests change endpoints between runs). */
export function resetClients(): void {
  dynamo?.destroy();
  s3?.destroy();
  s3Presign?.destroy();
  dynamo = undefined;
  doc = undefined;
  s3 = undefined;
  s3Presign = undefined;
}
