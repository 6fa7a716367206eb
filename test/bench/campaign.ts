/**
 * The campaign simulation (docs/performance.md "Campaign"; docs/security.md "Render limits"):
 * an e-mail campaign's recipients reach the render URL through a few mail proxies while one
 * abuser hammers the same design with new values, on the real local stack.
 *
 * - Recipients: `recipients` distinct `first_name` values (default 2,000), spread over 4 proxy
 *   addresses (127.0.0.10–13: on the local stack 127.0.0.0/24 stands in for the proxies'
 *   published ranges, functions/render/mail-proxies.ts `LOCAL_PROXY_STAND_INS`), each with a
 *   mail proxy's user agent and `connections` keep-alive connections (default 4), each sending
 *   its next request when the last is answered: the rate this machine sustains.
 * - The abuser: one ordinary address (127.1.0.66) with a browser's user agent and 16
 *   connections, random values, from the first recipient's request until the last answer.
 * - The forger: another ordinary address (127.1.0.67) that claims to be Yahoo's mail proxy by
 *   its user agent, 16 connections like the abuser, random values. A user agent is not a proxy
 *   (functions/render/mail-proxies.ts): it is capped like any other address.
 *
 * Figures, written to bench-results/campaign.json and printed as a table:
 * - `recipients_real_ratio`: recipients who got their real render (200, image, not the
 *   fallback's `no-store` nor the quota's fallback), target ≥ 0.99;
 * - `abuser_render_share`: the abuser's real renders over all real renders (its draws are
 *   capped by the per-address budget: 100 burst + 20/s, `detail.abuser_budget`);
 * - `forger_real`: the forger's real renders, target within the same per-address budget;
 * - `recipients_p99_ms`: p99 latency of recipients' requests, ms (a proxy may wait up to 3 s
 *   for its budget). Timing is reported, never asserted (the tests check behaviour only:
 *   test/integration/render-proxies.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { LocalStack } from '#infra/local/stack.ts';
import { DEFAULT_LIMITS } from '#functions/render/budgets.ts';
import { QUOTA_FALLBACK_CACHE } from '#functions/render/answer.ts';
import { percentile, round1 } from './measure.ts';
import { formatTable } from './table.ts';
import { RESULTS_DIR } from './scale.ts';

export interface CampaignOptions {
  /** Distinct recipients (first_name values). */
  recipients?: number;
  /** Keep-alive connections per proxy address. */
  connections?: number;
  /** Per-request limit, ms; a request over it is not a real render. */
  requestTimeoutMs?: number;
}

/** One mail proxy's address and user agent (the fragments mail-proxies.ts recognises). */
const PROXIES = [
  {
    address: '127.0.0.10',
    agent:
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  },
  { address: '127.0.0.11', agent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy' },
  { address: '127.0.0.12', agent: 'Microsoft Office/16.0 (Microsoft Outlook 16.0.17928)' },
  { address: '127.0.0.13', agent: 'Mozilla/5.0 AppleMailPrivacyProtection' },
] as const;
const ABUSER = {
  address: '127.1.0.66',
  agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
  /** Enough to ask faster than its budget (20 draws/s) even when each draw takes ~1 s. */
  connections: 16,
};
/** An ordinary address claiming Yahoo's proxy by user agent only. */
const FORGER = {
  address: '127.1.0.67',
  agent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
  connections: 16,
};
const TARGET_REAL_RATIO = 0.99;

interface Answer {
  real: boolean;
  kind: string;
  ms: number;
}

/** One GET; `real` for a 200 image that is neither failure's nor the quota's fallback. */
function get(
  agent: Agent,
  port: number,
  localAddress: string,
  userAgent: string,
  path: string,
  timeoutMs: number,
): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve) => {
    const done = (real: boolean, kind: string) =>
      resolve({ real, kind, ms: performance.now() - started });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent,
        localAddress,
        headers: { 'user-agent': userAgent },
      },
      (res) => {
        res.resume();
        res.on('error', () => done(false, 'network'));
        res.on('end', () => {
          const cacheControl = String(res.headers['cache-control'] ?? '');
          if (res.statusCode !== 200) return done(false, `status ${res.statusCode}`);
          if (!String(res.headers['content-type'] ?? '').startsWith('image/'))
            return done(false, 'not an image');
          if (/no-store/i.test(cacheControl)) return done(false, 'fallback');
          if (cacheControl === QUOTA_FALLBACK_CACHE) return done(false, 'over quota');
          done(true, 'real');
        });
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => done(false, e.message === 'timeout' ? 'timeout' : 'network'));
    req.end();
  });
}

const path = (name: string) => `/r/demo-welcome.jpg?first_name=${encodeURIComponent(name)}`;

/** The campaign's figures (the JSON written). */
export interface CampaignResult {
  recipients_real_ratio: number;
  abuser_render_share: number;
  recipients_p99_ms: number;
  forger_real: number;
  targets_met: {
    recipients_real_ratio: boolean;
    abuser_within_budget: boolean;
    forger_within_budget: boolean;
  };
  detail: Record<string, unknown>;
}

/**
 * Runs the campaign against a started stack and writes bench-results/campaign.json.
 * @returns the figures; never throws for a failed request (it counts as not real).
 */
