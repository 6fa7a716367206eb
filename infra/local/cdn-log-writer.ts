/**
 * The local stack's CDN log (docs/analytics.md "Locally"): the gateway plays CloudFront, so it
 * writes what CloudFront's standard logging writes in AWS, one record per `/r/*` and `/l/*`
 * answer (functions/analytics/cdn-log.ts), as JSON lines under the same hourly partitions of the
 * local logs bucket. It also says which answers a CDN would have served from its cache: the
 * gateway keeps no cache (every request still reaches the render function, as the local views
 * count expects), but it remembers what a CDN would keep and for how long, and marks a repeat
 * within that time `Hit`.
 */
import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { LRUCache } from 'lru-cache';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { hourPartition, type CdnLogRecord } from '#functions/analytics/cdn-log.ts';

/** Records kept before a flush is started. */
const FLUSH_AT_RECORDS = 500;
/** Longest a record waits before it is written, ms. */
const FLUSH_EVERY_MS = 2_000;
/** Records held at most while writes fail (older ones are dropped, logged). */
const MAX_PENDING = 50_000;
/** URLs whose cache lifetime is remembered at most. */
const CDN_KEYS = 20_000;

/**
 * How long a CDN keeps an answer, ms, from its Cache-Control: `s-maxage` or `max-age` of a
 * `public` answer; 0 for `no-store`, `private`, `no-cache` or none.
 */
export function cdnLifetimeMs(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase();
  if (/\b(?:no-store|private|no-cache)\b/.test(directives)) return 0;
  const shared = /\bs-maxage=(\d{1,9})\b/.exec(directives);
  const max = shared ?? /\bmax-age=(\d{1,9})\b/.exec(directives);
  return max ? Number(max[1]) * 1000 : 0;
}

/** Whether a repeated URL would be a CDN hit: what it kept, and until when. */
export class LocalCdnCache {
  private readonly kept = new LRUCache<string, number>({ max: CDN_KEYS });

  /**
   * Whether a CDN would answer `key` (path and query) from its cache at `now`, and remembers an
   * answer it would keep.
   * @param cacheControl the origin's answer's Cache-Control (a miss is stored by it).
   */
  hit(key: string, now: number, cacheControl: string | undefined): boolean {
    const until = this.kept.get(key);
    if (until !== undefined && until > now) return true;
    const lifetime = cdnLifetimeMs(cacheControl);
    if (lifetime > 0) this.kept.set(key, now + lifetime);
    else this.kept.delete(key);
    return false;
  }
}

/** Writes records to `s3://{CDN_LOGS_BUCKET}/{CDN_LOGS_PREFIX}YYYY/MM/DD/HH/{uuid}.jsonl`. */
export class CdnLogWriter {
  private pending: CdnLogRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private bucketReady: Promise<void> | undefined;

  /** Adds a record; it is written within {@link FLUSH_EVERY_MS}. */
  add(record: CdnLogRecord): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      logger.warn('local CDN log: a record was dropped (writes are failing)');
    }
    this.pending.push(record);
    if (this.pending.length >= FLUSH_AT_RECORDS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Writes what is pending now, one object per hour; resolves when it is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const records = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => this.write(records));
    return this.writing;
  }

  private async write(records: CdnLogRecord[]): Promise<void> {
    if (records.length === 0) return;
    const { CDN_LOGS_BUCKET: bucket, CDN_LOGS_PREFIX: prefix } = config();
    const byHour = new Map<string, CdnLogRecord[]>();
    for (const record of records) {
      const hour = `${record.date}T${record.time.slice(0, 2)}`;
      byHour.set(hour, [...(byHour.get(hour) ?? []), record]);
    }
    try {
      this.bucketReady ??= ensureBucket(bucket);
      await this.bucketReady;
      for (const [hour, list] of byHour) {
        await s3Client().send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: `${prefix}${hourPartition(hour)}${randomUUID()}.jsonl`,
            Body: list.map((r) => JSON.stringify(r)).join('\n') + '\n',
            ContentType: 'application/x-ndjson',
          }),
        );
      }
    } catch (error) {
      this.bucketReady = undefined;
      logger.warn('local CDN log write failed: kept for the next flush', {
        error: error as Error,
      });
      this.pending = [...records, ...this.pending].slice(-MAX_PENDING);
    }
  }
}

/** Creates the local logs bucket when missing (s3rver). */
async function ensureBucket(bucket: string): Promise<void> {
  try {
    await s3Client().send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3Client().send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

/** The gateway's writer and cache, one per process. */
export const cdnLog = new CdnLogWriter();
export const localCdn = new LocalCdnCache();
