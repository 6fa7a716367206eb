/**
 * The CDN after a team's watermark or plan changes (docs/decisions.md "Watermark", its "CDN"
 * point), at the CloudFront SDK boundary: the local stack (DynamoDB Local, the S3 emulator, the
 * recorded Stripe client) with a recording CloudFront client standing in for the distribution. A new or removed team watermark invalidates the render paths of the team's
 * designs that show it; a plan change that adds or removes the product mark invalidates every
 * design of the team; a plan change that keeps the mark asks for nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { setDefaultInvalidationDeps } from '#lib/cdn.ts';
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

/** The render paths CloudFront was asked to invalidate since the last call, sorted. */
function renderPathsAsked(): string[] {
  const paths = cdn.requests.flatMap((r) => {
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/2020-05-31/distribution/ETESTDIST/invalidation');
    return invalidatedPaths(r.body);
  });
  cdn.requests.length = 0;
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
});
