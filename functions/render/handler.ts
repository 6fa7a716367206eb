/**
 * The render Lambda, behind a CloudFront function URL in AWS and the local gateway locally:
 * `GET /r/{publicId}[/{cacheId}][/pdf][.ext]?{param}={value}&…` (docs/export.md "What Generate
 * writes"). The work is in service.ts; this file wires the real collaborators: DynamoDB, S3, the
 * warm Chromium.
 */
// First: in a Lambda, Chromium and the render page start while the modules below load.
import { warmUpAtInit } from './warm-start.ts';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { clientAddress } from '#lib/client-address.ts';
import {
  EDGE_PROXY_RATE_HEADER,
  EDGE_RATE_EXCEEDED,
  EDGE_RATE_HEADER,
} from '#shared/render-limits.ts';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { recordDesignViews } from '#functions/designs/store.ts';
import { resolveDataValues } from '#functions/data-sources/resolve.ts';
import { httpChain, type ApiEvent, type ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { planProductWatermark, renderAllowanceOf, type RenderAllowance } from '#shared/billing.ts';
import { teamWatermark, type WatermarkSettings } from '#shared/scene/watermark.ts';
import { LOCAL_PROXY_STAND_INS, createMailProxyRecogniser } from './mail-proxies.ts';
import { dynamoUsageStore, notifyRenderQuota } from './quota.ts';
import { placeholderImage, renderDesign } from './renderer.ts';
import { renderGuard } from './dynamic.ts';
import { createRenderService, type DesignRecord } from './service.ts';
import { ViewCounter } from './view-counter.ts';
import { FallbackCounter, type FallbackReason } from './fallback-counter.ts';
import { ROLLUP_RETENTION_DAYS } from '#functions/analytics/cdn-log.ts';

/** The item's attribute of each reason (functions/lib/db/entities-analytics.ts `DesignFallbacks`). */
const FALLBACK_ATTRIBUTES = {
  refused: 'refused',
  rate_limited: 'rateLimited',
  over_quota: 'overQuota',
  failed: 'failed',
} as const satisfies Record<FallbackReason, string>;
import { dynamoFirstOpenStore } from './first-open.ts';
import { tallyCounts } from '#shared/scene/poll.ts';
import { RenderUsage } from './usage.ts';
import { testClock } from './countdown-gif.ts';
import {
  VIEWER_COUNTRY_HEADER,
  VIEWER_LATITUDE_HEADER,
  VIEWER_LONGITUDE_HEADER,
} from './rule-context.ts';
import { configuredProvider, createWeather, viewerLocation } from './weather.ts';
import { createSignatureVerifier } from './signature.ts';
import { loadSigningKeys } from '#domain/signing-secrets.ts';

/** Designs by public id, kept this long (ms): a saved design shows within a second. */
const DESIGN_TTL_MS = 1000;
/** Plan capabilities by team, kept this long (ms). */
const PLAN_TTL_MS = 60_000;

const designs = new Map<string, { at: number; design: DesignRecord | undefined }>();
/**
 * What each team's plan allows, by team id, kept `PLAN_TTL_MS`, with the version of each design
 * rendered with it (at most `PLAN_DESIGNS` kept): a later version of one of them is a save made
 * after the read, so it reads the team again (`teamPlan`).
 */
const teamPlans = new Map<
  string,
  { at: number; plan: Promise<TeamPlan>; versions: Map<string, number> }
>();
/** Designs whose versions a team's kept plan remembers. */
const PLAN_DESIGNS = 100;

/** What the render needs of a team and its plan. */
interface TeamPlan {
  pdf: boolean;
  allowance: RenderAllowance;
  /** The team's watermark image and the plan's product mark (docs/adr/0057-watermark.md "Watermark"). */
  watermark: WatermarkSettings;
}

/**
 * The design a public id names, kept `DESIGN_TTL_MS`. When the table cannot be answered (DynamoDB
 * down or throttled), the last design read for that id is used, marked `stale`: the render it
 * names still comes from the render caches, answered `no-store` (docs/security.md "Reliability
 * figures"; test/integration/dynamodb-faults.test.ts).
 * @throws the table's error when it fails and this process has not read the design before.
 */
async function findDesign(publicId: string): Promise<DesignRecord | undefined> {
  const cached = designs.get(publicId);
  if (cached && Date.now() - cached.at < DESIGN_TTL_MS) return cached.design;
  let design: DesignRecord | undefined;
  try {
    const found = await db().Design.query.byPublicId({ publicId }).go({ limit: 1 });
    design = found.data[0];
    // A design that optimises its split is drawn with its bucket assignments (docs/optimiser.md
    // "In the product"), read with it: without them the split would fall back to equal shares.
    if (design && (design.document as { split_optimiser?: unknown } | null)?.split_optimiser) {
      const split = await db()
        .DesignSplit.get({ analyticsDesign: design.designId })
        .go({ attributes: ['tables'] });
      design = { ...design, splitTables: split.data?.tables };
    }
  } catch (error) {
    if (!cached?.design) throw error;
    logger.warn('design read failed: using the one read before', {
      publicId,
      error: { name: (error as Error).name },
    });
    return { ...cached.design, stale: true };
  }
  if (designs.size > 10_000) designs.clear();
  designs.set(publicId, { at: Date.now(), design });
  return design;
}

/** Polls' counts by `designId/pollId`, each kept its poll's `results_ttl_s`. */
const pollTallies = new Map<string, { until: number; counts: Promise<number[]> }>();

/**
 * A poll's votes per option (functions/lib/db/entities-polls.ts `PollTally`), read at most once
 * per `ttlS` per poll and container (concurrent renders share the read; a failed read is not
 * kept), so live results cost the table one read per poll per interval (docs/polls.md "Live
 * results").
 * @throws the table's error.
 */
function pollCounts(
  designId: string,
  pollId: string,
  options: number,
  ttlS: number,
): Promise<number[]> {
  const key = `${designId}/${pollId}`;
  const now = Date.now();
  const kept = pollTallies.get(key);
  if (kept && now < kept.until) return kept.counts;
  const counts = (async () => {
    const { data } = await db().PollTally.get({ pollDesign: designId, poll: pollId }).go();
    return tallyCounts(data, options);
  })();
  if (pollTallies.size > 10_000) pollTallies.clear();
  pollTallies.set(key, { until: now + ttlS * 1000, counts });
  counts.catch(() => pollTallies.delete(key));
  return counts;
}

/**
 * The team's plan as the render needs it: PDF export, its render allowance
 * (shared/billing.ts `renderAllowanceOf`), and the watermarks (its image, the plan's product
 * mark). Read once per team per `PLAN_TTL_MS` (concurrent requests share the read); a failed
 * read is not kept. A render of a design saved since the read (a later `version` of a design
 * this read has served) reads again, so switching "Show watermark" on after uploading the logo
 * shows it at once; otherwise a new watermark shows within `PLAN_TTL_MS`
 * (test/integration/render-watermark.test.ts).
 * @param design the design being rendered, if any: its id and version.
 * @throws the table's error.
 */
export function teamPlan(
  teamId: string,
  design?: { designId: string; version: number },
): Promise<TeamPlan> {
  const cached = teamPlans.get(teamId);
  if (cached && Date.now() - cached.at < PLAN_TTL_MS) {
    const seen = design && cached.versions.get(design.designId);
    if (!design || seen === undefined || seen >= design.version) {
      if (design && seen === undefined && cached.versions.size < PLAN_DESIGNS)
        cached.versions.set(design.designId, design.version);
      return cached.plan;
    }
  }
  const plan = (async () => {
    const team = (await db().Team.get({ teamId }).go()).data;
    const found = team ? (await db().Plan.get({ planId: team.planId }).go()).data : null;
    return {
      pdf: found?.can_export_pdf === true,
      allowance: renderAllowanceOf(team?.planId),
      watermark: {
        team: team ? teamWatermark(team) : null,
        productMark: planProductWatermark(team?.planId),
      },
    };
  })();
  if (teamPlans.size > 10_000) teamPlans.clear();
  const versions = new Map<string, number>();
  if (design) versions.set(design.designId, design.version);
  teamPlans.set(teamId, { at: Date.now(), plan, versions });
  plan.catch(() => teamPlans.delete(teamId));
  return plan;
}

/** Kept design versions by `designId:version`: a snapshot never changes, so no TTL. */
const snapshots = new Map<string, unknown>();
/** Versions found without a snapshot, by `designId:version`, with when (ms since the epoch). */
const noSnapshot = new Map<string, number>();
/**
 * How long "no snapshot" is believed, ms: only an earlier version is looked up, and Generate
 * keeps the current one only, so an answer changes only in the race of a Generate and a save.
 */
const NO_SNAPSHOT_TTL_MS = 60_000;

async function findSnapshot(designId: string, version: number): Promise<unknown> {
  const key = `${designId}:${version}`;
  if (snapshots.has(key)) return snapshots.get(key);
  const missed = noSnapshot.get(key);
  if (missed !== undefined && Date.now() - missed < NO_SNAPSHOT_TTL_MS) return undefined;
  const found = (await db().DesignSnapshot.get({ snapshotOf: designId, version }).go()).data;
  if (!found) {
    if (noSnapshot.size > 10_000) noSnapshot.clear();
    noSnapshot.set(key, Date.now());
    return undefined;
  }
  if (snapshots.size > 1000) snapshots.clear();
  snapshots.set(key, found.document);
  return found.document;
}

// Opens also move the design in the "views" sort (its list key), not only the counter; proxy
// fetches are one atomic ADD.
const views = new ViewCounter(async (designId, opens, proxyFetches) => {
  if (opens > 0) await recordDesignViews(designId, opens);
  if (proxyFetches > 0)
    await db()
      .Design.patch({ designId })
      .add({ proxyFetches })
      .set({ countedAt: new Date().toISOString() })
      .go({ response: 'none' });
});

/** Fallbacks served, per design, hour and reason (docs/analytics.md "Fallbacks"). */
const fallbacks = new FallbackCounter(async (designId, hour, reason, n) => {
  const attribute = FALLBACK_ATTRIBUTES[reason];
  await db()
    .DesignFallbacks.update({ fallbackDesign: designId, hour })
    .add({ [attribute]: n })
    .set({ ttl: Math.floor(Date.parse(`${hour}:00:00Z`) / 1000) + ROLLUP_RETENTION_DAYS * 86_400 })
    .go({ response: 'none' });
});

/** Writes the fallback counts waiting now (tests; a container's own flushes do it in time). */
export const flushFallbackCounts = (): Promise<void> => fallbacks.flush();

/** Each team's draws this month against its plan's quota (usage.ts). */
const usage = new RenderUsage(dynamoUsageStore, notifyRenderQuota);

/** Teams' signing secrets, opened and kept a minute (signature.ts). */
const signatures = createSignatureVerifier((teamId) => loadSigningKeys(teamId));

const service = createRenderService({
  findDesign,
  teamCanExportPdf: async (teamId) => (await teamPlan(teamId)).pdf,
  teamAllowance: async (teamId) => (await teamPlan(teamId)).allowance,
  teamWatermark: async (teamId, design) => (await teamPlan(teamId, design)).watermark,
  // The weather of the rules' weather conditions (docs/weather.md): Open-Meteo or recordings.
  weather: createWeather(() => configuredProvider(renderGuard)),
  dataValues: (design, doc, query) =>
    resolveDataValues(design.teamId, doc.data_bindings, query, renderGuard()),
  usage,
  verifySignature: signatures.verify,
  // Locally, loopback addresses stand in for the proxies' published ranges (mail-proxies.ts).
  mailProxyOf: createMailProxyRecogniser(
    undefined,
    config().STAGE === 'aws' ? [] : LOCAL_PROXY_STAND_INS,
  ),
  render: renderDesign,
  placeholder: placeholderImage,
  findSnapshot,
  store: {
    async get(key) {
      try {
        const object = await s3Client().send(
          new GetObjectCommand({ Bucket: config().RENDERS_BUCKET, Key: key }),
        );
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey')
          return undefined;
        throw error;
      }
    },
    async put(key, body, contentType) {
      await s3Client().send(
        new PutObjectCommand({
          Bucket: config().RENDERS_BUCKET,
          Key: key,
          Body: body,
          ContentType: contentType,
        }),
      );
    },
  },
  countView: (designId, kind) => views.count(designId, kind),
  countFallback: (designId, reason) => fallbacks.count(designId, reason),
  firstOpens: dynamoFirstOpenStore,
  pollCounts,
  publicUrl: config().PUBLIC_URL,
  timeoutMs: config().RENDER_TIMEOUT_MS,
});

/** Writes pending view counts now (local stack shutdown, tests). */
export const flushViews = (): Promise<void> => views.flush();

/** Writes pending render counts (the monthly quota's) now (local stack shutdown, tests). */
export const flushRenderUsage = (): Promise<void> => usage.flush();

/**
 * Forgets the team plans, month totals and signing secrets read so far, so the next render reads
 * them again (tests that change a team's plan, usage record or secrets; a Lambda forgets them as
 * their TTLs pass).
 */
export function forgetRenderTeams(): void {
  teamPlans.clear();
  usage.forget();
  signatures.forget();
}

/**
 * Answers one render request (`/r/…`) or rule link (`/l/…`, docs/rules.md "Links"); never
 * throws.
 */
export function renderRequest(event: ApiEvent): Promise<ApiResult> {
  return (event.rawPath.startsWith('/l/') ? service.link : service.handle)({
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString ?? '',
    ifNoneMatch: event.headers?.['if-none-match'],
    sourceIp: clientAddress(event),
    userAgent: event.headers?.['user-agent'],
    country: event.headers?.[VIEWER_COUNTRY_HEADER],
    viewerLocation: viewerLocation(
      event.headers?.[VIEWER_LATITUDE_HEADER],
      event.headers?.[VIEWER_LONGITUDE_HEADER],
    ),
    edgeLimited: event.headers?.[EDGE_RATE_HEADER] === EDGE_RATE_EXCEEDED,
    edgeProxyLimited: event.headers?.[EDGE_PROXY_RATE_HEADER] === EDGE_RATE_EXCEEDED,
    ...testClock(event.headers, config().STAGE),
  });
}

/**
 * Pre-renders one recipient's render URL for a send list (functions/send-lists/worker.ts): the
 * same service, caches and cache key as the URL's own request, outside the draw budgets and
 * not counted as a view (service.ts `RenderRequest.prerender`). Never throws.
 * @param rawPath `/r/{publicId}/{cacheId}` as the URL has it.
 * @param rawQueryString the URL's query, without `?`.
 * @returns the answer; `x-render-cache` is `miss` (drawn now), `memory` or `store` (cached),
 *   and absent on the fallback (the render failed).
 */
export function prerenderRequest(rawPath: string, rawQueryString: string): Promise<ApiResult> {
  return service.handle({ rawPath, rawQueryString, sourceIp: '127.0.0.1', prerender: true });
}

/**
 * Render answers are meant to be embedded anywhere (e-mail, customers' web pages, video
 * players): `Cross-Origin-Resource-Policy: cross-origin` on all of them, the fallback image
 * included. A PDF may also be framed by the product's own pages (the show page's PDF view):
 * same-origin framing and no sandbox (Chromium's PDF viewer does not run in a sandboxed
 * document). Other headers stay the strict API ones.
 */
const renderHeaders = (_event: ApiEvent, response: ApiResult): Record<string, string> => ({
  // The names the security-headers middleware writes, so these replace its values.
  'Cross-Origin-Resource-Policy': 'cross-origin',
  ...(String(response.headers?.['content-type'] ?? '').startsWith('application/pdf')
    ? {
        'X-Frame-Options': 'SAMEORIGIN',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'",
      }
    : {}),
});

export const handler = httpChain('render', renderRequest, {
  issueXsrf: false,
  headerOverrides: renderHeaders,
});

// The Lambda init draws a warm-up scene and reads DynamoDB and S3 once (warm-start.ts); outside
// a Lambda this returns at once.
await warmUpAtInit();