export async function runCampaignBench(
  stack: LocalStack,
  options: CampaignOptions = {},
): Promise<CampaignResult> {
  const recipients = options.recipients ?? 2000;
  const connections = options.connections ?? 4;
  const timeoutMs = options.requestTimeoutMs ?? 15_000;
  const nonce = Date.now().toString(36);

  // Warm the renderer first, so the first recipients do not pay for a cold Chromium.
  const warm = new Agent({ keepAlive: true, maxSockets: 1 });
  await get(warm, stack.port, '127.1.0.1', ABUSER.agent, path(`warm${nonce}`), 60_000);
  warm.destroy();

  const recipientAnswers: Answer[] = [];
  let next = 0;
  let recipientsDone = false;
  const started = performance.now();

  const proxyClient = async (proxy: (typeof PROXIES)[number]) => {
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    try {
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (next < recipients) {
            const i = next++;
            recipientAnswers.push(
              await get(
                agent,
                stack.port,
                proxy.address,
                proxy.agent,
                path(`R${nonce}n${i}`),
                timeoutMs,
              ),
            );
          }
        }),
      );
    } finally {
      agent.destroy();
    }
  };

  const abuserAnswers: Answer[] = [];
  const forgerAnswers: Answer[] = [];
  /** An ordinary address asking with random values until the recipients are done. */
  const hostile = async (
    client: { address: string; agent: string; connections: number },
    answers: Answer[],
  ) => {
    const agent = new Agent({ keepAlive: true, maxSockets: client.connections });
    try {
      await Promise.all(
        Array.from({ length: client.connections }, async () => {
          while (!recipientsDone) {
            const answer = await get(
              agent,
              stack.port,
              client.address,
              client.agent,
              path(randomBytes(9).toString('base64url')),
              timeoutMs,
            );
            answers.push(answer);
            // A refused connection fails at once: pause, so a dead server is not a busy loop.
            if (answer.kind === 'network') await new Promise((r) => setTimeout(r, 50));
          }
        }),
      );
    } finally {
      agent.destroy();
    }
  };

  const abusing = Promise.all([hostile(ABUSER, abuserAnswers), hostile(FORGER, forgerAnswers)]);
  await Promise.all(PROXIES.map(proxyClient));
  recipientsDone = true;
  const recipientsMs = performance.now() - started;
  await abusing;
  const forgerReal = forgerAnswers.filter((a) => a.real).length;

  const real = recipientAnswers.filter((a) => a.real).length;
  const abuserReal = abuserAnswers.filter((a) => a.real).length;
  const kinds = (answers: Answer[]) =>
    answers.reduce<Record<string, number>>((out, a) => {
      out[a.kind] = (out[a.kind] ?? 0) + 1;
      return out;
    }, {});
  const seconds = recipientsMs / 1000;
  const abuserBudget = Math.ceil(
    DEFAULT_LIMITS.perIp.burst + DEFAULT_LIMITS.perIp.ratePerSecond * seconds,
  );
  const ratio = recipients > 0 ? real / recipients : 0;
  const result: CampaignResult = {
    recipients_real_ratio: Math.round(ratio * 10_000) / 10_000,
    abuser_render_share:
      real + abuserReal > 0 ? Math.round((abuserReal / (real + abuserReal)) * 10_000) / 10_000 : 0,
    recipients_p99_ms: round1(
      percentile(
        recipientAnswers.map((a) => a.ms),
        99,
      ),
    ),
    forger_real: forgerReal,
    targets_met: {
      recipients_real_ratio: ratio >= TARGET_REAL_RATIO,
      abuser_within_budget: abuserReal <= abuserBudget,
      // The same per-address budget as the abuser: its user agent bought it nothing.
      forger_within_budget: forgerReal <= abuserBudget,
    },
    detail: {
      recipients,
      proxies: PROXIES.length,
      connections_per_proxy: connections,
      recipients_real: real,
      recipients_answers: kinds(recipientAnswers),
      recipients_p50_ms: round1(
        percentile(
          recipientAnswers.map((a) => a.ms),
          50,
        ),
      ),
      recipients_rps: round1(real / seconds),
      abuser_requests: abuserAnswers.length,
      abuser_real: abuserReal,
      abuser_answers: kinds(abuserAnswers),
      abuser_budget: abuserBudget,
      forger_requests: forgerAnswers.length,
      forger_answers: kinds(forgerAnswers),
      elapsed_ms: round1(recipientsMs),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', node: process.version },
      measured_at: new Date().toISOString(),
    },
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(join(RESULTS_DIR, 'campaign.json'), `${JSON.stringify(result, null, 2)}\n`);

  const mark = (met: boolean) => (met ? '✓' : '✗');
  console.log(
    `\n${formatTable(
      ['campaign measure', 'value', 'target', 'met'],
      [
        {
          'campaign measure': `recipients with a real render (${recipients} via ${PROXIES.length} proxies)`,
          value: result.recipients_real_ratio,
          target: `≥ ${TARGET_REAL_RATIO}`,
          met: mark(result.targets_met.recipients_real_ratio),
        },
        {
          'campaign measure': `abuser's share of renders (${abuserReal} of ${abuserAnswers.length} requests drawn)`,
          value: result.abuser_render_share,
          target: `≤ budget (${abuserBudget} draws)`,
          met: mark(result.targets_met.abuser_within_budget),
        },
        {
          'campaign measure': `forger claiming Yahoo's proxy (${forgerReal} of ${forgerAnswers.length} requests drawn)`,
          value: forgerReal,
          target: `≤ budget (${abuserBudget} draws)`,
          met: mark(result.targets_met.forger_within_budget),
        },
        {
          'campaign measure': 'recipients p99 latency, ms',
          value: result.recipients_p99_ms,
          target: 'reported',
        },
      ],
    )}\n`,
  );
  console.log(
    `campaign: recipients ${JSON.stringify(result.detail.recipients_answers)}, abuser ` +
      `${JSON.stringify(result.detail.abuser_answers)}, forger ` +
      `${JSON.stringify(result.detail.forger_answers)}, ${round1(seconds)} s; wrote bench-results/campaign.json`,
  );
  return result;
}
