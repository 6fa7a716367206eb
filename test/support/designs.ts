/**
 * Test steps for designs (docs/adr/0019-design-api-shapes.md "Design API shapes"): signed-in
 * clients, a fresh team of one's own, and a design created through the API as the SPA creates it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { TestClient } from './client.ts';

/** The seeded library photo the demo design uses (infra/local/seed.ts). */
export const LIBRARY_IMAGE = 'library-autumn';

/** A client signed in with a seeded login (password `demo-password`). */
export async function signedIn(url: string, email: string): Promise<TestClient> {
  const client = new TestClient(url);
  expect((await client.login(email)).status).toBe(200);
  return client;
}

/** The password `ownTeam` registers its users with. */
export const OWN_TEAM_PASSWORD = 'design-walnut-27';

/**
 * Registers a new user with a team of their own on the free plan and signs them in (the
 * register call signs in), so a test's designs are alone in their lists.
 */
export async function ownTeam(url: string, email: string): Promise<TestClient> {
  const client = new TestClient(url);
  const password = OWN_TEAM_PASSWORD;
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

/**
 * A copy of the seeded demo design for one test file: the demo team's "Welcome" design
 * (`Hello {{first_name}}!` on the autumn photo, 1000 px wide) as the seed writes it, under an id
 * and public id of its own, made in `beforeAll`. A file that edits, saves or generates the
 * design works on its copy, so the seeded `demo-welcome` stays as seeded for the files after it
 * on the same stack (docs/testing.md "One stack per worker"). In-process stacks only.
 * @returns a getter of the copy's ids and its render path (`/r/{publicId}`)
 */
export function useDemoDesignCopy(): () => { designId: string; publicId: string; render: string } {
  let copy: { designId: string; publicId: string; render: string } | undefined;
  beforeAll(async () => {
    copy = await demoDesignCopyIn('team-demo');
  });
  return () => {
    if (!copy) throw new Error('the demo design copy was not made');
    return copy;
  };
}

/** The id of a signed-in client's current team (after `ownTeam`, the team it registered). */
export async function currentTeamId(client: TestClient): Promise<string> {
  const me = await client.request('GET', '/user/current');
  expect(me.status).toBe(200);
  return me.json.current_team_id as string;
}

/**
 * Registers a user with a team of their own (`ownTeam`) and makes them a platform admin as the
 * seed and the deploy's admin bootstrap do (`isAdmin` on the User item, infra/deploy/admin.ts),
 * for a test that locks, re-passwords or otherwise changes the admin it signs in with: the
 * seeded admin@example.com serves the files after this one unchanged. In-process stacks only.
 */
export async function ownAdmin(url: string, email: string): Promise<TestClient> {
  const client = await ownTeam(url, email);
  const { db } = await import('#lib/db/index.ts');
  const userId = (await client.request('GET', '/user/current')).json.id as string;
  await db().User.patch({ userId }).set({ isAdmin: true }).go();
  return client;
}

/**
 * Puts a team on a plan as data, as the seed puts the demo team on Pro: the Team item's plan,
 * no subscription. For a test that needs a paid plan's limits on a team of its own instead of
 * the seeded demo team. In-process stacks only.
 */
export async function setTeamPlan(teamId: string, planId: string): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  await db().Team.patch({ teamId }).set({ planId }).go();
}

/**
 * Writes a copy of the seeded demo design into a team of the file's own: the demo team's
 * "Welcome" design (`Hello {{first_name}}!` on the autumn photo, 1000 px wide) as the seed writes
 * it, under an id and public id of its own (as `useDemoDesignCopy`, which copies into the demo
 * team). For a file whose renders or edits must not depend on the demo team (its plan, its render
 * budgets and quota, what other files add to it). In-process stacks only.
 * @returns the copy's ids and its render path (`/r/{publicId}`)
 */
export async function demoDesignCopyIn(
  teamId: string,
): Promise<{ designId: string; publicId: string; render: string }> {
  const { db } = await import('#lib/db/index.ts');
  const { DesignDocumentSchema } = await import('#shared/design.ts');
  const { demoDesignDocument } = await import('#infra/local/seed.ts');
  const image = (await db().LibraryImage.get({ imageId: LIBRARY_IMAGE }).go()).data!;
  const tag = randomUUID().slice(0, 8);
  const copy = {
    designId: `design-welcome-${tag}`,
    publicId: `welcome-${tag}`,
    render: `/r/welcome-${tag}`,
  };
  await db()
    .Design.put({
      designId: copy.designId,
      teamId,
      publicId: copy.publicId,
      title: 'Welcome',
      status: 'active',
      version: 1,
      document: DesignDocumentSchema.parse(
        demoDesignDocument({ key: image.key, width: image.width, height: image.height }),
      ),
    })
    .go();
  return copy;
}
