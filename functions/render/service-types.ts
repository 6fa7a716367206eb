/**
 * The shapes the render service's stages share (functions/render/service.ts composes them;
 * docs/adr/0004-render-slice.md "Render slice"): the design record a render reads, the request
 * the handler hands over, the byte store, and the collaborators handler.ts injects.
 */
import type { RenderAllowance } from '#shared/billing.ts';
import type { DesignDocument } from '#shared/design.ts';
import type { RenderDensity } from '#shared/render-url.ts';
import type { WatermarkSettings } from '#shared/scene/watermark.ts';
import type { RateLimits } from './budgets.ts';
import type { FallbackReason } from './fallback-counter.ts';
import type { FirstOpenStore } from './first-open.ts';
import type { MailProxyRecogniser } from './mail-proxies.ts';
import type { RenderFormat, RenderOutput } from './renderer.ts';
import type { SignatureCheck } from './signature.ts';
import type { RenderUsage } from './usage.ts';
import type { ViewKind } from './view-counter.ts';
import type { LatLon, Weather } from './weather.ts';

/** The design fields a render needs. */
export interface DesignRecord {
  designId: string;
  teamId: string;
  version: number;
  document: unknown;
  /**
   * Read earlier and used because the table could not be answered now: its render is answered
   * `no-store`, since a newer version may exist.
   */
  stale?: boolean;
  /** The team's watermark settings, filled in by the service from `teamWatermark`. */
  watermark?: WatermarkSettings;
  /**
   * The rule a request matched (rule-context.ts `ruleKeyOf`), set with the variant `document`
   * for a design with rules; part of the render cache key (docs/rules.md "Caching").
   */
  ruleKey?: string;
  /**
   * A design that optimises its split: its kept bucket assignments (`DesignSplit.tables`,
   * shared/scene/optimised-split.ts), read with the design; absent otherwise.
   */
  splitTables?: unknown;
}

export interface RenderRequest {
  rawPath: string;
  rawQueryString: string;
  ifNoneMatch?: string | undefined;
  /** The client's address (CloudFront's viewer address in AWS: functions/lib/client-address.ts). */
  sourceIp: string;
  /** The `User-Agent` the edge forwarded: mail proxies are recognised by it (mail-proxies.ts). */
  userAgent?: string | undefined;
  /** The `CloudFront-Viewer-Country` header: rules' country conditions (docs/rules.md). */
  country?: string | undefined;
  /**
   * The reader's place from CloudFront's viewer-location headers: the weather conditions that
   * read the reader's place (docs/weather.md "Conditions").
   */
  viewerLocation?: LatLon | undefined;
  /**
   * The edge's rate rule counted this address over its 5-minute budget on `/r/*` (the WAF
   * labels instead of blocking, and inserts a header: infra/constructs/render.ts).
   */
  edgeLimited?: boolean;
  /**
   * The edge's second rate rule counted this address over a mail proxy's 5-minute budget
   * (`PROXY_REQUESTS_PER_ADDRESS_PER_5_MIN`, shared/render-limits.ts): a recognised mail proxy
   * then gets no draws and no open-time work, in every container at once. Ignored for other
   * addresses (their own rule is far lower).
   */
  edgeProxyLimited?: boolean;
  /**
   * A send list's pre-render (functions/send-lists/worker.ts; docs/send-lists.md): drawn
   * outside the per-address, per-proxy and per-design draw budgets (the worker's reserved
   * concurrency bounds it), still within the team's monthly quota and counted there, and not
   * counted as a view (no recipient opened it).
   */
  prerender?: boolean;
  /**
   * The moment countdown timers show, ms since the epoch; absent: now. handler.ts sets it only
   * under STAGE=test, from a test-only header (docs/adr/0058-countdown-timers.md "Countdown
   * timers").
   */
  nowMs?: number;
}

/** A byte store for rendered images (S3 in production and locally through s3rver). */
export interface RenderStore {
  get(key: string): Promise<Buffer | undefined>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
}

