/**
 * The cost model of docs/infra.md "Cost model": what a million renders and a thousand active
 * teams cost a month on AWS, and the two options that are off by default (warm capacity before
 * a send, the render function as a container image), computed from the stack's own settings (the
 * render and API functions' memory and CPU, the render cache's lifetime, warm capacity's sizing)
 * and from stated traffic assumptions.
 * `test/unit/cost-model.test.ts` checks that the table in the document is the one this module
 * prints, so a change of memory, architecture or price shows up there.
 *
 * Prices: AWS list prices for us-east-1 as of 2026-11, in USD; free tiers are left out.
 */
import { warmCapacityPlan } from '#functions/send-lists/warm-capacity.ts';
import { API_FEATURES, SIZING } from './constructs/api.ts';
import { CHROMIUM_ARCH, RENDER_MEMORY_MB } from './constructs/render.ts';

/** List prices used, USD. */
export const PRICES = {
  lambdaGbSecond: { x64: 0.0000166667, arm64: 0.0000133334 },
  /** Provisioned concurrency, per GB-s while allocated (whether or not it serves requests). */
  lambdaProvisionedGbSecond: { x64: 0.0000041667, arm64: 0.0000033334 },
  /** ECR private repository storage, per GB-month. */
  ecrGbMonth: 0.1,
  lambdaPerMillionRequests: 0.2,
  httpApiPerMillion: 1.0,
  cloudFrontPerMillionHttps: 1.0,
  cloudFrontPerGbOut: 0.085,
  wafPerMillionRequests: 0.6,
  /** A WebACL ($5) and its seven rules ($1 each), a month. */
  wafFixedMonthly: 12,
  s3PutPerThousand: 0.005,
  s3GetPerThousand: 0.0004,
  s3GbMonth: 0.023,
  dynamoPerMillionReadUnits: 0.125,
  dynamoPerMillionWriteUnits: 0.625,
  dynamoGbMonth: 0.25,
  sesPerThousand: 0.1,
  logsPerGbIngested: 0.5,
  /** CloudFront standard logging (v2) delivered to S3, per GB of log, and its Parquet conversion. */
  vendedLogsToS3PerGb: 0.25,
  parquetConversionPerGb: 0.035,
  athenaPerTbScanned: 5,
  /** Eight alarms ($0.10), one dashboard ($3), three KMS keys ($1), one secret ($0.40). */
  monitoringAndKeysMonthly: 0.8 + 3 + 3 + 0.4,
} as const;

/** Traffic assumptions (docs/infra.md "Cost model" states them). */
export const ASSUMPTIONS = {
  /** Share of render requests CloudFront answers from its cache. */
  cdnHitRatio: 0.8,
  /** Of the requests reaching the origin, the share answered from its memory or S3 cache. */
  originCacheHitRatio: 0.5,
  /** A drawn render, ms (warm p50 with the emulators, docs/performance.md, rounded up). */
  drawMs: 60,
  /** An origin cache hit, ms. */
  originHitMs: 5,
  /** Mean image, KB. */
  imageKb: 60,
  /** Log and metric lines per origin request, KB. */
  logKbPerRequest: 1.5,
  /** A CDN access-log record of the nine fields the analytics roll-up reads, bytes (raw). */
  cdnLogRecordBytes: 350,
  /** The same record in Parquet, compressed, bytes. */
  cdnLogParquetBytes: 40,
  /**
   * How many times the hourly roll-up scans each record: its hour twice (as the current hour
   * and as the hour before) and its day at every run until the day ends, twice (two
   * statements): 2 + 2 × 12.5 on average (docs/analytics.md "The roll-up").
   */
  rollupScansPerRecord: 27,
  /** The send whose warm capacity the table prices (docs/send-lists.md's worked example). */
  warmSendRows: 200_000,
  /**
   * The render container image's stored size, GB (`-c renderImage=true`): Node's Lambda base
   * image, the bundle and page, the externals and Chromium stored unpacked
   * (docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md; an estimate until it is built).
   */
  renderImageGb: 0.4,
  /**
   * Deploys a month that change the render image. CDK's bootstrap asset repository keeps every
   * image pushed (it has no lifecycle rule), and the image's layers after the bundle (the
   * externals, Chromium unpacked) are built again with it, so each such deploy stores about a
   * whole image more until the repository is pruned.
   */
  renderImageDeploysPerMonth: 10,
  /** An active team a month. */
  team: {
    apiRequests: 2_000,
    apiMs: 80,
    readUnitsPerRequest: 3,
    writeShare: 0.2,
    writeUnitsPerWrite: 2,
    storedMb: 50,
    tableKb: 1_000,
    mails: 20,
    /** Cold SPA loads (the editor's chunks not in the browser cache) and their MB. */
    spaLoads: 20,
    spaLoadMb: 2,
  },
} as const;

