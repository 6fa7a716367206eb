/**
 * The CDN after a team's watermark or plan changes (docs/adr/0057-watermark.md "Watermark", its
 * "CDN" point), at the CloudFront SDK boundary: the local stack (DynamoDB Local, the S3 emulator,
 * the recorded Stripe client) with a recording CloudFront client standing in for the distribution.
 * A new or removed team watermark invalidates the render paths of the team's designs that show it;
 * a plan change that adds or removes the product mark invalidates every design of the team; a plan
 * change that keeps the mark asks for nothing. Each change also queues the same invalidation 90 s
 * later (the render keeps team settings up to a minute), which the stack's queue poller carries
 * out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setDefaultInvalidationDeps } from '#lib/cdn.ts';
import { documentClient } from '#lib/clients.ts';
import type { MessageItem } from '#lib/queue.ts';
import { config } from '#lib/config.ts';
import { TABLE } from '#shared/resources.ts';
import { RECHECK_DELAY_SECONDS, RECHECK_REFERENCE } from '#functions/designs/team-renders.ts';
import { pollUntil } from '../support/stack.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, type DesignJson } from '../support/designs.ts';
import { invalidatedPaths, recordingCloudFront } from '../support/cloudfront.ts';
import { signedEvent, useOnlineBillingStack } from '../support/stripe.ts';
import { nowSeconds, PRICES, subscription, subscriptionItem } from '../fixtures/stripe/objects.ts';
import { subscriptionEvent } from '../fixtures/stripe/events.ts';

const { stack } = useOnlineBillingStack();
const cdn = recordingCloudFront();

let client: TestClient;
let teamId: string;
let designs: DesignJson[];

beforeAll(async () => {
  client = await ownTeam(stack().url, `cdn-${Date.now()}@example.com`);
  teamId = (await client.request('GET', '/settings/companies/current')).json.id as string;
  designs = [];
  for (const title of ['Shows logo A', 'Shows logo B', 'No logo']) {
    designs.push(await createDesign(client, { title }));
  }
  for (const design of designs.slice(0, 2)) {
    const res = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      show_watermark: true,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
  setDefaultInvalidationDeps({ client: cdn.client, distributionId: 'ETESTDIST' });
});

afterAll(() => setDefaultInvalidationDeps({}));

/**
 * The render paths CloudFront was asked to invalidate since the last call, sorted: the first
 * invalidations (`rechecks`: false) or the queued second ones (true); the others stay recorded.
 */
function renderPathsAsked(rechecks = false): string[] {
  const isRecheck = (body: string) => body.includes(`<CallerReference>${RECHECK_REFERENCE}`);
  const asked = cdn.requests.filter((r) => isRecheck(r.body) === rechecks);
  cdn.requests.splice(0, cdn.requests.length, ...cdn.requests.filter((r) => !asked.includes(r)));
  const paths = asked.flatMap((r) => {
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/2020-05-31/distribution/ETESTDIST/invalidation');
    return invalidatedPaths(r.body);
  });
  return paths.filter((p) => p.startsWith('/r/')).sort();
}

const pathOf = (design: DesignJson) => `/r/${design.public_id}*`;

