/**
 * Test steps for designs (docs/decisions.md "Design API shapes"): signed-in clients, a fresh team of one's own, and a design
 * created through the API as the SPA creates it.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { TestClient } from './client.ts';

/** The seeded library photo the demo design uses (infra/local/seed.ts). */
export const LIBRARY_IMAGE = 'library-autumn';

/** A client signed in with a seeded login (password `demo-password`). */
export async function signedIn(url: string, email: string): Promise<TestClient> {
  const client = new TestClient(url);
  expect((await client.login(email)).status).toBe(200);
  return client;
}

/**
 * Registers a new user with a team of their own on the free plan and signs them in (the
 * register call signs in), so a test's designs are alone in their lists.
 */
export async function ownTeam(url: string, email: string): Promise<TestClient> {
  const client = new TestClient(url);
  const password = 'design-walnut-27';
  const res = await client.request('POST', '/register', {
    name: 'Desi Gner',
    email,
    team: `Team ${email.split('@')[0]}`,
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
  const me = await client.request('GET', '/user/current');
  expect(me.status).toBe(200);
  return client;
}

/** The design answer of the API (the fields tests read). */
export interface DesignJson {
  id: string;
  public_id: string;
  title: string;
  version: number;
  status: string;
  base_url: string;
  [field: string]: unknown;
}

/** Creates a design through `POST /api/pic-snippet` and checks the 201. */
export async function createDesign(
  client: TestClient,
  body: { image_id?: string; title?: string } = {},
): Promise<DesignJson> {
  const res = await client.request('POST', '/api/pic-snippet', {
    image_id: LIBRARY_IMAGE,
    ...body,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as unknown as DesignJson;
}

/**
 * An e-mail address no other test file uses (`{label}-{random}@example.com`): files share their
 * worker's stack (docs/testing.md "One stack per worker"), so a fixed address may already be
 * registered by a file that ran before.
 */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}
