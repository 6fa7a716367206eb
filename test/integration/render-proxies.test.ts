/**
 * A small campaign through the real handler (docs/security.md "Render limits"; the full-size
 * one is the bench's, test/bench/campaign.ts): recipients behind two mail-proxy addresses all
 * get their real image, a mail proxy's user agent from an address outside the proxies' ranges
 * is an ordinary address (the edge's count applies to it), an abuser hammering new values gets the
 * fallback past its budget, and the design counts opens and proxy fetches apart.
 *
 * On the local stack the loopback block 127.0.0.0/24 stands in for the proxies' published
 * ranges and 127.1.0.0 and up are ordinary clients (functions/render/mail-proxies.ts
 * `LOCAL_PROXY_STAND_INS`); requests leave from those addresses.
 *
 * The file owns its data: a team of its own on the demo team's plan (Pro: its draws a second and
 * monthly quota) with a copy of the seeded demo design, so the design's and the team's budgets,
 * quota and counters are spent by this file alone (docs/testing.md "One stack per worker").
 */
import { Agent, request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RATE_EXCEEDED, EDGE_RATE_HEADER } from '#shared/render-limits.ts';
import {
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const GMAIL =
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
/** This file's copy of the demo design, in its own team. */
let welcome: { designId: string; publicId: string };

beforeAll(async () => {
  const teamId = await currentTeamId(await ownTeam(stack().url, uniqueEmail('render-proxies')));
  // The demo team's plan: a free team's draws a second (10, burst 200) would make the 200
  // proxy fetches below wait for the team as well as for their addresses.
  await setTeamPlan(teamId, 'pro-monthly');
  welcome = await demoDesignCopyIn(teamId);
});

interface Answer {
  status: number;
  type: string;
  cacheControl: string;
}

/** One GET of a render from `localAddress` with these request headers. */
function get(agent: Agent, localAddress: string, path: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const url = new URL(stack().url);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent,
        localAddress,
        headers,
      },
      (res) => {
        res.resume();
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            cacheControl: String(res.headers['cache-control'] ?? ''),
          }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Sends `paths` from one address, `concurrency` at a time, in order. */
async function sendAll(
  localAddress: string,
  paths: string[],
  concurrency: number,
  userAgent?: string,
  extraHeaders: Record<string, string> = {},
): Promise<Answer[]> {
  const headers = { ...extraHeaders, ...(userAgent ? { 'user-agent': userAgent } : {}) };
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const answers: Answer[] = new Array<Answer>(paths.length);
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < paths.length) {
          const i = next++;
          answers[i] = await get(agent, localAddress, paths[i]!, headers);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return answers;
}

const real = (a: Answer) =>
  a.status === 200 && a.type === 'image/jpeg' && a.cacheControl !== 'no-store';
const path = (name: string) => `/r/${welcome.publicId}.jpg?first_name=${encodeURIComponent(name)}`;

describe('a campaign through mail proxies', () => {
  it('draws every recipient behind two proxy addresses and counts them as proxy fetches', async () => {
    const { db } = await import('#lib/db/index.ts');
    const { flushViews } = await import('#functions/render/handler.ts');
    await flushViews();
    const before = (await db().Design.get({ designId: welcome.designId }).go()).data!;
    const run = Date.now().toString(36);
    const recipients = Array.from({ length: 200 }, (_, i) => path(`R${run}n${i}`));
    const answers = (
      await Promise.all([
        sendAll('127.0.0.2', recipients.slice(0, 100), 4, GMAIL),
        sendAll('127.0.0.3', recipients.slice(100), 4, GMAIL),
      ])
    ).flat();
    expect(answers.filter((a) => !real(a))).toEqual([]);

    // An open: the same kind of request from an ordinary address without a proxy's agent.
    expect(real((await sendAll('127.1.0.5', [path(`Open${run}`)], 1))[0]!)).toBe(true);
    await flushViews();
    const after = (await db().Design.get({ designId: welcome.designId }).go()).data!;
    expect((after.proxyFetches ?? 0) - (before.proxyFetches ?? 0)).toBe(200);
    expect((after.counter ?? 0) - (before.counter ?? 0)).toBe(1);
    // The design says when it was last counted (the dashboard's "counted … ago").
    expect(Date.parse(after.countedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('treats a proxy user agent from outside the ranges as an ordinary address', async () => {
    const run = Date.now().toString(36);
    // The edge counted both addresses over their budget: only a real proxy still draws.
    const edge = { [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED };
    const proxy = await sendAll('127.0.0.4', [path(`P${run}`)], 1, GMAIL, edge);
    const forger = await sendAll('127.1.0.10', [path(`F${run}`)], 1, GMAIL, edge);
    expect(real(proxy[0]!)).toBe(true);
    expect(forger[0]).toMatchObject({ status: 200, type: 'image/jpeg', cacheControl: 'no-store' });
  });

  it('gives an abuser hammering new values the fallback past its budget', async () => {
    const run = Date.now().toString(36);
    // Waves of 200 new values at once from one address: the per-address budget is a burst of
    // 100 draws and 20 a second. Each request first misses the render cache in S3 (a read, and
    // each draw writes back), so a wave reaches the budget spread over the time those take: on
    // an idle machine about 2 s, and one wave meets the fallback; on a busy one a wave can take
    // over 5 s, which the refill pays for in full (100 + 20 × 5), so the address keeps on.
    const started = Date.now();
    const answers: Answer[] = [];
    for (let wave = 0; wave < 3 && answers.every(real); wave++)
      answers.push(
        ...(await sendAll(
          '127.1.0.9',
          Array.from({ length: 200 }, (_, i) => path(`X${run}w${wave}n${i}`)),
          200,
        )),
      );
    const seconds = (Date.now() - started) / 1000;
    // Every answer is an image; past the budget it is the fallback, uncached.
    expect(answers.every((a) => a.status === 200 && a.type === 'image/jpeg')).toBe(true);
    const drawn = answers.filter(real).length;
    expect(drawn).toBeLessThan(answers.length);
    expect(drawn).toBeLessThanOrEqual(100 + Math.ceil(20 * seconds));
  });
});
