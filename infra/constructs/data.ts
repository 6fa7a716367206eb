/**
 * The data resources: the single DynamoDB table and the S3 buckets, built from the plain-data
 * definitions the local stack also uses (shared/resources.ts; docs/infra.md "What the stack
 * creates").
 */
import { ATHENA_RESULTS_PREFIX, CDN_LOG_V2_PREFIX } from './analytics.ts';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKETS, TABLE, type BucketDefinition, type BucketRole } from '#shared/resources.ts';

/** How long access logs (S3 server access logs, CloudFront standard logs) are kept, days. */
export const ACCESS_LOG_RETENTION_DAYS = 90;
/**
 * Days CloudFront's request logs are kept (prefix `cloudfront/` in the logs bucket). Render URLs
 * carry recipients' names and e-mail addresses in their query, and reset links their tokens, so
 * these logs are kept one week (docs/security.md "Logs").
 */
export const CLOUDFRONT_LOG_RETENTION_DAYS = 7;
/** The logs bucket prefix CloudFront writes to (web.ts). */
export const CLOUDFRONT_LOG_PREFIX = 'cloudfront/';
/** How long replaced or deleted versions of user data stay restorable, days. */
export const NONCURRENT_VERSION_RETENTION_DAYS = 90;

/**
 * The DynamoDB table (TABLE) and the buckets (BUCKETS), plus one bucket for access logs.
 *
 * - Table: `pk`/`sk`, the three overloaded GSIs (projection ALL), number TTL attribute;
 *   on-demand billing, point-in-time recovery, deletion protection, AWS-managed KMS encryption,
 *   retained when the stack is deleted (docs/infra.md "What the stack creates").
 * - Buckets: block all public access, TLS-only bucket policy, S3-managed encryption, server
 *   access logs to the logs bucket (cdk-nag AwsSolutions-S1), retained on stack deletion.
 *   `assets` is versioned (user data, docs/infra.md "What the stack creates") and keeps old
 *   versions for NONCURRENT_VERSION_RETENTION_DAYS; `renders` expires objects after
 *   `expireAfterDays` (the render cache, docs/infra.md "What the stack creates"); `web` holds the
 *   built SPA, read by CloudFront via OAC.
 */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly buckets: Record<BucketRole, s3.Bucket>;
  /** S3 server access logs and CloudFront standard logs (prefixes `s3/<role>/`, `cloudfront/`). */
  readonly logsBucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const gsi of TABLE.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.indexName,
        partitionKey: { name: gsi.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.logsBucket = new s3.Bucket(this, 'LogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      // CloudFront standard logging writes with an ACL (log-delivery canned ACL), so ACLs stay
      // enabled on this one bucket; the data buckets have ACLs disabled.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [
        { expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) },
        {
          prefix: CLOUDFRONT_LOG_PREFIX,
          expiration: Duration.days(CLOUDFRONT_LOG_RETENTION_DAYS),
        },
        // The access log of standard logging v2 (docs/analytics.md "Privacy and retention"), and
        // Athena's results, read once by the roll-up.
        {
          prefix: CDN_LOG_V2_PREFIX,
          expiration: Duration.days(CLOUDFRONT_LOG_RETENTION_DAYS),
        },
        { prefix: ATHENA_RESULTS_PREFIX, expiration: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const bucket = (def: BucketDefinition): s3.Bucket =>
      new s3.Bucket(this, `${def.role[0]!.toUpperCase()}${def.role.slice(1)}Bucket`, {
        blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
        enforceSSL: true,
        encryption: s3.BucketEncryption.S3_MANAGED,
        objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        versioned: def.versioned,
        serverAccessLogsBucket: this.logsBucket,
        serverAccessLogsPrefix: `s3/${def.role}/`,
        lifecycleRules: [
          { abortIncompleteMultipartUploadAfter: Duration.days(1) },
          ...(def.expireAfterDays === undefined
            ? []
            : [{ expiration: Duration.days(def.expireAfterDays) }]),
          ...(def.versioned
            ? [{ noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_RETENTION_DAYS) }]
            : []),
        ],
        removalPolicy: RemovalPolicy.RETAIN,
      });

    this.buckets = {
      assets: bucket(BUCKETS.assets),
      renders: bucket(BUCKETS.renders),
      web: bucket(BUCKETS.web),
    };
  }
}