export interface RenderServiceDeps {
  findDesign(publicId: string): Promise<DesignRecord | undefined>;
  teamCanExportPdf(teamId: string): Promise<boolean>;
  render(
    design: DesignRecord,
    values: Record<string, string>,
    format: RenderFormat,
    options?: { nowMs?: number; density?: RenderDensity },
  ): Promise<RenderOutput>;
  placeholder(): Promise<Buffer>;
  /**
   * The document of an earlier version kept by the export's Generate (docs/export.md "Cache
   * id"), or undefined when none was kept.
   */
  findSnapshot?(designId: string, version: number): Promise<unknown>;
  store: RenderStore;
  /**
   * Counts a served render against the design (aggregated; see ViewCounter): an `open`, or a
   * `proxy` fetch when a mail proxy asked.
   */
  countView(designId: string, kind?: ViewKind): void;
  /**
   * Counts a fallback served for a known design, by why (fallback-counter.ts; docs/analytics.md
   * "Fallbacks"). Absent: not counted (unit tests of other rules).
   */
  countFallback?(designId: string, reason: FallbackReason): void;
  /**
   * The team's render allowance (its plan's: shared/billing.ts `renderAllowanceOf`), kept in
   * memory by the caller. Absent: no team quota (unit tests of other rules).
   */
  teamAllowance?(teamId: string): Promise<RenderAllowance>;
  /**
   * The team's watermark image and whether its plan asks for the product mark (watermark.ts),
   * kept in memory by the caller; `design` (the one being rendered) lets the caller notice a
   * save made since its read. Absent: no watermarks.
   */
  teamWatermark?(
    teamId: string,
    design?: { designId: string; version: number },
  ): Promise<WatermarkSettings>;
  /**
   * The values the design's data bindings find for this render's query, `[param, value]`, and
   * whether a lookup failed or ran out of time (the render is then partial, `no-store`;
   * functions/data-sources/resolve.ts; docs/data-sources.md "At render time"). Never throws;
   * absent: no lookups (unit tests of other rules).
   */
  /**
   * The weather at a place (functions/render/weather.ts `createWeather`): for the rules' weather
   * conditions (docs/weather.md "Conditions"). Never throws; absent: no lookups (every weather
   * condition is unknown and does not hold).
   */
  weather?: Pick<Weather, 'at'>;
  dataValues?(
    design: DesignRecord,
    doc: DesignDocument,
    query: Record<string, string>,
  ): Promise<{ values: Array<[string, string]>; failed: boolean }>;
  /** The teams' month totals (usage.ts); with `teamAllowance`, the monthly quota applies. */
  usage?: Pick<RenderUsage, 'isOver' | 'countDraw'>;
  /**
   * Which mail proxy a request comes from (mail-proxies.ts); default: the shipped ranges.
   */
  mailProxyOf?: MailProxyRecogniser;
  /**
   * Checks a request's signature for a design that requires signed URLs (signature.ts
   * `createSignatureVerifier`; docs/developer-api.md "Signed render URLs"). Absent: designs
   * that require signatures get the fallback (`signature-unverified`).
   */
  verifySignature?(
    teamId: string,
    rawPath: string,
    rawQuery: string,
    known: ReadonlySet<string>,
  ): Promise<SignatureCheck>;
  /**
   * Where recipients' first opens are kept, for evergreen timers that count from the first open
   * (first-open.ts). Absent: those timers count from each render's now.
   */
  firstOpens?: FirstOpenStore;
  /**
   * A poll's votes per option now (functions/lib/db/entities-polls.ts `PollTally`), for polls
   * that show live results (docs/polls.md "Live results"); the caller keeps each answer the
   * poll's `results_ttl_s`. Absent: polls draw without results.
   * @throws the table's error (the render then draws no results and answers `no-store`).
   */
  pollCounts?(designId: string, pollId: string, options: number, ttlS: number): Promise<number[]>;
  /** The public origin, for the ManyChat JSON's image URL. */
  publicUrl: string;
  timeoutMs: number;
  limits?: RateLimits;
}
