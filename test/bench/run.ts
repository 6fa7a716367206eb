/**
 * `npm run bench` (docs/performance.md): renders the reference scene (test/bench/reference.ts:
 * autumn.jpg at 1000x625, three text layers with parameters, one QR code, JPEG) every way the
 * benchmark compares (docs/performance.md "Method"), side by side in one run, prints a table with
 * the ratios and the targets, and writes bench-results/render.json. Timing and targets live here,
 * never in the tests.
 *
 * Measured, all in ms unless named otherwise:
 * - warm: sequential GETs through the local gateway (what a user sees), distinct values;
 * - floor: sharp decodes the base photo, fits it to 1000x625 and encodes JPEG q86, in-process;
 * - cache hit: the same URL again after one miss;
 * - satori: satori + @resvg/resvg-js + sharp JPEG, in-process (test/bench/satori.ts);
 * - page per render: a new page per render in a separate warm Chromium (page-per-render.ts);
 * - cold start: a fresh node process, start to first image (cold-start.ts), median of 3, once
 *   through tsx (`cold_start_ms`) and once bundled as the render Lambda is (extra field), both
 *   with Chromium already unpacked (a re-init); and bundled from an empty temp folder
 *   (`cold_start_fresh_ms`: a brand-new sandbox unpacks Chromium first), each step reported;
 * - load: 8 clients for 20 s, distinct values (load.ts): good images/s, p99, errors (the
 *   closed loop, whose good images/s is the capacity);
 * - open-loop load: Poisson arrivals at 50 %, 70 % and 90 % of that capacity, 15 s each
 *   (load.ts `runOpenLoad`): p50 and p99 at each (`open_loop`);
 * - CPU per render: user + system time of this process and every process it started (Chromium,
 *   DynamoDB Local's Java; s3rver and the gateway run in this process) over the load run, minus
 *   the load clients' own thread (load-worker.ts), over the good images served (cpu.ts);
 * - where a miss spends its time: the service's `Server-Timing` stages, warm and under load.
 * Then the dashboard lists of a 1,000-design team (test/bench/dashboard.ts), written to
 * bench-results/dashboard.json, and the editor in the built SPA (test/bench/editor.ts: time
 * to interactive, undo and redo step time, the route's gzipped JS), written to
 * bench-results/editor.json. Last the campaign simulation (test/bench/campaign.ts: recipients
 * through mail proxies and an abuser; docs/performance.md "Campaign"), written to
 * bench-results/campaign.json. Before it, the output size of the reference scene by JPEG encoder
 * settings and their SSIM (test/bench/quality.ts; docs/performance.md "Output quality"), written
 * to bench-results/quality.json.
 *
 * Beside the warm renders, the same renders at 2× (`@2x`, docs/performance.md "Density"): p50,
 * bytes and CPU per render next to 1×. Then an animated design: the reference scene with a
 * 20-frame GIF sticker at its `.gif` URL (test/bench/animated.ts; docs/performance.md "Animated
 * designs"): p50, bytes, frames and CPU per render.
 *
 * After render.json is written, a 600x200 countdown timer of 30 frames as an animated GIF beside
 * its static JPEG (test/bench/timer.ts), merged into render.json (`timer_gif_p50_ms`,
 * `timer_gif_bytes`, `timer`).
 *
 * Then a 10,000-row send list and the replay of its URLs (test/bench/send-list.ts), written to
 * bench-results/send-list.json. Last, 10 million CDN log records rolled up and the analytics
 * report's query (test/bench/analytics.ts), written to bench-results/analytics.json.
 *
 * A part alone: `npm run bench -- render` runs only the render comparison (up to render.json),
 * `npm run bench -- campaign [--recipients N]` runs only the campaign,
 * `npm run bench -- quality` only the output-quality part, `npm run bench -- timer` only the
 * countdown timer, and `npm run bench -- send-list
 * [--rows N]` only the send list, and `npm run bench -- analytics` only the analytics part, on a
 * stack without the SPA.
 */
import { existsSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  TSX_COMMAND,
  bundleColdStart,
  coldStartParts,
  runColdStart,
  type ColdCommand,
  type ColdRun,
} from './cold-start-runner.ts';
import { type LoadResult } from './load.ts';
import { runLoadInWorker } from './load-worker.ts';
import { readTreeCpu } from './cpu.ts';
import {
  StageTimes,
  parseServerTiming,
  percentile,
  round1,
  sample,
  withTimeout,
} from './measure.ts';
import {
  CANVAS,
  JPEG_QUALITY,
  PHOTO_PATH,
  QR_SIDE_PX,
  REFERENCE_QR,
  fittedPhotoJpeg,
  insertReferenceDesign,
  referencePath,
  referenceValues,
} from './reference.ts';
import { createSatoriRenderer } from './satori.ts';
import { runDashboardBench } from './dashboard.ts';
import { runEditorBench } from './editor.ts';
import { runCampaignBench } from './campaign.ts';
import { runQualityBench } from './quality.ts';
import { runSendListBench } from './send-list.ts';
import { runAnalyticsBench } from './analytics.ts';
import { runTimerBench } from './timer.ts';
import { ANIMATED_STICKER, animatedPath, insertAnimatedDesign } from './animated.ts';
import { formatTable } from './table.ts';
import { RESULTS_DIR, SMOKE, sized } from './scale.ts';