/** Cost lines, USD, and the line that dominates. */
export interface CostBreakdown {
  lines: Record<string, number>;
  total: number;
  dominant: string;
}

const GB = (mb: number) => mb / 1024;

function breakdown(lines: Record<string, number>): CostBreakdown {
  const total = Object.values(lines).reduce((a, b) => a + b, 0);
  const dominant = Object.entries(lines).sort((a, b) => b[1] - a[1])[0]![0];
  return { lines, total, dominant };
}

/**
 * A million render-URL requests.
 * @param renderMemoryMb the render function's memory (the stack's, by default).
 * @param arch its CPU (the stack's, by default).
 */
export function costPerMillionRenders(
  renderMemoryMb: number = RENDER_MEMORY_MB,
  arch: 'x64' | 'arm64' = CHROMIUM_ARCH,
): CostBreakdown {
  const a = ASSUMPTIONS;
  const requests = 1_000_000;
  const origin = requests * (1 - a.cdnHitRatio);
  const draws = origin * (1 - a.originCacheHitRatio);
  const hits = origin - draws;
  const gbSeconds = GB(renderMemoryMb) * ((draws * a.drawMs + hits * a.originHitMs) / 1000);
  return breakdown({
    'CloudFront data out': ((requests * a.imageKb) / 1024 / 1024) * PRICES.cloudFrontPerGbOut,
    'CloudFront requests': (requests / 1e6) * PRICES.cloudFrontPerMillionHttps,
    'WAF requests': (requests / 1e6) * PRICES.wafPerMillionRequests,
    'Lambda render time': gbSeconds * PRICES.lambdaGbSecond[arch],
    'Lambda requests': (origin / 1e6) * PRICES.lambdaPerMillionRequests,
    'S3 render cache':
      (origin / 1000) * PRICES.s3GetPerThousand + (draws / 1000) * PRICES.s3PutPerThousand,
    'CloudWatch Logs': ((origin * a.logKbPerRequest) / 1024 / 1024) * PRICES.logsPerGbIngested,
    // Campaign analytics (docs/analytics.md): every request is logged, CDN hits included.
    'CDN access log (analytics)':
      ((requests * a.cdnLogRecordBytes) / 1024 ** 3) *
      (PRICES.vendedLogsToS3PerGb + PRICES.parquetConversionPerGb),
    'Athena roll-ups (analytics)':
      ((requests * a.cdnLogParquetBytes * a.rollupScansPerRecord) / 1024 ** 4) *
      PRICES.athenaPerTbScanned,
  });
}

/** What warm capacity costs for one send: the sandboxes and their window, then the price. */
interface WarmCapacityCost extends CostBreakdown {
  /** Sandboxes kept warm (functions/send-lists/warm-capacity.ts `warmCapacityPlan`). */
  capacity: number;
  /** From the raise to the lower, s. */
  seconds: number;
  /** Provisioned GB-s billed. */
  gbSeconds: number;
}

/**
 * Warm capacity before a send (docs/send-lists.md "Warm capacity before a send"): provisioned
 * concurrency on the render alias for one send, sized by the list as the product sizes it
 * (`warmCapacityPlan`, the same function) and billed from the raise to the lower.
 * @param rows the list's rows.
 * @param max the deploy's cap (`-c warmCapacityMax`), 1 … 1,000.
 * @param renderMemoryMb the render function's memory, MB.
 * @param arch its CPU.
 * @returns the cost of that send, USD, with the sandboxes, seconds and GB-s; all 0 when nothing
 *   is planned (an empty list).
 */
