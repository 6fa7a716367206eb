/**
 * The foundation through the local stack: health, the security headers of refusals, the seed
 * (users, plans, the demo team and the image library) and the demo render. Other files on the same
 * stack add photos to the global library (the kiosk's), so the seed's photos are looked for by
 * their ids; the seeded logins, plans and the demo team are read only (docs/testing.md).
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { api, fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { TestClient } from '../support/client.ts';

const stack = useLocalStack();

describe('health', () => {
  it('reports DynamoDB and S3 as answering', async () => {
    const res = await api(stack(), 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      ok: true,
      services: { dynamodb: { ok: true }, s3: { ok: true } },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the middy chain', () => {
  it('answers a refusal as JSON with the security headers', async () => {
    // The kiosk is for platform admins only (docs/kiosk.md): a signed-in user is refused.
    const user = new TestClient(stack().url);
    expect((await user.login('demo@example.com')).status).toBe(200);
    const res = await user.request('GET', '/spark/kiosk/announcements');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.json).toMatchObject({ success: false });
    expect(String(res.json.message)).not.toBe('');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses malformed JSON with a 4xx, not a crash', async () => {
    const res = await api(stack(), 'POST', '/register', '{"email": ');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.success).toBe(false);
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await api(stack(), 'PATCH', '/register', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 404 JSON for an unknown API path', async () => {
    const res = await api(stack(), 'POST', '/no-such-call', {});
    expect(res.status).toBe(404);
    expect(res.json.success).toBe(false);
  });
});

describe('the seed', () => {
  it('has the users, plans, team and image library', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { verifyPassword } = await import('#lib/passwords.ts');
    const { User, Plan, Team, LibraryImage } = db();
    const admin = (await User.query.byEmail({ email: 'admin@example.com' }).go()).data[0];
    const demo = (await User.query.byEmail({ email: 'demo@example.com' }).go()).data[0];
    expect(admin?.isAdmin).toBe(true);
    expect(demo?.isAdmin).toBe(false);
    expect(await verifyPassword('demo-password', demo!.passwordHash)).toBe(true);
    expect(await verifyPassword('wrong-password', demo!.passwordHash)).toBe(false);

    // Every plan of the catalogue is seeded (functions/billing/plans.ts); Pro has PDF export
    // and custom fonts (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "Pro plans only"), Free has
    // neither.
    const { PLAN_CATALOGUE } = await import('#functions/billing/plans.ts');
    const plans = (await Plan.query.all({}).go()).data;
    const row = (p: {
      planId: string;
      price: number;
      can_export_pdf?: boolean;
      can_upload_custom_fonts?: boolean;
    }) =>
      [p.planId, p.price, p.can_export_pdf ?? false, p.can_upload_custom_fonts ?? false] as const;
    expect(plans.map(row).sort()).toEqual(PLAN_CATALOGUE.map(row).sort());
    expect(plans.find((p) => p.planId === 'free')).toMatchObject({
      price: 0,
      can_export_pdf: false,
    });
    expect(plans.find((p) => p.planId === 'pro-monthly')).toMatchObject({
      price: 2900,
      can_export_pdf: true,
      can_upload_custom_fonts: true,
    });
    const team = (await Team.get({ teamId: demo!.currentTeamId! }).go()).data;
    expect(team).toMatchObject({ name: 'Demo Team', planId: 'pro-monthly', ownerId: demo!.userId });

    // Every seed photo (infra/seed/photos) is in the global library under its own id.
    const photos = (await readdir(new URL('../../infra/seed/photos/', import.meta.url))).filter(
      (f) => f.endsWith('.jpg'),
    );
    const seededIds = photos.map((f) => `library-${f.replace(/\.jpg$/, '')}`);
    expect(seededIds).toHaveLength(10);
    const global = (await LibraryImage.query.byScope({ scope: 'global' }).go({ pages: 'all' }))
      .data;
    const images = global.filter((i) => seededIds.includes(i.imageId));
    expect(images.map((i) => i.imageId).sort()).toEqual([...seededIds].sort());
    const autumn = images.find((i) => i.imageId === 'library-autumn');
    expect(autumn).toMatchObject({
      width: 1600,
      height: 1000,
      licence: 'LGPL-3.0',
      author: 'RJ Quiralta',
    });
    const { s3Client } = await import('#lib/clients.ts');
    const object = await s3Client().send(
      new GetObjectCommand({ Bucket: process.env.ASSETS_BUCKET, Key: autumn!.thumbKey }),
    );
    expect(object.ContentType).toBe('image/jpeg');
  });

  it('does not seed twice', async () => {
    const { seed } = await import('#infra/local/seed.ts');
    expect(await seed(() => undefined)).toBe(false);
  });
});

describe('the demo render', () => {
  // The text snippet's box: left 50, width 900, around the vertical middle of 625 px.
  const textBand = { left: 50, top: 240, width: 900, height: 140 };
  const corner = { left: 0, top: 0, width: 200, height: 120 };

  it('draws "Hello Ana!" over the photo as a JPEG at the design size', async () => {
    const ana = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Ana`);
    expect(ana.res.status).toBe(200);
    expect(ana.res.headers.get('content-type')).toBe('image/jpeg');
    expect(ana.res.headers.get('cache-control')).toContain('max-age=');
    expect(ana.res.headers.get('etag')).toMatch(/^".+"$/);
    expect([ana.width, ana.height]).toEqual([1000, 625]);

    const other = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Bartholomew`);
    // The names differ where the text is, and the photo around it is the same.
    expect(meanDifference(ana.pixels, other.pixels, 1000, textBand)).toBeGreaterThan(3);
    expect(meanDifference(ana.pixels, other.pixels, 1000, corner)).toBeLessThan(1);
  });

  it('shows the fallback when the value is missing or an unfilled merge tag', async () => {
    const none = await fetchImage(`${stack().url}/r/demo-welcome.jpg`);
    const tag = await fetchImage(
      `${stack().url}/r/demo-welcome.jpg?first_name=%7B%7B%20first_name%20%7D%7D`,
    );
    const there = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=there`);
    expect(none.bytes.equals(there.bytes)).toBe(true);
    expect(tag.bytes.equals(there.bytes)).toBe(true);
  });

  it('gives identical bytes for the same URL', async () => {
    const a = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Zo%C3%AB`);
    const b = await fetchImage(`${stack().url}/r/demo-welcome.jpg?first_name=Zo%C3%AB`);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.res.headers.get('etag')).toBe(b.res.headers.get('etag'));
  });

  it('serves PNG by extension', async () => {
    const png = await fetchImage(`${stack().url}/r/demo-welcome.png?first_name=Ana`);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect(png.width).toBe(1000);
  });

  it.each(['/r/no-such-design.jpg', '/r/bad%20id.jpg', '/r/a/b/c/d'])(
    'answers %s with an image that is never cached, not an error',
    async (path) => {
      const img = await fetchImage(`${stack().url}${path}`);
      expect(img.res.status).toBe(200);
      expect(img.res.headers.get('content-type')).toBe('image/jpeg');
      expect(img.res.headers.get('cache-control')).toBe('no-store');
      expect(img.width).toBeGreaterThan(0);
    },
  );
});
