/**
 * Fallback draws under load (docs/adr/0066-fallback-draws-under-load.md "Fallback draws under
 * load") through the local stack (DynamoDB Local, the S3 emulator, Chromium): a design whose
 * all-fallback render comes out partial (its team's watermark file cannot be read, so every draw of
 * it is partial) gets many refused requests at once and after, as in a mail blast; each is answered
 * an image, `no-store`, and the render drew that fallback once. A draw is counted by the line the
 * render logs each time it leaves out the unreadable watermark.
 */
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EDGE_RATE_EXCEEDED, EDGE_RATE_HEADER } from '#shared/render-limits.ts';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, type DesignJson } from '../support/designs.ts';
import { pollUntil, useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
const LEFT_OUT = 'team watermark left out: its image cannot be read';

let client: TestClient;
let teamId: string;
let design: DesignJson;

beforeAll(async () => {
  client = await ownTeam(stack().url, `fallback-load-${Date.now()}@example.com`);
  const team = await client.request('GET', '/settings/companies/current');
  teamId = team.json.id as string;
  design = await createDesign(client);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** One render of the design for `name`; `limited`: the edge counted the address over budget. */
async function render(name: string, limited: boolean) {
  const res = await fetch(`${stack().url}/r/${design.public_id}.jpg?first_name=${name}`, {
    headers: limited ? { [EDGE_RATE_HEADER]: EDGE_RATE_EXCEEDED } : {},
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    width: meta?.width,
  };
}

describe('a design whose fallback is partial, under many refused requests', () => {
  it('answers every request an image, no-store, from one fallback draw', async () => {
    const { db } = await import('#lib/db/index.ts');
    await db().Team.patch({ teamId }).set({ planId: 'pro-monthly' }).go();
    const png = await sharp({
      create: { width: 300, height: 100, channels: 3, background: { r: 0, g: 160, b: 0 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('watermark', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    expect(
      (await client.request('POST', `/settings/companies/${teamId}/watermark`, form)).status,
    ).toBe(200);
    // The team names a file that is not there (a name never used: no render holds it).
    await db()
      .Team.patch({ teamId })
      .set({ watermarkUrl: `/files/watermarks/gone-${Date.now()}.png` })
      .go();
    const { forgetRenderTeams } = await import('#functions/render/handler.ts');
    forgetRenderTeams();
    const saved = await client.request('PUT', `/api/pic-snippet/${design.id}`, {
      version: design.version,
      show_watermark: true,
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    // The render reads a design for up to a second after a save: polled until it draws partial.
    let n = 0;
    await pollUntil(
      'a partial render of the saved version',
      () => render(`Poll${(n += 1)}`, false),
      (r) => (r.cacheControl ?? '').includes('no-store'),
    );

    const { logger } = await import('#lib/logger.ts');
    const warn = vi.spyOn(logger, 'warn');
    const draws = () => warn.mock.calls.filter(([message]) => message === LEFT_OUT).length;
    // A burst at once, then more one after another: every one refused a draw of its own.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => render(`Burst${i}`, true)),
    );
    for (let i = 0; i < 4; i++) answers.push(await render(`After${i}`, true));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, type: 'image/jpeg', cacheControl: 'no-store' });
      // The design's own fallback (its photo's width), not the 600-px placeholder.
      expect(answer.width).toBe(answers[0]!.width);
      expect(answer.width).not.toBe(600);
    }
    expect(draws()).toBe(1);
  });
});
