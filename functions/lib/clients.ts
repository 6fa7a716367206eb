/**
 * AWS SDK v3 clients, created once per process at first use ("clients created once at
 * module scope, never per request"). Locally they point at DynamoDB Local and s3rver through
 * the endpoints in config; in AWS the SDK finds the regional endpoints.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { config } from './config.ts';
import { traced } from './tracing.ts';

let dynamo: DynamoDBClient | undefined;
let doc: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;

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
      requestHandler: CLIENT_TIMEOUTS.dynamodb,
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

/**
 * The S3 client. Locally: path-style addressing and checksums only where required, because
 * s3rver predates the SDK's default CRC32 checksums.
 */
export function s3Client(): S3Client {
  const c = config();
  s3 ??= traced(
    new S3Client({
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
      requestHandler: CLIENT_TIMEOUTS.s3,
    }),
  );
  return s3;
}

/** Drops the cached clients (the local stack and tests change endpoints between runs). */
export function resetClients(): void {
  dynamo?.destroy();
  s3?.destroy();
  dynamo = undefined;
  doc = undefined;
  s3 = undefined;
}
