/**
 * Faults under load: DynamoDB stopped (docs/security.md "Reliability figures"). With the local
 * stack running and requests coming, DynamoDB Local is stopped, then started again on the same
 * port. While it is down:
 * - the API answers 503 JSON "Service unavailable, try again." (never 500), reads and writes
 *   alike, the session check included;
 * - the render URL answers images: a render seen before is answered from the render cache (the
 *   design as last read, `no-store`), anything else the placeholder or a fresh draw, `no-store`;
 * - `/api/health` answers 503 naming DynamoDB.
 * When it is back, both recover on their own (no restart of the gateway). Afterwards every design
 * saved before the fault reads back byte for byte: its stored item and its API answer.
 * The figures (answers by phase and kind, time to recover) are printed, not asserted as times.
 *
 * @own-stack: DynamoDB Local is stopped and started under the handlers, on disk.
 */
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDesign, signedIn, type DesignJson } from '../support/designs.ts';
import type { TestClient } from '../support/client.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ dynamoOnDisk: true });

type Kind = 'read' | 'write' | 'list' | 'render-seen' | 'render-new' | 'health';

interface Observed {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number;
  contentType: string;
  cacheControl: string;
  /** The JSON answer, or the bytes' length and first bytes for images. */
  body: string;
  bytes?: Buffer;
}

