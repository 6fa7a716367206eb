/**
 * Polls through the local stack (docs/polls.md): a design of the file's own team with a poll;
 * the e-mail's option link opens the vote page without counting (scanners fetch every link);
 * the ballot and the vote calls count one vote per recipient (a second click changes nothing,
 * and says so; the identifying parameter in another case is the same recipient); a closed
 * poll, a link without the voter or with an odd option, a tampered link of a signed design and
 * an address voting for many recipients are refused or bounded; the image shows the live
 * percentages (read back by OCR) and is kept no longer than the poll's results interval; the
 * team's webhook gets `poll.voted`, signed, with the recipient's parameters.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/config.ts';
import { POLL_VOTE_MESSAGES } from '#shared/contract/polls.ts';
import { MAX_VOTES_PER_ADDRESS } from '#functions/designs/polls.ts';
import { PollSchema, pollLayers } from '#shared/scene/poll.ts';
import {
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  setTeamPlan,
  uniqueEmail,
} from '../support/designs.ts';
import { TestClient } from '../support/client.ts';
import { lineReader, readWhiteText } from '../support/ocr.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();

/** The webhook receiver: every delivery's headers and body. */
const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
let receiver: Server;
let receiverPort = 0;
let ocr: Worker;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  receiverPort = await new Promise<number>((ok) =>
    receiver.listen(0, '127.0.0.1', () => ok((receiver.address() as AddressInfo).port)),
  );
  process.env.SSRF_TEST_PUBLIC_PORTS = String(receiverPort);
  resetConfig();
  ocr = await lineReader();
});

afterAll(async () => {
  delete process.env.SSRF_TEST_PUBLIC_PORTS;
  resetConfig();
  await ocr?.terminate();
  await new Promise((ok) => receiver.close(ok));
});

/** The poll's place on the 1000x625 demo design, px (intrinsic 600x400 at scale 1). */
const POLL_AT = { left: 200, top: 100 };

/** The test poll's settings but its options: white text on dark bars, for the OCR. */
const TEST_POLL = {
  question: 'Which colour?',
  voter_parameter: 'email',
  fill: '#ffffff',
  track_fill: '#202020',
  bar_fill: '#2a2f6e',
  panel_fill: 'transparent',
  results_ttl_s: 30,
};

/** A design of a new team of its own with a poll on it; `poll` overrides the settings. */
async function pollDesign(poll: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const owner = await ownTeam(stack().url, uniqueEmail('polls'));
  const teamId = await currentTeamId(owner);
  const design = await demoDesignCopyIn(teamId);
  const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
    version: 1,
    text_snippets: [
      {
        id: 'hello',
        text: 'Hi {{email}}',
        left: 10,
        top: 10,
        width: 300,
        fontSize: 12,
        parameters: [{ id: 'p-email', param_name: 'email', param_default_value: 'there' }],
      },
    ],
    graphics_data: [
      {
        uuid: 'poll-1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'poll',
        ...POLL_AT,
        width: 600,
        height: 400,
        scaleX: 1,
        scaleY: 1,
        poll: {
          ...TEST_POLL,
          options: [
            { label: 'Red', url: 'https://shop.example/red' },
            { label: 'Blue', url: '' },
          ],
          ...poll,
        },
      },
    ],
    ...extra,
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return { owner, teamId, ...design };
}

/**
 * Where option `i`'s percentage is drawn on the test's poll, px (shared/scene/poll.ts
 * `pollLayers`), with a few px around it.
 */
function percentBox(i: number) {
  const box = { id: 'poll-1', ...POLL_AT, width: 600, height: 400, scale: 1 };
  const poll = PollSchema.parse({ ...TEST_POLL, options: [{ label: 'a' }, { label: 'b' }] });
  const text = pollLayers(poll, box, [1, 1]).texts.find((t) => t.id === `poll-1:p${i}`)!;
  return {
    left: Math.floor(text.left) - 4,
    top: Math.floor(text.top) - 6,
    width: Math.ceil(text.width) + 8,
    height: Math.ceil(text.fontSize * 1.3) + 12,
  };
}