export function warmCapacityCost(
  rows: number,
  max = 1_000,
  renderMemoryMb: number = RENDER_MEMORY_MB,
  arch: 'x64' | 'arm64' = CHROMIUM_ARCH,
): WarmCapacityCost {
  // A start far enough ahead that the whole lead time is billed.
  const now = new Date('2026-01-01T00:00:00Z');
  const plan = warmCapacityPlan(rows, new Date('2026-01-02T00:00:00Z'), max, now);
  const capacity = plan?.capacity ?? 0;
  const seconds = plan ? (plan.lowerAt.getTime() - plan.raiseAt.getTime()) / 1000 : 0;
  const gbSeconds = capacity * GB(renderMemoryMb) * seconds;
  return {
    ...breakdown({
      [`Provisioned concurrency (${capacity} × ${seconds / 60} min)`]:
        gbSeconds * PRICES.lambdaProvisionedGbSecond[arch],
    }),
    capacity,
    seconds,
    gbSeconds,
  };
}

/**
 * The render function as a container image (`-c renderImage=true`; infra/constructs/render.ts
 * `renderImageCode`), a month: ECR's storage of the deployed image and of the older images a
 * month of deploys leaves in the unpruned asset repository (that line grows every month until
 * pruned). Pushing within the region costs nothing; Lambda bills an image function's time as
 * a zip one's.
 * @param deploysPerMonth deploys a month that change the image.
 */
export function renderImageCost(
  deploysPerMonth: number = ASSUMPTIONS.renderImageDeploysPerMonth,
): CostBreakdown {
  const gb = ASSUMPTIONS.renderImageGb;
  return breakdown({
    'ECR storage, the deployed image': gb * PRICES.ecrGbMonth,
    [`ECR storage, a month's ${deploysPerMonth} older images (unpruned)`]:
      deploysPerMonth * gb * PRICES.ecrGbMonth,
  });
}

/** The API functions' mean memory, MB (each feature weighted alike). */
export function meanApiMemoryMb(): number {
  return API_FEATURES.reduce((sum, f) => sum + SIZING[f].memorySize, 0) / API_FEATURES.length;
}

/**
 * A thousand active teams for a month (the fixed monthly costs of the stack included).
 * @param apiArch the API functions' CPU (arm64 where sharp's arm64 binary is installed).
 */
export function costPerThousandTeams(apiArch: 'x64' | 'arm64' = 'arm64'): CostBreakdown {
  const t = ASSUMPTIONS.team;
  const teams = 1_000;
  const requests = teams * t.apiRequests;
  const gbSeconds = GB(meanApiMemoryMb()) * ((requests * t.apiMs) / 1000);
  return breakdown({
    'API Gateway': (requests / 1e6) * PRICES.httpApiPerMillion,
    'Lambda API time': gbSeconds * PRICES.lambdaGbSecond[apiArch],
    'Lambda requests': (requests / 1e6) * PRICES.lambdaPerMillionRequests,
    DynamoDB:
      ((requests * t.readUnitsPerRequest) / 1e6) * PRICES.dynamoPerMillionReadUnits +
      ((requests * t.writeShare * t.writeUnitsPerWrite) / 1e6) * PRICES.dynamoPerMillionWriteUnits +
      ((teams * t.tableKb) / 1024 / 1024) * PRICES.dynamoGbMonth,
    'S3 storage': ((teams * t.storedMb) / 1024) * PRICES.s3GbMonth,
    'SES mail': ((teams * t.mails) / 1000) * PRICES.sesPerThousand,
    'CloudFront SPA': ((teams * t.spaLoads * t.spaLoadMb) / 1024) * PRICES.cloudFrontPerGbOut,
    'Fixed (WAF, alarms, keys)': PRICES.wafFixedMonthly + PRICES.monitoringAndKeysMonthly,
  });
}

const usd = (n: number) => `$${n.toFixed(2)}`;

/** The markdown table docs/infra.md "Cost model" holds, exactly. */
export function costTable(): string {
  const rows: string[][] = [];
  for (const [name, b] of [
    ['1M renders', costPerMillionRenders()],
    ['1,000 active teams a month', costPerThousandTeams()],
    ['Warm capacity, a send of 200,000 rows', warmCapacityCost(ASSUMPTIONS.warmSendRows)],
    ['Render image, a month', renderImageCost()],
  ] as const) {
    for (const [line, value] of Object.entries(b.lines)) rows.push([name, line, usd(value)]);
    if (Object.keys(b.lines).length > 1)
      rows.push([name, `**total** (most: ${b.dominant})`, `**${usd(b.total)}**`]);
  }
  const widths = [0, 1, 2].map((i) =>
    Math.max(...[['unit', 'line', 'USD'], ...rows].map((r) => r[i]!.length)),
  );
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(['unit', 'line', 'USD']),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
