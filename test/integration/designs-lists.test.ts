/**
 * The dashboard lists (docs/adr/0020-dashboard-spa.md "Dashboard SPA",
 * docs/adr/0019-design-api-shapes.md "Design API shapes": "Dashboard lists", docs/editor.md
 * "Constants"): 40 designs of one team through `GET /getActive` in each of the four sorts, 15 to a
 * page, pages from 2 with the cursor the page before gave and without it; one DynamoDB query per
 * page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, type DesignJson } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

interface Card {
  id: string;
  title: string;
  counter: number;
  created_at: string;
  updated_at: string;
}
interface Page {
  data: Card[];
  current_page: number;
  next_page: number | null;
  cursor: string | null;
  per_page: number;
}

const TITLES = [
  ...Array.from({ length: 37 }, (_, i) => `Item ${String(i + 1).padStart(2, '0')}`),
  'apple',
  'Éclair',
  'zebra',
];
/** The titles A to Z as a reader expects: case and accents folded. */
const BY_NAME = ['apple', 'Éclair', ...TITLES.slice(0, 37), 'zebra'];

let owner: TestClient;
let designs: DesignJson[];
/** Views per design id: 40 distinct counts. */
const views = new Map<string, number>();

beforeAll(async () => {
  owner = await ownTeam(stack().url, 'lists-owner@example.org');
  // Created in a shuffled title order, so no sort follows creation by accident.
  const order = TITLES.map((t, i) => ({ t, k: (i * 23) % TITLES.length })).sort(
    (a, b) => a.k - b.k,
  );
  designs = [];
  for (const { t } of order) designs.push(await createDesign(owner, { title: t }));
  const { recordDesignViews } = await import('#functions/designs/store.ts');
  await Promise.all(
    designs.map((d, i) => {
      const n = ((i * 17) % 40) + 1;
      views.set(d.id, n);
      return recordDesignViews(d.id, n);
    }),
  );
  // Touch three designs, oldest first, so they lead the default sort (last updated).
  for (const d of [designs[5]!, designs[30]!, designs[12]!]) {
    const res = await owner.request('PUT', `/api/pic-snippet/${d.id}/options`, { flip_x: true });
    expect(res.status).toBe(200);
  }
});

