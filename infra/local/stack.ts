/**
 * Starts the whole product on one machine (docs/operations.md "First start"):
 * DynamoDB Local, s3rver, the table and buckets, the seed, one warm Chromium and the local gateway
 * on one port, serving the SPA through Vite (hot reload) or from the build. `npm start`,
 * `npm run preview`, the integration and e2e tests and the benchmarks all start it through here.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resetClients, dynamoClient, s3Client } from '#lib/clients.ts';
import { config, resetConfig } from '#lib/config.ts';
import { resetDb } from '#lib/db/index.ts';
import {
  BUCKETS,
  LOCAL_CDN_LOGS_BUCKET,
  localBucketName,
  type BucketRole,
} from '#shared/resources.ts';
import { ensureBuckets, ensureTable } from './resources.ts';
import { gatewayListener, staticSpa, type SpaHandler } from './gateway.ts';
import {
  freePort,
  killChildren,
  startDynamo,
  startS3,
  superviseDynamo,
  type RunningService,
} from './services.ts';
import { seed } from './seed.ts';
import { forget, waitFor } from '#lib/readiness.ts';

export interface LocalStackOptions {
  /** Port of the gateway; 0 = a free one. Default: config PORT (3000). */
  port?: number;
  /** Keep data under `.local/` (npm start); otherwise in memory and a temp folder (tests). */
  persist?: boolean;
  /** How the SPA is served: Vite with hot reload, the build in dist/web, or not at all. */
  web?: 'dev' | 'preview' | 'none';
  /**
   * Keep DynamoDB's data on disk in the (temporary) data folder rather than in memory, so that it
   * survives `dynamo.stop()` and `dynamo.start()` (fault tests). Implied by `persist`.
   */
  dynamoOnDisk?: boolean;
  /** Seed an empty database (default true). */
  seed?: boolean;
  /**
   * Restart DynamoDB Local when its process dies (`npm start`; services.ts `superviseDynamo`):
   * each death and restart is reported as a line; `fatal` says the stack cannot go on (it died
   * too often, or the database is in memory, so a restart would be empty) and should stop.
   */
  onDynamoDeath?: (line: string, fatal: boolean) => void;
  /**
   * Poll the local queues with their workers (infra/local/queue-poller.ts; default true). Tests
   * that drive a queue themselves turn it off.
   */
  queues?: boolean;
  /** Launch Chromium and open the render page before answering (default true). */
  warmChromium?: boolean;
  /**
   * Run the once-a-day jobs (the kiosk's daily snapshot; infra/local/daily.ts) at start and at
   * each new UTC day. Default: with `persist` (`npm start`, `npm run preview`).
   */
  dailyJobs?: boolean;
  /**
   * Roll up campaign analytics from the local CDN log every this many ms (infra/local/
   * analytics.ts; docs/analytics.md "Locally"); 0 never. Default: every minute with `persist`.
   */
  analyticsEveryMs?: number;
  /**
   * Where a stack without `persist` makes its temporary data folder (default `os.tmpdir()`). The
   * benchmark puts it in memory (`/dev/shm`), so that the local S3's file writes on this
   * machine's disk are not counted as render CPU (docs/performance.md "Method").
   */
  tempParent?: string;
  log?: (line: string) => void;
}

export interface LocalStack {
  url: string;
  port: number;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** Where the data lives (`.local/` for `npm start`; a temp folder removed on stop for tests). */
  dataDir: string;
  /**
   * DynamoDB Local as a fault to inject: `stop()` ends its process (requests then fail to
   * connect), `start()` starts it again on the same port and waits until it answers. Data
   * survives only with `dynamoOnDisk` (or `persist`).
   */
  dynamo: { stop(): Promise<void>; start(): Promise<void> };
  /**
   * Points this process back at this stack: sets the environment the handlers read (endpoints,
   * table, buckets, public URL, outbox) and drops the cached config, SDK clients and table model.
   * A test worker that shares one stack between files calls it before each file, after a file
   * that started a stack of its own or changed the environment (docs/testing.md).
   */
  activate(): void;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '..', '..');

async function spaHandler(
  mode: 'dev' | 'preview' | 'none',
  server: Server,
): Promise<{ spa: SpaHandler; close(): Promise<void> }> {
  if (mode === 'none') {
    return {
      spa: (_req, res) => {
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('The SPA is not served in this mode.');
      },
      close: async () => undefined,
    };
  }
  if (mode === 'preview')
    return { spa: staticSpa(join(ROOT, 'dist', 'web')), close: async () => undefined };
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    configFile: join(ROOT, 'web', 'vite.config.ts'),
    server: { middlewareMode: true, hmr: { server } },
    appType: 'spa',
    logLevel: 'warn',
  });
  return {
    spa: (req, res) =>
      new Promise<void>((done) => {
        vite.middlewares(req, res, () => {
          if (!res.headersSent) res.writeHead(404).end();
          done();
        });
        res.once('finish', () => done());
      }),
    close: () => vite.close(),
  };
}