process.env.STAGE = 'test';
const { startLocalStack } = await import('#infra/local/stack.ts');

/** The value after `--name` on the command line, as a positive integer, or undefined. */
function numberArg(name: string): number | undefined {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
const recipientsArg = numberArg('recipients') ?? (SMOKE ? 20 : undefined);
const campaignOptions = recipientsArg ? { recipients: recipientsArg } : {};
/** How long the campaign may run, ms. */
const CAMPAIGN_LIMIT_MS = sized(20, 3) * 60_000;
/** How long the output-quality part may run, ms (two draws, eight encodes and SSIMs). */
const QUALITY_LIMIT_MS = 3 * 60_000;
/** How long the send-list part may run, ms (10,000 renders on a shared machine). */
const SEND_LIST_LIMIT_MS = sized(60, 3) * 60_000;
const rowsArg = numberArg('rows') ?? (SMOKE ? 20 : undefined);
/** How long the analytics part may run, ms (10 million records rolled up). */
const ANALYTICS_LIMIT_MS = sized(45, 3) * 60_000;
const sendListOptions = rowsArg ? { rows: rowsArg } : {};

/**
 * Parts that run alone when named (`npm run bench -- campaign`); `render` runs the render
 * comparison only (the table above the timer, render.json) and stops.
 */
const PARTS = ['campaign', 'quality', 'send-list', 'timer', 'analytics', 'render'] as const;
/** How long the countdown timer part may run, ms (28 GIF and JPEG draws). */
const TIMER_LIMIT_MS = sized(10, 3) * 60_000;
/** Options that take a value after them (`--rows 500`); the other `--` options stand alone. */
const VALUE_OPTIONS = new Set(['--recipients', '--rows']);
const named = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && !VALUE_OPTIONS.has(all[i - 1] ?? ''));
const renderOnly = named.includes('render');
if (named.length > 0 && !renderOnly) {
  const unknown = named.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    console.error(`bench: unknown part ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
    process.exit(2);
  }
  if (SMOKE) console.log('bench: smoke run (--smoke): the figures are not measures');
  const alone = await startLocalStack({ port: 0, web: 'none' });
  let failed = false;
  try {
    if (named.includes('quality'))
      await withTimeout(runQualityBench(alone), QUALITY_LIMIT_MS, 'quality');
    if (named.includes('timer')) await withTimeout(runTimerBench(alone), TIMER_LIMIT_MS, 'timer');
    if (named.includes('campaign'))
      await withTimeout(runCampaignBench(alone, campaignOptions), CAMPAIGN_LIMIT_MS, 'campaign');
    if (named.includes('send-list'))
      await withTimeout(runSendListBench(alone, sendListOptions), SEND_LIST_LIMIT_MS, 'send-list');
    if (named.includes('analytics'))
      await withTimeout(runAnalyticsBench(alone), ANALYTICS_LIMIT_MS, 'analytics');
  } catch (error) {
    console.error(error);
    failed = true;
  } finally {
    await withTimeout(alone.stop(), 60_000, 'stack stop').catch(() => (failed = true));
  }
  process.exit(failed ? 1 : 0);
}

/** Sample counts per measure. */
const RUNS = {
  warm: sized(60, 3),
  warmup: sized(10, 1),
  /** `@2x` renders (docs/export.md "Density"), after their own warm-up. */
  dense: sized(30, 3),
  /** Animated designs' `.gif` renders (docs/animated-designs.md), and their warm-up. */
  animated: sized(12, 2),
  animatedWarmup: sized(2, 1),
  cacheHit: sized(60, 3),
  floor: sized(60, 3),
  satori: sized(20, 2),
  pagePerRender: sized(15, 2),
};
const COLD_RUNS = sized(3, 1);
const LOAD = { clients: sized(8, 2), durationMs: sized(20_000, 2_000), requestTimeoutMs: 10_000 };
/** The open loop's shares of the closed loop's capacity, and how long each rate runs, ms. */
const OPEN_LOOP = { loads: [0.5, 0.7, 0.9], durationMs: sized(15_000, 2_000) };
/** Limits that keep the bench from ever hanging, ms. */
const LIMITS = { request: 15_000, phase: 180_000, coldRun: 60_000, whole: 15 * 60_000 };

const TARGETS = {
  warmToFloor: 1.0,
  /** Warm p90 over warm p50. */
  warmSpread: 2,
  satoriToWarm: 5,
  pagePerRenderToWarm: 20,
  cacheHitToFloor: 0.2,
  coldStartMs: 1500,
  coldStartBundledMs: 400,
  /** A brand-new sandbox, Chromium unpacked first, process → first image. */
  coldStartFreshMs: 1500,
  rps: 55,
  p99Ms: 150,
  /** Open loop at 70 % of capacity: p99 over p50. */
  openLoopSpread: 3,
  errors: 0,
  /** Core-ms of the whole local stack per good image under load. */
  cpuMsPerRender: 28,
  /** The `fonts` Server-Timing stage, warm p50, ms (strictly below). */
  fontsStageMs: 0.5,
};

/** A run-unique prefix, so no phase ever hits another's cache entries. */
const nonce = Date.now().toString(36);

interface RenderAnswer {
  body: Buffer;
  cacheControl: string;
  /** The service's `x-render-cache`: memory, store or miss. */
  hit: string;
  /** The service's `Server-Timing` stages, ms (empty if it sends none). */
  stages: Record<string, number>;
}

/** GETs a render; a fallback (`no-store`) or a non-200 throws, so it never counts as a sample. */
async function getRender(origin: string, path: string): Promise<RenderAnswer> {
  const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(LIMITS.request) });
  const body = Buffer.from(await res.arrayBuffer());
  const cacheControl = res.headers.get('cache-control') ?? '';
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  if (/no-store/.test(cacheControl)) {
    throw new Error(
      `${path}: the service answered with its fallback image (no-store), so the render failed; ` +
        'LOG_LEVEL=warn npm run bench shows why',
    );
  }
  return {
    body,
    cacheControl,
    hit: res.headers.get('x-render-cache') ?? '',
    stages: parseServerTiming(res.headers.get('server-timing')),
  };
}

/** True when the QR area of a render is mostly dark modules and light gaps, not the photo. */
async function qrDrawn(jpeg: Buffer): Promise<boolean> {
  const side = Math.floor(QR_SIDE_PX);
  const { data } = await sharp(jpeg)
    .extract({ left: REFERENCE_QR.left, top: REFERENCE_QR.top, width: side, height: side })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  let light = 0;
  for (const v of data) {
    if (v < 48) dark += 1;
    else if (v > 208) light += 1;
  }
  return (dark + light) / data.length > 0.8 && dark / data.length > 0.25;
}

const stats = (values: number[]) => ({
  p50: round1(percentile(values, 50)),
  p90: round1(percentile(values, 90)),
  n: values.length,
});

/** A memory-backed folder for the stack's data, when this machine has one (Linux: /dev/shm). */
const MEMORY_DIR = existsSync('/dev/shm') ? '/dev/shm' : undefined;

if (SMOKE) {
  console.log(
    'bench: smoke run (--smoke): every part at its smallest size, to show it finishes; the ' +
      'figures are not measures and go to bench-results/smoke/',
  );
}
const stackStarted = performance.now();
const stack = await withTimeout(
  // The built SPA too: the editor benchmark drives it (npm run bench builds first). No local
  // queue pollers: they stand in for SQS event source mappings, which cost a render nothing in
  // AWS, and their idle polling of DynamoDB Local (every 200 ms per loop) would be counted in
  // `cpu_ms_per_render` (docs/performance.md "Render v2"). The send-list part starts them for its
  // own run.
  // Its data folder is in memory where the machine has one: the local S3 keeps each object as
  // files, whose disk writes cost more CPU than the S3 calls the render makes in AWS.
  startLocalStack({ port: 0, web: 'preview', queues: false, tempParent: MEMORY_DIR }),
  LIMITS.phase,
  'stack start',
);
const stackStartMs = performance.now() - stackStarted;
const watchdog = setTimeout(() => {
  console.error(`bench: over ${LIMITS.whole / 60_000} min, stopping`);
  void stack.stop().finally(() => process.exit(2));
}, LIMITS.whole);
watchdog.unref();

const origin = `http://127.0.0.1:${stack.port}`;
const phase = <T>(what: string, run: () => Promise<T>): Promise<T> => {
  console.log(`bench: ${what}…`);
  return withTimeout(run(), LIMITS.phase, what);
};

try {
  await insertReferenceDesign();

  // Warm: distinct values each request, sequential, after a warm-up.
  const warmHits = new Map<string, number>();
  const warmStages = new StageTimes();
  let lastWarm: Buffer | undefined;
  const warmCpuBefore = await readTreeCpu();
  const warm = await phase('warm renders', () =>
    sample(RUNS.warm, RUNS.warmup, async (i) => {
      const values = referenceValues(i < 0 ? `warmup${nonce}` : `warm${nonce}`, Math.abs(i));
      const started = performance.now();
      const answer = await getRender(origin, referencePath(values));
      const clientMs = performance.now() - started;
      warmHits.set(answer.hit, (warmHits.get(answer.hit) ?? 0) + 1);
      lastWarm = answer.body;
      if (i >= 0 && answer.stages.total !== undefined) {
        // What the service does not see: the gateway, the event, base64 and HTTP.
        warmStages.add({ ...answer.stages, outside: clientMs - answer.stages.total });
      }
    }),
  );
  const warmCpuMs = (await readTreeCpu()).cpuMs - warmCpuBefore.cpuMs;
  const qr = lastWarm ? await qrDrawn(lastWarm) : false;

  // The same renders at 2× (docs/export.md "Density"): distinct values, sequential, after a
  // warm-up that draws the 2× static layer; their bytes, and the whole tree's CPU per render
  // beside the 1× run's (both with their warm-ups, the client's own fetches included).
  const denseBytes: number[] = [];
  const denseStages = new StageTimes();
  const denseCpuBefore = await readTreeCpu();
  const dense = await phase('warm renders @2x', () =>
    sample(RUNS.dense, RUNS.warmup, async (i) => {
      const values = referenceValues(i < 0 ? `dwarmup${nonce}` : `dense${nonce}`, Math.abs(i));
      const answer = await getRender(origin, referencePath(values).replace('.jpg?', '@2x.jpg?'));
      if (i >= 0) {
        denseBytes.push(answer.body.length);
        denseStages.add(answer.stages);
      }
    }),
  );
  const denseCpuMs = (await readTreeCpu()).cpuMs - denseCpuBefore.cpuMs;
  const cpuPer = (ms: number, n: number) => round1(ms / (n + RUNS.warmup));

  // An animated design (docs/animated-designs.md): the reference scene with a 20-frame GIF
  // sticker at its `.gif` URL, distinct values, sequential, after a warm-up; its bytes, frames
  // and the whole tree's CPU per render (warm-up included, as above).
  await insertAnimatedDesign();
  const animatedBytes: number[] = [];
  const animatedStages = new StageTimes();
  let animatedFrames = 0;
  const animatedCpuBefore = await readTreeCpu();
  const animated = await phase('animated design (.gif)', () =>
    sample(RUNS.animated, RUNS.animatedWarmup, async (i) => {
      const values = referenceValues(i < 0 ? `awarmup${nonce}` : `anim${nonce}`, Math.abs(i));
      const answer = await getRender(origin, animatedPath(values));
      if (i >= 0) {
        animatedBytes.push(answer.body.length);
        animatedStages.add(answer.stages);
      }
      if (i === 0) animatedFrames = (await sharp(answer.body).metadata()).pages ?? 1;
    }),
  );
  const animatedCpuMs = (await readTreeCpu()).cpuMs - animatedCpuBefore.cpuMs;
  const animatedCpuPer = round1(animatedCpuMs / (animated.length + RUNS.animatedWarmup));

  // Cache hit: one miss, then the same URL.
  const samePath = referencePath(referenceValues(`same${nonce}`, 0));
  const cacheHitKinds = new Map<string, number>();
  const cacheHit = await phase('cache hits', () =>
    sample(RUNS.cacheHit, 1, async (i) => {
      const answer = await getRender(origin, samePath);
      if (i >= 0) cacheHitKinds.set(answer.hit, (cacheHitKinds.get(answer.hit) ?? 0) + 1);
    }),
  );

  // Floor: decode, fit and encode the same photo, nothing drawn.
  const photo = await readFile(PHOTO_PATH);
  const floor = await phase('floor', () =>
    sample(RUNS.floor, 5, () =>
      sharp(photo)
        .resize(CANVAS.width, CANVAS.height, { fit: 'cover' })
        .jpeg({ quality: JPEG_QUALITY })
        .toBuffer(),
    ),
  );

  const fitted = await fittedPhotoJpeg();
  const satoriRenderer = await createSatoriRenderer(fitted);
  const satori = await phase('satori + resvg', () =>
    sample(RUNS.satori, 3, (i) => satoriRenderer.render(referenceValues(`satori${nonce}`, i + 3))),
  );

  const { createPagePerRenderer } = await import('./page-per-render.ts');
  const pagePerRenderer = await createPagePerRenderer(fitted);
  let pagePerRender: number[];
  try {
    pagePerRender = await phase('page per render', () =>
      sample(RUNS.pagePerRender, 2, (i) =>
        pagePerRenderer.render(referenceValues(`page${nonce}`, i + 2)),
      ),
    );
  } finally {
    await pagePerRenderer.close();
  }

  // Cold starts: as the repo runs (tsx), and bundled as the render Lambda is deployed.
  const coldRuns = async (command: ColdCommand, series: string): Promise<ColdRun[]> => {
    const runs: ColdRun[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const query = referencePath(referenceValues(`${series}${nonce}`, i)).split('?')[1]!;
      runs.push(await runColdStart(command, query, LIMITS.coldRun));
    }
    return runs;
  };
  const cold = await phase('cold starts (tsx)', () => coldRuns(TSX_COMMAND, 'cold'));
  // An extra measure: if bundling fails, the bench still reports the other fields.
  const bundle = await bundleColdStart(join(RESULTS_DIR, 'cold-start')).catch((error: unknown) => {
    console.warn(`bench: bundled cold start skipped: ${(error as Error).message}`);
    return undefined;
  });
  const bundled = bundle
    ? await phase('cold starts (esbuild bundle)', () => coldRuns(bundle, 'coldbundle'))
    : [];
  // A brand-new sandbox: the same bundle (tsx if it could not be built), an empty temp folder.
  const freshRuns = async (series: string, storedAt?: string): Promise<ColdRun[]> => {
    const runs: ColdRun[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const query = referencePath(referenceValues(`${series}${nonce}`, i)).split('?')[1]!;
      runs.push(
        await runColdStart(bundle ?? TSX_COMMAND, query, LIMITS.coldRun, { fresh: true, storedAt }),
      );
    }
    return runs;
  };
  const fresh = await phase('cold starts, fresh sandbox (empty temp folder)', () =>
    freshRuns('coldfresh'),
  );
  // The option of a container image with Chromium stored unpacked
  // (docs/adr/0071-fresh-cold-start-chromium-stored-unpacked.md "Fresh cold start: Chromium stored
  // unpacked"): an empty temp folder, the binary the stack unpacked used where it lies, as
  // CHROMIUM_PATH.
  const stored = await phase('cold starts, Chromium stored unpacked (empty temp folder)', () =>
    freshRuns('coldstored', join(tmpdir(), 'chromium')),
  );
  /** Each step's median over the runs, ms (docs/performance.md "Method"). */
  const medianParts = (runs: ColdRun[]): Record<string, number> => {
    const split = runs.map(coldStartParts);
    const names = [...new Set(split.flatMap((p) => Object.keys(p)))];
    return Object.fromEntries(
      names.map((n) => [
        n,
        round1(
          percentile(
            split.flatMap((p) => (p[n] === undefined ? [] : [p[n]])),
            50,
          ),
        ),
      ]),
    );
  };
  const coldMs = (runs: ColdRun[]) =>
    percentile(
      runs.map((c) => c.first_image_ms),
      50,
    );
  const coldOk = (runs: ColdRun[]) =>
    runs.every((c) => c.status === 200 && !/no-store/.test(c.cache_control));

  // The load clients run in a worker thread, so their CPU can be subtracted from the tree's.
  let cpuBefore = { cpuMs: 0, pids: [] as number[] };
  const loadRun = await phase('load', () =>
    runLoadInWorker({ port: stack.port, ...LOAD, series: `load${nonce}` }, async () => {
      cpuBefore = await readTreeCpu();
    }),
  );
  const cpuAfter = await readTreeCpu();
  const load: LoadResult = loadRun.result;
  const stackCpuMs = cpuAfter.cpuMs - cpuBefore.cpuMs - loadRun.clientCpuMs;
  const cpuMsPerRender = load.ok > 0 ? stackCpuMs / load.ok : Number.NaN;

  // Open loop: independent arrivals at shares of the capacity the closed loop measured.
  const openLoop: Array<{ load: number; rps: number; result: LoadResult }> = [];
  for (const share of OPEN_LOOP.loads) {
    const rps = Math.max(1, load.rps * share);
    const run = await phase(`open-loop load at ${share * 100} % (${round1(rps)} rps)`, () =>
      runLoadInWorker(
        {
          port: stack.port,
          ...LOAD,
          durationMs: OPEN_LOOP.durationMs,
          series: `open${share}${nonce}`,
          openRps: rps,
        },
        () => Promise.resolve(),
      ),
    );
    openLoop.push({ load: share, rps, result: run.result });
  }
  const openAt70 = openLoop.find((o) => o.load === 0.7)?.result;

  const w = stats(warm);
  const d = stats(dense);
  const a = stats(animated);
  const f = stats(floor);
  const h = stats(cacheHit);
  const s = stats(satori);
  const p = stats(pagePerRender);
  const coldStartMs = coldMs(cold);
  const coldBundledMs = coldMs(bundled);
  const coldFreshMs = coldMs(fresh);
  const freshParts = medianParts(fresh);
  const coldStoredMs = coldMs(stored);
  const storedParts = medianParts(stored);
  const reinitParts = medianParts(bundle ? bundled : cold);
  const fontsWarmMs = warmStages.p50().fonts;
  const ratios = {
    warm_to_floor: w.p50 / f.p50,
    satori_to_warm: s.p50 / w.p50,
    page_per_render_to_warm: p.p50 / w.p50,
    cache_hit_to_floor: h.p50 / f.p50,
    warm_p90_to_p50: w.p90 / w.p50,
  };
  const targetsMet = {
    warm: ratios.warm_to_floor <= TARGETS.warmToFloor,
    warm_spread: ratios.warm_p90_to_p50 <= TARGETS.warmSpread,
    satori: ratios.satori_to_warm >= TARGETS.satoriToWarm,
    page_per_render: ratios.page_per_render_to_warm >= TARGETS.pagePerRenderToWarm,
    cache_hit: ratios.cache_hit_to_floor <= TARGETS.cacheHitToFloor,
    cold_start: coldStartMs <= TARGETS.coldStartMs && coldOk(cold),
    cold_start_bundled: coldBundledMs <= TARGETS.coldStartBundledMs && coldOk(bundled),
    cold_start_fresh: coldFreshMs <= TARGETS.coldStartFreshMs && coldOk(fresh),
    load: load.rps >= TARGETS.rps && load.p99Ms <= TARGETS.p99Ms && load.errors <= TARGETS.errors,
    cpu_per_render: cpuMsPerRender <= TARGETS.cpuMsPerRender,
    open_loop_70:
      openAt70 !== undefined && openAt70.p99Ms <= TARGETS.openLoopSpread * openAt70.p50Ms,
    fonts_stage: fontsWarmMs !== undefined && fontsWarmMs < TARGETS.fontsStageMs,
  };
  const round2 = (n: number) => Math.round(n * 100) / 100;

  const result = {
    warm_p50_ms: w.p50,
    warm_p90_ms: w.p90,
    dense_2x_p50_ms: d.p50,
    dense_2x_p90_ms: d.p90,
    dense_2x_bytes_p50: Math.round(percentile(denseBytes, 50)),
    dense_2x_cpu_ms_per_render: cpuPer(denseCpuMs, d.n),
    animated_gif_p50_ms: a.p50,
    animated_gif_p90_ms: a.p90,
    animated_gif_bytes_p50: Math.round(percentile(animatedBytes, 50)),
    animated_gif_frames: animatedFrames,
    animated_gif_cpu_ms_per_render: animatedCpuPer,
    warm_cpu_ms_per_render: cpuPer(warmCpuMs, w.n),
    floor_p50_ms: f.p50,
    satori_p50_ms: s.p50,
    page_per_render_p50_ms: p.p50,
    cache_hit_p50_ms: h.p50,
    cold_start_ms: round1(coldStartMs),
    throughput_rps: round1(load.rps),
    p99_ms: round1(load.p99Ms),
    errors: load.errors,
    cold_start_bundled_ms: round1(coldBundledMs),
    cold_start_fresh_ms: round1(coldFreshMs),
    /** Medians of each step, ms: before_unpack, unpack, spawn, page_open, first_draw, first_image. */
    cold_start_fresh_parts_ms: freshParts,
    /** The same steps of the re-init (bundled; tsx if the bundle failed), unpack 0. */
    cold_start_reinit_parts_ms: reinitParts,
    /** A fresh sandbox whose Chromium is stored unpacked (CHROMIUM_PATH), and its steps. */
    cold_start_stored_ms: round1(coldStoredMs),
    cold_start_stored_parts_ms: storedParts,
    cpu_ms_per_render: round1(cpuMsPerRender),
    /** Poisson arrivals at `load` × the closed loop's good images/s (`rps`, offered). */
    open_loop: openLoop.map((o) => ({
      load: o.load,
      rps: round1(o.rps),
      p50_ms: round1(o.result.p50Ms),
      p99_ms: round1(o.result.p99Ms),
      served_rps: round1(o.result.rps),
      errors: o.result.errors,
      requests: o.result.completed,
    })),
    targets_met: targetsMet,
    ratios: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, round2(v)])),
    detail: {
      floor_p90_ms: f.p90,
      satori_p90_ms: s.p90,
      page_per_render_p90_ms: p.p90,
      cache_hit_p90_ms: h.p90,
      samples: {
        warm: w.n,
        floor: f.n,
        cache_hit: h.n,
        animated_gif: a.n,
        satori: s.n,
        page_per_render: p.n,
        cold_start: cold.length,
      },
      warm_stages_p50_ms: warmStages.p50(),
      dense_2x_stages_p50_ms: denseStages.p50(),
      animated_gif_stages_p50_ms: animatedStages.p50(),
      load_stages_p50_ms: load.stagesP50Ms,
      cpu: {
        stack_cpu_ms: round1(stackCpuMs),
        load_clients_cpu_ms: round1(loadRun.clientCpuMs),
        renders: load.ok,
        processes: cpuAfter.pids.length,
      },
      warm_cache_answers: Object.fromEntries(warmHits),
      cache_hit_answers: Object.fromEntries(cacheHitKinds),
      qr_drawn_by_renderer: qr,
      cold_start_runs: cold,
      cold_start_bundled_runs: bundled,
      cold_start_fresh_runs: fresh,
      cold_start_stored_runs: stored,
      load: {
        ...load,
        p50Ms: round1(load.p50Ms),
        p90Ms: round1(load.p90Ms),
        p99Ms: round1(load.p99Ms),
        rps: round2(load.rps),
        elapsedMs: round1(load.elapsedMs),
        clients: LOAD.clients,
        duration_ms: LOAD.durationMs,
      },
      open_loop: openLoop.map((o) => ({ load: o.load, ...o.result })),
      stack_start_ms: round1(stackStartMs),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', node: process.version },
      measured_at: new Date().toISOString(),
    },
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'render.json'), `${JSON.stringify(result, null, 2)}\n`);

  const mark = (met: boolean) => (met ? '✓' : '✗');
  const x = (n: number) => `${round2(n)}×`;
  const coldRow = (name: string, runs: ColdRun[], ms: number, limit: number, met: boolean) => ({
    measure: name,
    'p50 ms': runs.length > 0 ? round1(ms) : 'failed',
    'p90 ms': runs.length > 0 ? round1(Math.max(...runs.map((c) => c.first_image_ms))) : '',
    'p99 ms': '',
    ratio: `median of ${runs.length}`,
    target: `≤ ${limit} ms`,
    met: mark(met),
  });
  const rows: Array<Record<string, string | number>> = [
    {
      measure: 'warm render (HTTP, distinct values)',
      'p50 ms': w.p50,
      'p90 ms': w.p90,
      ratio: `${x(ratios.warm_to_floor)} floor`,
      target: `≤ ${TARGETS.warmToFloor}× floor`,
      met: mark(targetsMet.warm),
    },
    {
      measure: 'warm render @2x (same, twice the size)',
      'p50 ms': d.p50,
      'p90 ms': d.p90,
      ratio: `${x(d.p50 / w.p50)} warm; ${Math.round(percentile(denseBytes, 50) / 1000)} kB; CPU ${cpuPer(denseCpuMs, d.n)} vs ${cpuPer(warmCpuMs, w.n)} ms`,
    },
    {
      measure: `animated design .gif (${ANIMATED_STICKER.frames}-frame GIF sticker)`,
      'p50 ms': a.p50,
      'p90 ms': a.p90,
      ratio: `${x(a.p50 / w.p50)} warm; ${animatedFrames} frames; ${Math.round(percentile(animatedBytes, 50) / 1000)} kB; CPU ${animatedCpuPer} ms`,
    },
    {
      measure: 'warm spread (p90 / p50)',
      ratio: x(ratios.warm_p90_to_p50),
      target: `≤ ${TARGETS.warmSpread}×`,
      met: mark(targetsMet.warm_spread),
    },
    {
      measure: 'fonts stage, warm (Server-Timing)',
      'p50 ms': fontsWarmMs ?? 'absent',
      target: `< ${TARGETS.fontsStageMs} ms`,
      met: mark(targetsMet.fonts_stage),
    },
    {
      measure: 'floor (sharp decode + fit + JPEG)',
      'p50 ms': f.p50,
      'p90 ms': f.p90,
      ratio: '1×',
    },
    {
      measure: 'cache hit (same URL again)',
      'p50 ms': h.p50,
      'p90 ms': h.p90,
      ratio: `${x(ratios.cache_hit_to_floor)} floor`,
      target: `≤ ${TARGETS.cacheHitToFloor}× floor`,
      met: mark(targetsMet.cache_hit),
    },
    {
      measure: 'satori + resvg + JPEG',
      'p50 ms': s.p50,
      'p90 ms': s.p90,
      ratio: `${x(ratios.satori_to_warm)} warm`,
      target: `≥ ${TARGETS.satoriToWarm}× warm`,
      met: mark(targetsMet.satori),
    },
    {
      measure: 'page per render (new page + screenshot)',
      'p50 ms': p.p50,
      'p90 ms': p.p90,
      ratio: `${x(ratios.page_per_render_to_warm)} warm`,
      target: `≥ ${TARGETS.pagePerRenderToWarm}× warm`,
      met: mark(targetsMet.page_per_render),
    },
    coldRow(
      'cold start, tsx (process → image)',
      cold,
      coldStartMs,
      TARGETS.coldStartMs,
      targetsMet.cold_start,
    ),
    coldRow(
      'cold start, bundled as deployed',
      bundled,
      coldBundledMs,
      TARGETS.coldStartBundledMs,
      targetsMet.cold_start_bundled,
    ),
    coldRow(
      'cold start, fresh sandbox (unpack first)',
      fresh,
      coldFreshMs,
      TARGETS.coldStartFreshMs,
      targetsMet.cold_start_fresh,
    ),
    coldRow(
      'cold start, fresh, Chromium stored unpacked',
      stored,
      coldStoredMs,
      TARGETS.coldStartFreshMs,
      coldStoredMs <= TARGETS.coldStartFreshMs && coldOk(stored),
    ),
    {
      measure: `load (${LOAD.clients} clients, ${LOAD.durationMs / 1000} s)`,
      'p50 ms': round1(load.p50Ms),
      'p90 ms': round1(load.p90Ms),
      'p99 ms': round1(load.p99Ms),
      ratio: `${round1(load.rps)} rps, ${load.errors} errors`,
      target: `≥ ${TARGETS.rps} rps, p99 ≤ ${TARGETS.p99Ms} ms, 0 errors`,
      met: mark(targetsMet.load),
    },
    {
      measure: 'CPU per render under load (whole stack)',
      ratio: `${round1(cpuMsPerRender)} core-ms`,
      target: `≤ ${TARGETS.cpuMsPerRender} core-ms`,
      met: mark(targetsMet.cpu_per_render),
    },
  ];
  console.log(
    `\n${formatTable(['measure', 'p50 ms', 'p90 ms', 'p99 ms', 'ratio', 'target', 'met'], rows)}\n`,
  );
  console.log('Cold start, step by step (median ms; re-init = Chromium already unpacked):');
  console.log(
    `${formatTable(
      ['step', 'fresh sandbox', 'stored unpacked', 're-init'],
      Object.keys(freshParts).map((step) => ({
        step,
        'fresh sandbox': freshParts[step] ?? '',
        'stored unpacked': storedParts[step] ?? '',
        're-init': reinitParts[step] ?? '',
      })),
    )}\n`,
  );
  console.log(
    `Open-loop load (Poisson arrivals, ${OPEN_LOOP.durationMs / 1000} s each, capacity ` +
      `${round1(load.rps)} rps from the closed loop; target p99 ≤ ${TARGETS.openLoopSpread}× p50 at 70 %):`,
  );
  console.log(
    `${formatTable(
      ['load', 'rps', 'p50 ms', 'p99 ms', 'p99 / p50', 'served rps', 'errors'],
      openLoop.map((o) => ({
        load: `${o.load * 100} %`,
        rps: round1(o.rps),
        'p50 ms': round1(o.result.p50Ms),
        'p99 ms': round1(o.result.p99Ms),
        'p99 / p50': x(o.result.p99Ms / o.result.p50Ms),
        'served rps': round1(o.result.rps),
        errors: o.result.errors,
      })),
    )}\n`,
  );
  const warmP50 = warmStages.p50();
  const stageNames = [...new Set([...Object.keys(warmP50), ...Object.keys(load.stagesP50Ms)])];
  if (stageNames.length > 0) {
    console.log('Where a miss spends its time (Server-Timing p50, ms; outside = gateway + HTTP):');
    console.log(
      `${formatTable(
        ['stage', 'warm', 'under load'],
        stageNames.map((name) => ({
          stage: name,
          warm: warmP50[name] ?? '',
          'under load': load.stagesP50Ms[name] ?? '',
        })),
      )}\n`,
    );
  }
  console.log(
    `QR drawn by the renderer: ${qr ? 'yes' : 'no'}; warm answers ${JSON.stringify(result.detail.warm_cache_answers)}; ` +
      `load errors ${JSON.stringify(load.errorKinds)}; stack start ${round1(stackStartMs)} ms; ` +
      `${cpus().length} CPUs, node ${process.version}`,
  );
  console.log('wrote bench-results/render.json');
  if (!renderOnly) {
    // A 600x200 countdown timer of 30 frames as a GIF beside its static JPEG (test/bench/timer.ts;
    // docs/performance.md "Countdown timers"), merged into bench-results/render.json.
    await withTimeout(runTimerBench(stack), TIMER_LIMIT_MS, 'timer');

    // The dashboard lists of a team with 1,000 designs (test/bench/dashboard.ts;
    // docs/performance.md "Dashboard lists").
    await phase('dashboard lists', () => runDashboardBench(stack));

    // The editor in the built SPA (test/bench/editor.ts; docs/performance.md "Editor").
    await phase('editor', () => runEditorBench(stack));

    // Output size by JPEG encoder settings (test/bench/quality.ts; docs/performance.md "Output
    // quality").
    await withTimeout(runQualityBench(stack), QUALITY_LIMIT_MS, 'quality');

    // Recipients through mail proxies and an abuser (test/bench/campaign.ts; docs/performance.md
    // "Campaign").
    console.log('bench: campaign…');
    await withTimeout(runCampaignBench(stack, campaignOptions), CAMPAIGN_LIMIT_MS, 'campaign');

    // A 10,000-row send list and the replay of its URLs (test/bench/send-list.ts;
    // docs/performance.md "Send lists").
    // This stack runs without queue pollers (above), and a send list's job is a queue message:
    // they run for this part only, or the job would never leave `queued`.
    console.log('bench: send list…');
    const { startQueuePollers } = await import('#infra/local/queue-poller.ts');
    const pollers = await startQueuePollers();
    try {
      await withTimeout(runSendListBench(stack, sendListOptions), SEND_LIST_LIMIT_MS, 'send-list');
    } finally {
      await pollers.stop();
    }

    // Campaign analytics: 10 million log records rolled up, and the report's query
    // (test/bench/analytics.ts; docs/performance.md "Campaign analytics").
    await withTimeout(runAnalyticsBench(stack), ANALYTICS_LIMIT_MS, 'analytics');
  }
} finally {
  const stopped = await withTimeout(stack.stop(), 60_000, 'stack stop').then(
    () => true,
    (error: unknown) => {
      console.error(error);
      return false;
    },
  );
  clearTimeout(watchdog);
  // A stack that did not stop may hold the event loop open: never hang on it.
  if (!stopped) process.exit(1);
}