async function page(sortby: string, n: number, cursor?: string | null): Promise<Page> {
  const q = new URLSearchParams({ sortby, page: String(n), ...(cursor ? { cursor } : {}) });
  const res = await owner.request('GET', `/getActive?${q}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.active as Page;
}

/** Every page of a sort, following the cursors, checking the paginator fields. */
async function walk(sortby: string): Promise<Card[]> {
  const first = await page(sortby, 1);
  const second = await page(sortby, 2, first.cursor);
  const third = await page(sortby, 3, second.cursor);
  expect([first, second, third].map((p) => [p.current_page, p.next_page, p.data.length])).toEqual([
    [1, 2, 15],
    [2, 3, 15],
    [3, null, 10],
  ]);
  expect(third.cursor).toBeNull();
  expect(first.per_page).toBe(15);
  return [...first.data, ...second.data, ...third.data];
}

const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

describe('GET /getActive sorts and pages', () => {
  it('sorts by last update by default, newest first', async () => {
    const cards = await walk('');
    const current = await Promise.all(
      designs.map(
        async (d) =>
          (await owner.request('GET', `/api/pic-snippet/${d.id}`)).json as unknown as Card,
      ),
    );
    const expected = current
      .sort((a, b) => desc(a.updated_at, b.updated_at) || desc(a.id, b.id))
      .map((d) => d.id);
    expect(cards.map((c) => c.id)).toEqual(expected);
    // The three designs changed last lead, the last one first.
    expect(cards.slice(0, 3).map((c) => c.id)).toEqual(
      [designs[12]!, designs[30]!, designs[5]!].map((d) => d.id),
    );
  });

  it('sorts by creation, newest first', async () => {
    const cards = await walk('created');
    expect(cards.map((c) => c.id)).toEqual(
      [...designs]
        .sort((a, b) => desc(a.created_at as string, b.created_at as string) || desc(a.id, b.id))
        .map((d) => d.id),
    );
    expect(cards[0]!.id).toBe(designs[designs.length - 1]!.id);
  });

  it('sorts by name A to Z, ignoring case and accents', async () => {
    const cards = await walk('name');
    expect(cards.map((c) => c.title)).toEqual(BY_NAME);
  });

  it('sorts by views, most first, with the counts on the cards', async () => {
    const cards = await walk('views');
    expect(cards.map((c) => c.counter)).toEqual(Array.from({ length: 40 }, (_, i) => 40 - i));
    for (const c of cards) expect(c.counter).toBe(views.get(c.id));
  });

  it('serves a page number without its cursor the same as with it', async () => {
    const first = await page('name', 1);
    const withCursor = await page('name', 2, first.cursor);
    expect(await page('name', 2)).toEqual(withCursor);
    // A cursor of another sort or page is not followed.
    expect(await page('views', 2, first.cursor)).toEqual(await page('views', 2));
    expect((await page('name', 3, first.cursor)).data.map((c) => c.title)).toEqual(
      BY_NAME.slice(30),
    );
  });

  it('refuses an unknown sort or page with 422 and the field', async () => {
    const sort = await owner.request('GET', '/getActive?sortby=colour');
    expect(sort.status).toBe(422);
    expect(sort.json.errors).toEqual({ sortby: ['The selected sortby is invalid.'] });
    const zero = await owner.request('GET', '/getActive?page=0');
    expect(zero.json.errors).toEqual({ page: ['The page must be at least 1.'] });
  });

  it("cannot reach another team's list with a forged cursor", async () => {
    const first = await page('', 1);
    const other = await ownTeam(stack().url, 'lists-other@example.org');
    await createDesign(other, { title: 'Other team' });
    const q = new URLSearchParams({ sortby: '', page: '2', cursor: first.cursor! });
    const res = await other.request('GET', `/getActive?${q}`);
    expect(res.status).toBe(200);
    expect((res.json.active as Page).data).toEqual([]);
  });

  it('reads a page with one DynamoDB query', async () => {
    const { dynamoClient } = await import('#lib/clients.ts');
    // The team's own queries only: the stack's background work (the local queue's pollers, view
    // counters) queries the same client meanwhile.
    const teamId = String((await owner.request('GET', '/settings/companies/current')).json.id);
    const commands: string[] = [];
    const name = `count-${Date.now()}`;
    dynamoClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify((args as { input?: unknown }).input ?? {}).toLowerCase();
        if (input.includes(teamId.toLowerCase())) commands.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const first = await page('views', 1);
      const firstQueries = commands.filter((c) => c === 'QueryCommand').length;
      commands.length = 0;
      await page('views', 2, first.cursor);
      const secondQueries = commands.filter((c) => c === 'QueryCommand').length;
      expect([firstQueries, secondQueries]).toEqual([1, 1]);
    } finally {
      dynamoClient().middlewareStack.remove(name);
    }
  });
});

describe('GET /getArchived', () => {
  it('lists archived designs only, and an archived design leaves the active list', async () => {
    const target = designs[0]!;
    expect((await owner.request('PUT', `/api/pic-snippet/${target.id}/archive`, {})).status).toBe(
      200,
    );
    const archived = (await owner.request('GET', '/getArchived')).json.archived as Page;
    expect(archived.data.map((c) => c.id)).toEqual([target.id]);
    const active = await walkAll('');
    expect(active).toHaveLength(39);
    expect(active.map((c) => c.id)).not.toContain(target.id);
  });
});

/** Every card of the active list in a sort (any number of pages). */
async function walkAll(sortby: string): Promise<Card[]> {
  const cards: Card[] = [];
  let current: Page | undefined;
  for (let n = 1; n === 1 || current?.next_page; n++) {
    current = await page(sortby, n, current?.cursor);
    cards.push(...current.data);
  }
  return cards;
}