/** The option link the export writes for a recipient: `/l/{publicId}?email=…&__vote=k`. */
const voteLink = (publicId: string, email: string, option: number | string) =>
  `/l/${publicId}?email=${encodeURIComponent(email)}&__vote=${option}`;

/** A recipient's browser on the vote page: reads the ballot, then votes. */
async function vote(link: string) {
  const page = new TestClient(stack().url);
  const ballot = await page.request('GET', `/api/polls/ballot?link=${encodeURIComponent(link)}`);
  const cast = await page.request('POST', '/api/polls/vote', { link });
  return { ballot, cast };
}

describe('polls', () => {
  it('counts one vote per recipient; a scanner’s fetch of the link counts nothing', async () => {
    const design = await pollDesign();
    const link = voteLink(design.publicId, 'ana@example.com', 0);

    // A link scanner fetches the e-mail's link (GET and HEAD, with a scanner's user agent).
    for (const method of ['GET', 'HEAD']) {
      const scanned = await fetch(`${stack().url}${link}`, {
        method,
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Microsoft SafeLinks)' },
      });
      expect(scanned.status).toBe(302);
      expect(scanned.headers.get('location')).toBe(`/poll?link=${encodeURIComponent(link)}`);
      expect(scanned.headers.get('cache-control')).toBe('private, no-store');
    }
    const page = new TestClient(stack().url);
    const before = await page.request('GET', `/api/polls/ballot?link=${encodeURIComponent(link)}`);
    expect(before.status).toBe(200);
    expect(before.json).toEqual({
      question: 'Which colour?',
      options: [{ label: 'Red' }, { label: 'Blue' }],
      option: 0,
      closes_at: null,
      closed: false,
      voted: null,
      results: null,
    });

    const first = await page.request('POST', '/api/polls/vote', { link });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toEqual({
      recorded: true,
      option: 0,
      results: { counts: [1, 0], percentages: [100, 0], total: 1 },
      redirect: 'https://shop.example/red',
      message: null,
    });

    // The same recipient again, for the other option and with the address in capitals. Anyone
    // can write this unsigned link, so it is told that a vote stands, never which.
    const again = await vote(voteLink(design.publicId, 'ANA@example.com ', 1));
    expect(again.ballot.json).toMatchObject({ option: 1, voted: null, results: null });
    expect(again.cast.json).toEqual({
      recorded: false,
      option: null,
      results: { counts: [1, 0], percentages: [100, 0], total: 1 },
      // The clicked answer's link (Blue has none), not Red's, which would tell the first vote.
      redirect: null,
      message: POLL_VOTE_MESSAGES.already,
    });

    const bea = await vote(voteLink(design.publicId, 'bea@example.com', 1));
    expect(bea.cast.json).toMatchObject({
      recorded: true,
      option: 1,
      results: { counts: [1, 1], percentages: [50, 50], total: 2 },
      // An option without a link: the vote page shows the results.
      redirect: null,
    });
    const cy = await vote(voteLink(design.publicId, 'cy@example.com', 1));
    expect(cy.cast.json.results).toEqual({ counts: [1, 2], percentages: [33, 67], total: 3 });
  });

  it('refuses links without the voter, with an odd option, or to a design without a poll', async () => {
    const design = await pollDesign();
    const page = new TestClient(stack().url);
    const ask = (link: string) =>
      page.request('GET', `/api/polls/ballot?link=${encodeURIComponent(link)}`);
    const noVoter = await ask(`/l/${design.publicId}?__vote=0`);
    expect(noVoter.status).toBe(400);
    expect(noVoter.json.message).toBe(POLL_VOTE_MESSAGES.noVoter);
    // An unfilled merge tag is no voter either.
    expect((await ask(voteLink(design.publicId, '{{ email }}', 0))).status).toBe(400);
    for (const option of ['2', '9', '-1', 'x', '01']) {
      const odd = await ask(voteLink(design.publicId, 'ana@example.com', option));
      expect(odd.status, option).toBe(400);
      expect(odd.json.message).toBe(POLL_VOTE_MESSAGES.badOption);
    }
    const odd = await page.request('POST', '/api/polls/vote', {
      link: voteLink(design.publicId, 'ana@example.com', 7),
    });
    expect(odd.status).toBe(400);
    const unknown = await ask(voteLink('no-such-design', 'ana@example.com', 0));
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(POLL_VOTE_MESSAGES.noPoll);
    expect((await ask('https://elsewhere.example/l/x?__vote=0')).status).toBe(422);
    // Nothing was counted by any of them.
    const ok = await vote(voteLink(design.publicId, 'ana@example.com', 0));
    expect(ok.cast.json.results).toMatchObject({ total: 1 });
  });

  it('takes no vote once the poll has closed, and shows the final results', async () => {
    const design = await pollDesign({ closes_at: '2020-01-01T00:00', time_zone: 'Europe/Paris' });
    const { ballot, cast } = await vote(voteLink(design.publicId, 'ana@example.com', 1));
    expect(ballot.json).toMatchObject({
      closed: true,
      closes_at: '2019-12-31T23:00:00.000Z',
      voted: null,
      results: { counts: [0, 0], percentages: [0, 0], total: 0 },
    });
    expect(cast.status).toBe(200);
    expect(cast.json).toMatchObject({ recorded: false, message: POLL_VOTE_MESSAGES.closed });
  });

  it('a design that requires signed URLs takes only its signed vote links', async () => {
    const design = await pollDesign({ keep_voter_value: true });
    const { owner, teamId } = design;
    expect(
      (await owner.request('POST', `/settings/companies/${teamId}/signing-secret`)).status,
    ).toBeLessThan(300);
    const current = (await owner.request('GET', `/api/pic-snippet/${design.designId}`)).json;
    const signing = await owner.request('PUT', `/api/pic-snippet/${design.designId}/signing`, {
      version: current.version,
      require_signed_urls: true,
    });
    expect(signing.status, JSON.stringify(signing.json)).toBe(200);
    const unsigned = await vote(voteLink(design.publicId, 'ana@example.com', 0));
    expect(unsigned.ballot.status).toBe(403);
    expect(unsigned.cast.status).toBe(403);
    expect(unsigned.cast.json.message).toBe(POLL_VOTE_MESSAGES.badLink);
    const sign = await owner.request('POST', `/api/pic-snippet/${design.designId}/sign`, {
      parameters: [
        { name: 'email', value: 'ana@example.com' },
        { name: '__vote', value: '0' },
      ],
    });
    expect(sign.status, JSON.stringify(sign.json)).toBe(200);
    const signedUrl = new URL(sign.json.url as string);
    const signedLink = `/l/${signedUrl.pathname.slice('/r/'.length)}${signedUrl.search}`;
    const signed = await vote(signedLink);
    expect(signed.cast.json).toMatchObject({ recorded: true, option: 0 });
    // Only the team can write a values-form link, so it is told the earlier vote.
    const signAgain = await owner.request('POST', `/api/pic-snippet/${design.designId}/sign`, {
      parameters: [
        { name: 'email', value: 'ana@example.com' },
        { name: '__vote', value: '1' },
      ],
    });
    const againUrl = new URL(signAgain.json.url as string);
    const signedAgain = await vote(`/l/${againUrl.pathname.slice('/r/'.length)}${againUrl.search}`);
    expect(signedAgain.ballot.json).toMatchObject({ option: 1, voted: 0 });
    expect(signedAgain.cast.json).toMatchObject({ recorded: false, option: 0 });
    // The same link with another voter: the signature no longer matches.
    const tampered = await vote(signedLink.replace('ana%40example.com', 'eve%40example.com'));
    expect(tampered.cast.status).toBe(403);
    // The export's answer links: the names signed (`email`, `__vote`), the platform's values.
    const names = await owner.request('POST', `/api/pic-snippet/${design.designId}/sign`, {
      form: 'names',
      parameters: [
        { name: 'email', value: '' },
        { name: '__vote', value: '' },
      ],
    });
    expect(names.status, JSON.stringify(names.json)).toBe(200);
    const namesUrl = new URL(names.json.url as string);
    const sig = namesUrl.searchParams.get('__sig')!;
    const exported = (email: string, k: number) =>
      `/l/${namesUrl.pathname.slice('/r/'.length)}?__sf=names&__sig=${sig}&email=${encodeURIComponent(email)}&__vote=${k}`;
    const bea = await vote(exported('bea@example.com', 1));
    expect(bea.cast.json).toMatchObject({ recorded: true, option: 1 });
    // Anyone can fill a names-form link with Bea's address: not told how she voted.
    const beaAgain = await vote(exported('bea@example.com', 0));
    expect(beaAgain.ballot.json).toMatchObject({ voted: null, results: null });
    expect(beaAgain.cast.json).toMatchObject({ recorded: false, option: null });
    // The image's own signature (no `__vote` among its names) does not sign a vote.
    const image = await owner.request('POST', `/api/pic-snippet/${design.designId}/sign`, {
      form: 'names',
      parameters: [{ name: 'email', value: '' }],
    });
    const imageSig = new URL(image.json.url as string).searchParams.get('__sig')!;
    const imageLink = `/l/${namesUrl.pathname.slice('/r/'.length)}?__sf=names&__sig=${imageSig}&email=cy%40example.com&__vote=0`;
    expect((await vote(imageLink)).cast.status).toBe(403);
    // A signed design's poll that keeps voter values keeps the address a values-form signature
    // covered; a names-form link's address is not known to be the sender's, so it is not kept.
    const view = await owner.request('GET', `/api/pic-snippet/${design.designId}/poll/votes`);
    expect(view.json.votes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ option: 0, value: 'ana@example.com' }),
        expect.objectContaining({ option: 1, value: null }),
      ]),
    );
    expect(view.json.votes).toHaveLength(2);
  });

  it('draws the live percentages in the image, kept no longer than the results interval', async () => {
    const design = await pollDesign();
    const counts = async () =>
      (await vote(voteLink(design.publicId, `r${Math.random()}@example.com`, 0))).cast.json.results;
    await counts();
    await vote(voteLink(design.publicId, 'one@example.com', 1));
    expect(await counts()).toMatchObject({ percentages: [67, 33] });
    const image = await fetch(`${stack().url}${design.render}.png?email=x@example.com`);
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toBe('public, max-age=30');
    const png = Buffer.from(await image.arrayBuffer());
    expect((await sharp(png).metadata()).width).toBe(1000);
    // Each option's percentage, right in its bar, where the shared layout puts it.
    expect(await readWhiteText(ocr, png, 0, percentBox(0))).toContain('67%');
    expect(await readWhiteText(ocr, png, 0, percentBox(1))).toContain('33%');
    // Without live results the poll shows its options only.
    const hidden = await pollDesign({ show_results: false });
    const plain = await fetch(`${stack().url}${hidden.render}.png?email=x@example.com`);
    const quiet = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('cache-control')).not.toBe('public, max-age=30');
    expect(await readWhiteText(ocr, quiet, 0, percentBox(0))).not.toMatch(/%/);
  });

  it('sends poll.voted to the team’s webhook, signed, with the recipient’s parameters', async () => {
    const design = await pollDesign();
    await setTeamPlan(design.teamId, 'pro-monthly');
    const created = await design.owner.request(
      'POST',
      `/settings/companies/${design.teamId}/webhooks`,
      { url: `http://127.0.0.1:${receiverPort}/polls`, events: ['poll.voted'] },
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const secret = created.json.secret as string;
    await vote(voteLink(design.publicId, 'dee@example.com', 1));
    // A second click sends nothing more.
    await vote(voteLink(design.publicId, 'dee@example.com', 0));
    const deadline = Date.now() + 20_000;
    while (received.length === 0 && Date.now() < deadline)
      await new Promise((ok) => setTimeout(ok, 100));
    await new Promise((ok) => setTimeout(ok, 500));
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'poll.voted',
      data: {
        design: { id: design.designId, title: 'Welcome' },
        poll: { id: 'poll-1', question: 'Which colour?' },
        option: { index: 1, label: 'Blue' },
        parameters: { email: 'dee@example.com' },
      },
    });
    const header = String(received[0]!.headers['picsnippets-signature']);
    const parts = Object.fromEntries(
      header.split(',').map((p) => p.split('=') as [string, string]),
    );
    const expected = createHmac('sha256', secret)
      .update(`${parts.t}.${received[0]!.body}`)
      .digest();
    const given = Buffer.from(parts.v1 ?? '', 'hex');
    expect(given.length === expected.length && timingSafeEqual(given, expected)).toBe(true);
  });
  it('gives the team its poll’s results, votes per day and the votes; no one else', async () => {
    const design = await pollDesign({ keep_voter_value: true });
    await vote(voteLink(design.publicId, 'ana@example.com', 0));
    await vote(voteLink(design.publicId, 'bea@example.com', 1));
    await vote(voteLink(design.publicId, 'cy@example.com', 1));
    const view = await design.owner.request(
      'GET',
      `/api/pic-snippet/${design.designId}/poll/votes`,
    );
    expect(view.status, JSON.stringify(view.json)).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(view.json).toMatchObject({
      poll: { id: 'poll-1', question: 'Which colour?', voter_parameter: 'email' },
      results: { counts: [1, 2], percentages: [33, 67], total: 3 },
      days: [{ day: today, counts: [1, 2], total: 3 }],
      next: null,
    });
    const votes = view.json.votes as Array<{ voter: string; option: number; value: unknown }>;
    expect(votes.map((v) => v.option).sort()).toEqual([0, 1, 1]);
    for (const v of votes) expect(v.voter).toMatch(/^[0-9a-f]{64}$/);
    // The design does not require signed URLs, so the addresses are not kept.
    expect(votes.map((v) => v.value)).toEqual([null, null, null]);
    expect(JSON.stringify(view.json)).not.toContain('ana@example.com');

    const stranger = await ownTeam(stack().url, uniqueEmail('polls-other'));
    const refused = await stranger.request('GET', `/api/pic-snippet/${design.designId}/poll/votes`);
    expect(refused.status).toBe(404);
    const plain = await demoDesignCopyIn(design.teamId);
    const none = await design.owner.request('GET', `/api/pic-snippet/${plain.designId}/poll/votes`);
    expect(none.status).toBe(404);
    expect(none.json.message).toBe('This design has no poll.');
  });

  it('keeps no voter value for a names-form link that also says `__sf=values`', async () => {
    const design = await pollDesign({ keep_voter_value: true });
    const { owner, teamId } = design;
    await owner.request('POST', `/settings/companies/${teamId}/signing-secret`);
    const current = (await owner.request('GET', `/api/pic-snippet/${design.designId}`)).json;
    await owner.request('PUT', `/api/pic-snippet/${design.designId}/signing`, {
      version: current.version,
      require_signed_urls: true,
    });
    const names = await owner.request('POST', `/api/pic-snippet/${design.designId}/sign`, {
      form: 'names',
      parameters: [
        { name: 'email', value: '' },
        { name: '__vote', value: '' },
      ],
    });
    const namesUrl = new URL(names.json.url as string);
    const sig = namesUrl.searchParams.get('__sig')!;
    // A recipient edits their names-form link: someone else's address, and a first `__sf=values`
    // (the signature reads the last `__sf`, which still says `names`).
    const forged = `/l/${namesUrl.pathname.slice('/r/'.length)}?__sf=values&__sf=names&__sig=${sig}&email=boss%40example.com&__vote=1`;
    const cast = await vote(forged);
    expect(cast.cast.json).toMatchObject({ recorded: true, option: 1 });
    const view = await owner.request('GET', `/api/pic-snippet/${design.designId}/poll/votes`);
    expect(view.json.votes).toEqual([expect.objectContaining({ option: 1, value: null })]);
  });

  it('bounds one address voting for many recipients', async () => {
    const design = await pollDesign();
    const page = new TestClient(stack().url);
    const statuses: number[] = [];
    for (let i = 0; i <= MAX_VOTES_PER_ADDRESS; i++) {
      const res = await page.request('POST', '/api/polls/vote', {
        link: voteLink(design.publicId, `voter${i}@example.com`, i % 2),
      });
      statuses.push(res.status);
    }
    // This file's own address (docs/testing.md "One stack per worker") voted in the cases
    // before, so the refusals start at or before the limit (this case runs last).
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(MAX_VOTES_PER_ADDRESS);
    expect(statuses.at(-1)).toBe(429);
  });
});
