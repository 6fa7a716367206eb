/**
 * The SDK clients give up on a service that never answers (functions/lib/clients.ts
 * `CLIENT_TIMEOUTS`, docs/operations.md "Timeouts"): a TCP server here accepts connections and
 * stays silent, as a hung endpoint does, and each client's call rejects with a timeout instead of
 * waiting for as long as the function lives.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  CLIENT_TIMEOUTS,
  clientTimeouts,
  documentClient,
  resetClients,
  s3Client,
} from '#lib/clients.ts';
import { resetConfig } from '#lib/config.ts';

let server: Server;
const sockets = new Set<Socket>();
let accepted = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  vi.stubEnv('DYNAMODB_ENDPOINT', `http://127.0.0.1:${port}`);
  vi.stubEnv('S3_ENDPOINT', `http://127.0.0.1:${port}`);
  resetConfig();
  resetClients();
});

afterAll(async () => {
  resetClients();
  vi.unstubAllEnvs();
  resetConfig();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

it('rejects a DynamoDB and an S3 call to an endpoint that never answers', async () => {
  const [dynamo, s3] = await Promise.allSettled([
    documentClient().send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })),
    s3Client().send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })),
  ]);
  for (const outcome of [dynamo, s3]) {
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: 'TimeoutError' });
  }
  // Each client tried again before giving up (maxAttempts), each time on a fresh connection.
  expect(accepted).toBeGreaterThanOrEqual(4);
}, 60_000);

it('gives the local product (npm start) a patient budget and keeps the AWS one for tests and AWS', () => {
  expect(clientTimeouts('aws')).toBe(CLIENT_TIMEOUTS);
  expect(clientTimeouts('test')).toBe(CLIENT_TIMEOUTS);
  expect(clientTimeouts('local').dynamodb.requestTimeout).toBe(30_000);
  expect(clientTimeouts('local').s3.requestTimeout).toBe(30_000);
  // Only the wait for the answer grows; a refused connection still fails at once.
  expect(clientTimeouts('local').dynamodb.connectionTimeout).toBe(
    CLIENT_TIMEOUTS.dynamodb.connectionTimeout,
  );
});