async function uploadWatermark(rgb: [number, number, number]) {
  const png = await sharp({
    create: {
      width: 200,
      height: 100,
      channels: 3,
      background: { r: rgb[0], g: rgb[1], b: rgb[2] },
    },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('watermark', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
  const res = await client.request('POST', `/settings/companies/${teamId}/watermark`, form);
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
}

/** Delivers a subscription event the way Stripe does (signed raw JSON). */
async function deliver(event: unknown) {
  const { payload, signature } = signedEvent(event);
  const res = await fetch(`${stack().url}/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  });
  expect(res.status).toBe(200);
}

describe('CDN invalidation after a watermark or plan change', () => {
  it('invalidates the designs that show the team watermark when it is set, replaced or removed', async () => {
    const showing = [pathOf(designs[0]!), pathOf(designs[1]!)].sort();
    await uploadWatermark([220, 38, 38]);
    expect(renderPathsAsked()).toEqual(showing);
    await uploadWatermark([37, 99, 235]);
    expect(renderPathsAsked()).toEqual(showing);
    const removed = await client.request('DELETE', `/settings/companies/${teamId}/watermark`);
    expect(removed.status).toBeLessThan(300);
    expect(renderPathsAsked()).toEqual(showing);
  });

  it('invalidates every design of the team when the plan adds or drops the product mark', async () => {
    const all = designs.map(pathOf).sort();
    const sub = (overrides: Parameters<typeof subscription>[0] = {}) =>
      subscription(
        {
          id: `sub_Cdn${teamId}`,
          customer: `cus_Cdn${teamId}`,
          metadata: { team_id: teamId },
          ...overrides,
        },
        subscriptionItem(PRICES.proMonthly),
      );
    const t = nowSeconds();
    // Free (product mark) → Pro (none).
    await deliver(subscriptionEvent('customer.subscription.created', sub(), t - 10));
    expect(renderPathsAsked()).toEqual(all);
    // Still Pro (a seat change): the renders do not change, nothing is asked.
    await deliver(
      subscriptionEvent(
        'customer.subscription.updated',
        subscription(
          { id: `sub_Cdn${teamId}`, customer: `cus_Cdn${teamId}`, metadata: { team_id: teamId } },
          subscriptionItem(PRICES.proMonthly, 2),
        ),
        t - 5,
      ),
    );
    expect(renderPathsAsked()).toEqual([]);
    // Canceled: back to Free, the product mark returns.
    await deliver(
      subscriptionEvent(
        'customer.subscription.deleted',
        sub({ status: 'canceled', canceled_at: t, ended_at: t }),
        t,
      ),
    );
    expect(renderPathsAsked()).toEqual(all);
  });

  it('asks again for the same paths once the render has forgotten the old settings', async () => {
    const showing = [pathOf(designs[0]!), pathOf(designs[1]!)].sort();
    const since = Date.now();
    await uploadWatermark([22, 163, 74]);
    expect(renderPathsAsked()).toEqual(showing);
    // The second pass waits on the queue for the render's kept settings (60 s) and the longest
    // render begun with them (25 s) to run out.
    expect(RECHECK_DELAY_SECONDS).toBeGreaterThanOrEqual(60 + 25);
    const [queued] = await pollUntil(
      'the second pass queued',
      () => rechecksQueuedSince(since),
      (found) => found.length === 1,
    );
    expect(JSON.parse(queued!.body)).toEqual({ teamId, which: 'watermarked' });
    expect(queued!.visibleAt - queued!.sentAt).toBe(RECHECK_DELAY_SECONDS * 1000);
    expect(renderPathsAsked(true)).toEqual([]);
    // Its time comes (moved forward here): the stack's poller runs the worker.
    await makeDue(queued!);
    await pollUntil(
      'the second invalidation',
      async () => cdn.requests.length,
      (n) => n > 0,
      { timeoutMs: 20_000 },
    );
    expect(renderPathsAsked(true)).toEqual(showing);
    expect(renderPathsAsked()).toEqual([]);
  });
});

type QueuedMessage = MessageItem;

/** This team's messages on the local `render-invalidations` queue sent since `since`, ms. */
async function rechecksQueuedSince(since: number): Promise<QueuedMessage[]> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: config().TABLE_NAME,
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': 'queue#render-invalidations' },
      Limit: 1000,
    }),
  );
  return (Items as QueuedMessage[]).filter((m) => m.sentAt >= since && m.body.includes(teamId));
}

/** Makes a delayed local message visible now (its delay is what SQS's DelaySeconds does). */
async function makeDue(message: QueuedMessage): Promise<void> {
  const index = TABLE.globalSecondaryIndexes[2]!;
  const now = Date.now();
  await documentClient().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: { pk: message.pk, sk: message.sk },
      UpdateExpression: 'SET visibleAt = :now, #s = :vis',
      ExpressionAttributeNames: { '#s': index.sortKey },
      ExpressionAttributeValues: {
        ':now': now,
        ':vis': `vis#${String(now).padStart(15, '0')}#${message.id}`,
      },
    }),
  );
}