/**
 * Starts the local stack and returns its URL and a `stop()` that ends every process it began.
 * Sets the process environment (endpoints, table, buckets) that the handlers read.
 * @throws Error if Java is missing (with the apt-get line), or a service does not start.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const persist = options.persist ?? false;
  const dataDir = persist
    ? resolve(config().LOCAL_DATA_DIR ?? join(ROOT, '.local'))
    : await mkdtemp(join(options.tempParent ?? tmpdir(), 'picsnippets-'));
  const services: RunningService[] = [];
  /** Set when `stop()` begins: a DynamoDB Local death then is the stop's (services.ts `superviseDynamo`). */
  let stopping = false;
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const buckets = Object.fromEntries(
      (Object.keys(BUCKETS) as BucketRole[]).map((role) => [role, localBucketName(role)]),
    ) as Record<BucketRole, string>;
    const dynamoPath = persist || options.dynamoOnDisk ? join(dataDir, 'dynamodb') : undefined;
    const [dynamo, s3] = await Promise.all([
      startDynamo(dynamoPath ? { path: dynamoPath } : {}),
      startS3({
        directory: join(dataDir, 's3'),
        buckets: [...Object.values(buckets), LOCAL_CDN_LOGS_BUCKET],
      }),
    ]);
    const dynamoPort = Number(new URL(dynamo.endpoint).port);
    const report = options.onDynamoDeath;
    if (report && dynamoPath) {
      const watched = superviseDynamo(
        dynamo,
        { path: dynamoPath, port: dynamoPort, stopping: () => stopping },
        report,
      );
      services.push({ endpoint: dynamo.endpoint, stop: watched.stop }, s3);
    } else {
      if (report) {
        void dynamo.died.then((how) =>
          report(`DynamoDB Local stopped (${how}); its data was in memory: stopping.`, true),
        );
      }
      services.push(dynamo, s3);
    }

    const port = options.port === 0 ? await freePort() : (options.port ?? config().PORT);
    const url = `http://localhost:${port}`;
    const environment = {
      STAGE: process.env.STAGE === 'test' ? 'test' : 'local',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      TABLE_NAME: 'picsnippets-local-main',
      ASSETS_BUCKET: buckets.assets,
      RENDERS_BUCKET: buckets.renders,
      WEB_BUCKET: buckets.web,
      CDN_LOGS_BUCKET: LOCAL_CDN_LOGS_BUCKET,
      PUBLIC_URL: url,
      OUTBOX_DIR: join(dataDir, 'outbox'),
    };
    const activate = () => {
      Object.assign(process.env, environment);
      resetConfig();
      resetClients();
      resetDb();
    };
    activate();
    const added = await ensureTable(dynamoClient(), config().TABLE_NAME);
    if (added.length > 0) log(`DynamoDB: added ${added.join(', ')} to the existing local table`);
    await ensureBuckets(s3Client(), buckets);
    if (options.seed ?? true) await seed(log);
    if (options.queues ?? true) {
      const { startQueuePollers } = await import('./queue-poller.ts');
      const pollers = await startQueuePollers();
      cleanups.push(() => pollers.stop());
    }
    const analyticsEveryMs = options.analyticsEveryMs ?? (persist ? 60_000 : 0);
    if (analyticsEveryMs > 0) {
      const { startAnalyticsRollups } = await import('./analytics.ts');
      const rollups = startAnalyticsRollups(analyticsEveryMs, log);
      cleanups.push(() => rollups.stop());
    }
    if (options.dailyJobs ?? persist) {
      const { startDailyJobs } = await import('./daily.ts');
      const jobs = startDailyJobs(log);
      cleanups.push(() => jobs.stop());
    }

    // Health answers 503 with what the renderer waits for until the warm page can draw.
    if (options.warmChromium ?? true) waitFor('renderer', 'starting Chromium');
    const server = createServer();
    const web = await spaHandler(options.web ?? 'dev', server);
    cleanups.push(() => web.close());
    server.on('request', gatewayListener(web.spa));
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => ok());
    });
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    );

    const { closeBrowser, getRenderPage } = await import('#functions/render/browser.ts');
    const { closeScreenshotBrowser } = await import('#functions/screenshot/capture.ts');
    cleanups.push(closeBrowser, closeScreenshotBrowser);
    if (options.warmChromium ?? true) await getRenderPage();

    return {
      url,
      port,
      dynamoEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      dataDir,
      activate,
      dynamo: {
        stop: () => services[0]!.stop(),
        start: async () => {
          services[0] = await startDynamo({
            port: dynamoPort,
            ...(dynamoPath ? { path: dynamoPath } : {}),
          });
        },
      },
      stop: async () => {
        stopping = true;
        for (const c of cleanups.reverse()) await c().catch(() => undefined);
        for (const s of services) await s.stop().catch(() => undefined);
        resetClients();
        killChildren();
        if (!persist) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    forget('renderer');
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    for (const s of services) await s.stop().catch(() => undefined);
    killChildren();
    throw error;
  }
}