/** Every stored design item, canonical JSON by design id (keys sorted at every level). */
async function storedDesigns(): Promise<Map<string, string>> {
  const { dynamoClient } = await import('#lib/clients.ts');
  const { config } = await import('#lib/config.ts');
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  const out = new Map<string, string>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamoClient().send(
      new ScanCommand({ TableName: config().TABLE_NAME, ExclusiveStartKey: start }),
    );
    for (const item of page.Items ?? []) {
      if (item.__edb_e__?.S === 'design' && item.designId?.S)
        out.set(item.designId.S, JSON.stringify(canonical(item)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

async function observe(
  kind: Kind,
  send: () => Promise<Response | { status: number; headers: Headers; json: unknown }>,
): Promise<Observed> {
  const startedAt = Date.now();
  const res = await send();
  const endedAt = Date.now();
  const headers = res.headers;
  const base = {
    kind,
    startedAt,
    endedAt,
    status: res.status,
    contentType: headers.get('content-type') ?? '',
    cacheControl: headers.get('cache-control') ?? '',
  };
  if (res instanceof Response) {
    const bytes = Buffer.from(await res.arrayBuffer());
    return base.contentType.startsWith('image/')
      ? { ...base, body: `${bytes.length} bytes`, bytes }
      : { ...base, body: bytes.toString('utf8') };
  }
  return { ...base, body: JSON.stringify(res.json) };
}

describe('DynamoDB stopped under load', () => {
  it('answers 503 JSON and images while it is down, recovers, and loses nothing', async () => {
    const url = stack().url;
    const owner: TestClient = await signedIn(url, 'demo@example.com');

    // Designs saved before the fault: created, then edited, as a user would.
    const saved: DesignJson[] = [];
    for (const title of ['Before the fault 1', 'Before the fault 2', 'Before the fault 3']) {
      const design = await createDesign(owner, { title });
      const edited = await owner.request('PUT', `/api/pic-snippet/${design.id}/pso`, {
        title: `${title} (edited)`,
      });
      expect(edited.status).toBe(200);
      saved.push(design);
    }
    const scratch = await createDesign(owner, { title: 'Written during the fault' });
    const apiBefore = new Map<string, string>();
    for (const d of saved) {
      apiBefore.set(
        d.id,
        JSON.stringify((await owner.request('GET', `/api/pic-snippet/${d.id}`)).json),
      );
    }
    // A render seen before the fault (a preview: views are not counted, so nothing writes).
    const seenUrl = `${url}/r/demo-welcome.jpg?first_name=Seen&__preview=1`;
    const seenBefore = Buffer.from(await (await fetch(seenUrl)).arrayBuffer());
    const itemsBefore = await storedDesigns();
    itemsBefore.delete(scratch.id);
    expect(itemsBefore.size).toBeGreaterThanOrEqual(4);

    // Load: reads, writes, lists, renders seen and new, health; until told to stop.
    const observed: Observed[] = [];
    let running = true;
    let n = 0;
    const loop = (
      kind: Kind,
      send: () => ReturnType<Parameters<typeof observe>[1]>,
      pauseMs = 25,
    ) =>
      (async () => {
        while (running) {
          observed.push(await observe(kind, send));
          await new Promise((r) => setTimeout(r, pauseMs));
        }
      })();
    const workers = [
      loop('read', () => owner.request('GET', `/api/pic-snippet/${saved[0]!.id}`)),
      loop('write', () =>
        owner.request('PUT', `/api/pic-snippet/${scratch.id}/pso`, { title: `Load ${++n}` }),
      ),
      loop('list', () => owner.request('GET', '/getActive')),
      loop('render-seen', () => fetch(seenUrl)),
      loop('render-new', () => fetch(`${url}/r/demo-welcome.jpg?first_name=New${++n}&__preview=1`)),
      loop('health', () => fetch(`${url}/api/health`), 100),
    ];
    const kinds = ['read', 'write', 'list', 'render-seen', 'render-new', 'health'] as const;
    /** The answers to requests sent from `from` on (ms since the epoch), of `kind` if given. */
    const sentSince = (from: number, kind?: Kind) =>
      observed.filter((o) => o.startedAt >= from && (kind === undefined || o.kind === kind));
    // Each stretch lasts until what it needs was observed, not a fixed time: on a loaded machine
    // the load is slower. The deadlines only bound a hang.
    const settle = { timeoutMs: 60_000, intervalMs: 100 };

    // The load runs: every kind answered 200 before the fault.
    await pollUntil(
      'every kind answered 200 before the fault',
      () =>
        Promise.resolve(kinds.map((k) => sentSince(0, k).filter((o) => o.status === 200).length)),
      (counts) => counts.every((c) => c > 0),
      settle,
    );
    const stopping = Date.now();
    await stack().dynamo.stop();
    const downAt = Date.now();
    // Down until enough was answered for the checks below: API calls, health and renders, and
    // renders of both kinds after the second for which the render service keeps a design.
    await pollUntil(
      'answers while DynamoDB is down',
      () =>
        Promise.resolve({
          api: sentSince(downAt).filter((o) => ['read', 'write', 'list'].includes(o.kind)).length,
          health: sentSince(downAt, 'health').length,
          renders: sentSince(downAt).filter((o) => o.kind.startsWith('render')).length,
          seenLater: sentSince(downAt + 1500, 'render-seen').length,
          newLater: sentSince(downAt + 1500, 'render-new').length,
        }),
      (n) => n.api > 10 && n.health > 3 && n.renders > 3 && n.seenLater > 0 && n.newLater > 0,
      settle,
    );
    const starting = Date.now();
    await stack().dynamo.start();
    const upAt = Date.now();
    // Recovered: the API and health answer 200 again without any restart of the gateway.
    const firstOks = await pollUntil(
      'the API and health answer 200 again',
      () =>
        Promise.resolve(
          (['read', 'health'] as const).map((k) =>
            sentSince(upAt, k).find((o) => o.status === 200),
          ),
        ),
      (oks) => oks.every((o) => o !== undefined),
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch(() => undefined); // checked below, after the figures are printed
    const recoveredAt = firstOks && Math.max(...firstOks.map((o) => o!.endedAt));
    // Every kind answered twice after that: the last answers are checked below.
    if (recoveredAt !== undefined) {
      await pollUntil(
        'answers after the recovery',
        () => Promise.resolve(kinds.map((k) => sentSince(recoveredAt, k).length)),
        (counts) => counts.every((c) => c >= 2),
        settle,
      );
    }
    running = false;
    await Promise.all(workers);

    /** Where a request falls: wholly inside one stretch, else `edge` (it spans a change). */
    const phase = (o: Observed) => {
      const inside = (from: number, to: number) => o.startedAt >= from && o.endedAt <= to;
      if (inside(0, stopping)) return 'before';
      if (inside(downAt, starting)) return 'down';
      if (inside(starting, upAt)) return 'restarting';
      if (recoveredAt !== undefined && o.startedAt >= recoveredAt) return 'after';
      if (o.startedAt >= upAt) return 'recovering';
      return 'edge';
    };
    const figures = new Map<string, number>();
    for (const o of observed) {
      const key = `${phase(o).padEnd(10)} ${o.kind.padEnd(11)} ${o.status} ${o.cacheControl === 'no-store' ? 'no-store' : ''}`;
      figures.set(key, (figures.get(key) ?? 0) + 1);
    }
    const firstOk = (['read', 'write', 'list', 'health'] as const).map((kind) => {
      const ok = observed.find((o) => o.kind === kind && o.startedAt >= upAt && o.status === 200);
      return `${kind} ${ok ? `${ok.endedAt - upAt} ms` : 'never'}`;
    });
    console.log(
      [
        `DynamoDB stopped for ${starting - downAt} ms (stopping took ${downAt - stopping} ms, ` +
          `starting ${upAt - starting} ms); first 200 after it answered: ${firstOk.join(', ')}`,
        ...[...figures].sort().map(([k, count]) => `  ${k.trimEnd().padEnd(44)} ×${count}`),
      ].join('\n'),
    );
    expect(recoveredAt).toBeDefined();

    // Never a 500, in any phase; the API always JSON; the render URL always an image.
    for (const o of observed) {
      expect(o.status, `${o.kind} ${o.body.slice(0, 200)}`).not.toBe(500);
      if (o.kind.startsWith('render')) {
        expect(o.status).toBe(200);
        expect(o.contentType).toMatch(/^image\//);
      } else {
        expect(o.contentType).toMatch(/^application\/json/);
      }
    }

    const down = observed.filter((o) => phase(o) === 'down');
    const api = down.filter((o) => ['read', 'write', 'list'].includes(o.kind));
    expect(api.length).toBeGreaterThan(10);
    for (const o of api) {
      expect(o.status, o.body).toBe(503);
      expect(JSON.parse(o.body)).toMatchObject({
        success: false,
        message: 'Service unavailable, try again.',
      });
    }
    const health = down.filter((o) => o.kind === 'health');
    expect(health.length).toBeGreaterThan(3);
    for (const o of health) {
      expect(o.status).toBe(503);
      expect(o.body).toContain('dynamodb: ');
    }
    const renders = down.filter((o) => o.kind.startsWith('render'));
    expect(renders.length).toBeGreaterThan(3);
    // The render function keeps a design 1 s (DESIGN_TTL_MS) without asking the table, so renders
    // in the first second after the last read are ordinary; after that, the stale ones no-store.
    // The last read can succeed until the stop has finished (a loaded machine takes a while to
    // stop DynamoDB Local), so the second is counted from then, with a margin for reads in flight.
    for (const o of renders.filter((r) => r.startedAt >= downAt + 1500))
      expect(o.cacheControl).toBe('no-store');
    // The render seen before is the real one, from the render cache, not the placeholder.
    for (const o of renders.filter((r) => r.kind === 'render-seen'))
      expect(o.bytes!.equals(seenBefore)).toBe(true);

    const after = observed.filter((o) => phase(o) === 'after');
    for (const kind of kinds) {
      const last = after.filter((o) => o.kind === kind).at(-1);
      expect(last?.status, kind).toBe(200);
      if (kind.startsWith('render')) expect(last?.cacheControl).not.toBe('no-store');
    }

    // Nothing lost: every design saved before the fault reads back byte for byte.
    const itemsAfter = await storedDesigns();
    for (const [designId, item] of itemsBefore) expect(itemsAfter.get(designId)).toBe(item);
    for (const d of saved) {
      const read = await owner.request('GET', `/api/pic-snippet/${d.id}`);
      expect(JSON.stringify(read.json)).toBe(apiBefore.get(d.id));
    }
    // And the last write during the load that answered 200 is the one stored.
    const written = observed.filter((o) => o.kind === 'write' && o.status === 200).at(-1)!;
    const scratchRead = await owner.request('GET', `/api/pic-snippet/${scratch.id}`);
    expect(written).toBeDefined();
    expect(scratchRead.json.title).toMatch(/^Load \d+$/);
    console.log(
      `Nothing lost: ${itemsBefore.size} designs saved before the fault read back byte for byte`,
    );
  }, 120_000);
});
