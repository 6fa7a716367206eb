/**
 * The data resources as plain data, read by both the CDK stack (infra/constructs/data.ts) and the
 * local stack (infra/local/resources.ts), so the table and buckets that run on one machine are the
 * ones AWS gets. The Lambdas read it too (index names, local bucket names), and `functions/` never
 * imports `infra/` (docs/adr/0046-module-boundaries.md "Module boundaries"), so it lives here, like
 * the route table.
 *
 * Single-table design (docs/infra.md "What the stack creates"): every entity lives in one table
 * keyed `pk`/`sk`, with five overloaded GSIs for the access patterns (a dashboard list of designs
 * or templates by each of its four sorts, design by public render id, user by e-mail, a user's
 * teams). ElectroDB entities in `functions/lib/db/` map onto these index names.
 */

export interface KeyDefinition {
  partitionKey: string;
  sortKey: string;
}

export interface TableDefinition extends KeyDefinition {
  /** Logical name; the physical name is `${stage}-${logicalName}` locally, CDK-generated in AWS. */
  logicalName: string;
  /** Number-typed TTL attribute (seconds since the epoch), for sessions and dedup records. */
  ttlAttribute: string;
  globalSecondaryIndexes: Array<KeyDefinition & { indexName: string }>;
}

export const TABLE: TableDefinition = {
  logicalName: 'main',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  globalSecondaryIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    // Dashboard lists by name and by views (docs/adr/0019-design-api-shapes.md "Design API shapes":
    // one query per page for every sort).
    { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  ],
};

export type BucketRole = 'assets' | 'renders' | 'web';

export interface BucketDefinition {
  role: BucketRole;
  /** What lives there. */
  purpose: string;
  /** User data is versioned (docs/infra.md "What the stack creates"). */
  versioned: boolean;
  /** Objects expire after this many days (the render cache, docs/infra.md "What the stack creates"). */
  expireAfterDays?: number;
}

export const BUCKETS: Record<BucketRole, BucketDefinition> = {
  assets: {
    role: 'assets',
    purpose: 'uploads, library images, fonts, sticker packs, static design layers',
    versioned: true,
  },
  renders: {
    role: 'renders',
    purpose: 'render cache keyed by hash(design version, normalised parameters, format)',
    versioned: false,
    expireAfterDays: 30,
  },
  web: {
    role: 'web',
    purpose: 'the built SPA, served by CloudFront through origin access control',
    versioned: false,
  },
};

/** Local bucket names (s3rver); in AWS the names are CDK-generated and reach Lambdas by env. */
export const localBucketName = (role: BucketRole): string => `picsnippets-local-${role}`;

/**
 * The local stand-in of the stack's logs bucket, where the local gateway writes the CDN log
 * (docs/analytics.md "Locally"); in AWS `CDN_LOGS_BUCKET` names the logs bucket.
 */
export const LOCAL_CDN_LOGS_BUCKET = 'picsnippets-local-cdn-logs';

/**
 * The assets-bucket key of a file a design draws by URL (a plain or uploaded sticker's image),
 * or null. Only public files (`files/…`, as the sticker library and uploads store them, with or
 * without the leading `/` of their served URL) may be drawn: a design must not pull private
 * objects of the bucket (static layers, other keys) into a public render. The render
 * (functions/render/stickers.ts) and the in-use check of deleted uploads
 * (functions/designs/usage.ts) read a URL the same way; test/unit/sticker-keys.test.ts.
 */
export function publicFileKey(url: string): string | null {
  const key = url.replace(/^\//, '');
  return /^files\/[\w./-]+$/.test(key) && !key.split('/').includes('..') ? key : null;
}
