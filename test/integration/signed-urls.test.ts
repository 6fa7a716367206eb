/**
 * Signed render URLs through the local stack (docs/developer-api.md "Signed render URLs"): the
 * team's secret, the design's requirement, the sign endpoint with a `sign` token, and the real
 * render path (DynamoDB Local, s3rver, Chromium) accepting or answering the fallback with its
 * reason. The documentation's Node, Python and shell examples are run as written.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { createDesign, ownTeam, type DesignJson } from '../support/designs.ts';
import { putDesign } from '../support/render-designs.ts';
import { fetchImage, meanDifference, useLocalStack } from '../support/stack.ts';
import { signRenderPath } from '#functions/render/signature.ts';

const stack = useLocalStack();

let owner: TestClient;
let teamId: string;
let design: DesignJson;
let otherDesign: DesignJson;
let signToken: string;

const bearer = (token: string, path: string, body: unknown) =>
  fetch(`${stack().url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });

/** A render as a mail client sees it: status, type, caching and why a fallback was answered. */
async function render(url: string) {
  const res = await fetch(url.startsWith('http') ? url : `${stack().url}${url}`);
  await res.arrayBuffer();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    reason: res.headers.get('x-render-reason'),
    drawn: res.headers.get('x-render-cache') !== null,
  };
}

const expectAccepted = (r: Awaited<ReturnType<typeof render>>) => {
  expect(r.reason).toBeNull();
  expect(r.drawn).toBe(true);
  expect(r.cache).toMatch(/^public/);
};
const expectRefused = (r: Awaited<ReturnType<typeof render>>, reason: string) => {
  expect(r).toMatchObject({ status: 200, type: 'image/jpeg', cache: 'no-store', reason });
  expect(r.drawn).toBe(false);
};

async function sign(body: unknown, token = signToken, id = design.id) {
  const res = await bearer(token, `/api/pic-snippet/${id}/sign`, body);
  return { status: res.status, json: (await res.json()) as { url: string; message?: string } };
}

async function rotate(overlap_hours: number): Promise<string> {
  const res = await owner.request('POST', `/settings/companies/${teamId}/signing-secret`, {
    overlap_hours,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const { forgetRenderTeams } = await import('#functions/render/handler.ts');
  forgetRenderTeams(); // a Lambda reads them again within a minute
  return res.json.secret as string;
}

/** The fenced block of docs/developer-api.md whose first line names `file`. */
function docsExample(file: string): string {
  const docs = readFileSync(join(import.meta.dirname, '../../docs/developer-api.md'), 'utf8');
  const block = docs
    .split('```')
    .map((part) => part.slice(part.indexOf('\n') + 1))
    .find((code) => code.split('\n')[0]!.includes(file));
  if (!block) throw new Error(`no example ${file} in docs/developer-api.md`);
  return block;
}

/** Runs a documentation example; its stdout is the signed URL. */
function runExample(
  file: string,
  command: string,
  args: string[],
  env: Record<string, string>,
): string {
  const dir = mkdtempSync(join(tmpdir(), 'sign-example-'));
  writeFileSync(join(dir, file), docsExample(file));
  return execFileSync(command, [join(dir, file), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  }).trim();
}

const hasPython = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  owner = await ownTeam(stack().url, 'signer@example.com');
  teamId = (await owner.request('GET', '/settings/companies/current')).json.id as string;
  design = await createDesign(owner, { title: 'Signed' });
  const other = await ownTeam(stack().url, 'other-signer@example.com');
  otherDesign = await createDesign(other, { title: 'Not yours' });
  const token = await owner.request('POST', '/settings/api/token', {
    name: 'Send list',
    abilities: ['sign'],
  });
  expect(token.status).toBe(201);
  signToken = token.json.token as string;
});

describe('signed render URLs', () => {
  it('leave a design that does not require them unaffected', async () => {
    expectAccepted(await render(`/r/${design.public_id}?first_name=Ana`));
    expectAccepted(
      await render(`/r/${design.public_id}?first_name=Ana&__sf=values&__sig=nonsense`),
    );
  });

  it('sign only with a secret, a token with the ability, and the team’s own design', async () => {
    expect((await sign({ parameters: [] })).status).toBe(409);
    const status = await owner.request('GET', `/settings/companies/${teamId}/signing-secret`);
    expect(status.json).toEqual({ exists: false, created_at: null, previous_valid_until: null });

    const secret = await rotate(24);
    expect(secret).toMatch(/^pss_[\w-]{43}$/);
    const after = await owner.request('GET', `/settings/companies/${teamId}/signing-secret`);
    expect(after.json).toMatchObject({ exists: true, previous_valid_until: null });
    expect(JSON.stringify(after.json)).not.toContain(secret);

    const readWrite = await owner.request('POST', '/settings/api/token', {
      name: 'No signing',
      abilities: ['read', 'write'],
    });
    const refusedToken = await sign({ parameters: [] }, readWrite.json.token as string);
    expect(refusedToken.status).toBe(403);
    expect((await sign({ parameters: [] }, signToken, otherDesign.id)).status).toBe(404);
    // A token cannot make or rotate the secret (session only).
    const minted = await bearer(signToken, `/settings/companies/${teamId}/signing-secret`, {});
    expect(minted.status).toBe(403);
    // Bad input is a 422 on its field, never a 500: a reserved name, a lone surrogate.
    const reserved = await sign({ parameters: [{ name: '__sig', value: 'x' }] });
    expect(reserved.status).toBe(422);
    const broken = await bearer(
      signToken,
      `/api/pic-snippet/${design.id}/sign`,
      JSON.parse('{"parameters":[{"name":"a","value":"\\ud800"}]}'),
    );
    expect(broken.status).toBe(422);
  });

  it('once required: unsigned and tampered URLs get the fallback, signed ones draw', async () => {
    const on = await owner.request('PUT', `/api/pic-snippet/${design.id}/signing`, {
      require_signed_urls: true,
    });
    expect(on.status, JSON.stringify(on.json)).toBe(200);
    expect(on.json).toMatchObject({ require_signed_urls: true });
    // The render reads a design at most 1 s old (functions/render/handler.ts DESIGN_TTL_MS).
    await new Promise((r) => setTimeout(r, 1100));

    const values = await sign({
      form: 'values',
      parameters: [
        { name: 'first_name', value: 'Zoë' },
        { name: 'city', value: 'São Paulo' },
      ],
    });
    expect(values.status, JSON.stringify(values.json)).toBe(200);
    const url = values.json.url;
    expect(url).toContain(`${stack().url}/r/${design.public_id}?__sf=values&__sig=`);
    expect(url).toContain('&first_name=Zo%C3%AB&');
    expectAccepted(await render(url));

    // Unsigned with the same values: never the signed render from a cache.
    expectRefused(
      await render(`/r/${design.public_id}?first_name=Zo%C3%AB&city=S%C3%A3o%20Paulo`),
      'signature-missing',
    );
    // A kept version (cache id) is refused too: the requirement is the current design's.
    expectRefused(await render(`/r/${design.public_id}/v1`), 'signature-missing');
    expectRefused(await render(`${url}&extra=1`), 'signature-invalid');
    expectRefused(await render(url.replace('first_name=', 'last_name=')), 'signature-invalid');
    expectRefused(await render(url.replace('Zo%C3%AB', 'Eve')), 'signature-invalid');
    expectRefused(
      await render(url.replace(`/r/${design.public_id}`, `/r/${design.public_id}.png`)),
      'signature-invalid',
    );

    const names = await sign({
      form: 'names',
      parameters: [
        { name: 'first_name', value: '*|FNAME|*' },
        { name: 'city', value: '*|CITY|*' },
      ],
    });
    expect(names.status).toBe(200);
    const filled = names.json.url.replace('*|FNAME|*', 'Ana').replace('*|CITY|*', 'Lisboa');
    expectAccepted(await render(filled));
    expectRefused(await render(`${filled}&extra=1`), 'signature-invalid');
    expectRefused(await render(filled.replace('city=', 'town=')), 'signature-invalid');

    // A dense URL (docs/export.md "Density"): `@2x` is part of the signed path.
    const dense = await sign({
      form: 'names',
      parameters: [{ name: 'first_name', value: '*|FNAME|*' }],
      cache_id: 'v1',
      format: 'jpg',
      density: 2,
    });
    expect(dense.status, JSON.stringify(dense.json)).toBe(200);
    expect(dense.json.url).toContain(`/r/${design.public_id}/v1@2x.jpg?__sf=names&__sig=`);
    const denseFilled = dense.json.url.replace('*|FNAME|*', 'Ana');
    expectAccepted(await render(denseFilled));
    expectRefused(await render(denseFilled.replace('@2x', '')), 'signature-invalid');
    expectRefused(await render(denseFilled.replace('@2x', '@3x')), 'signature-invalid');
  });

  it('requires the signature on the rule link too, before its lookups and rules', async () => {
    const secret = await rotate(24);
    const { db } = await import('#lib/db/index.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    const doc = {
      ...(demo.document as Record<string, unknown>),
      html_link_url: 'https://example.com/offer',
      require_signed_urls: true,
    };
    const publicId = `signed-link-${teamId.slice(-8)}`;
    await putDesign(publicId, teamId, doc);
    const link = async (path: string) => {
      const res = await fetch(`${stack().url}${path}`, { redirect: 'manual' });
      return { status: res.status, location: res.headers.get('location'), body: await res.text() };
    };
    // The export's rule link is the signed render URL with /l/ for /r/.
    const signed = signRenderPath(secret, 'values', `/r/${publicId}`, [
      { name: 'first_name', value: 'Ana' },
    ]);
    expect(await link(signed.replace('/r/', '/l/'))).toMatchObject({
      status: 302,
      location: 'https://example.com/offer',
    });
    const unsigned = await link(`/l/${publicId}?first_name=Ana`);
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toContain('This link is not valid');
    expect((await link(signed.replace('/r/', '/l/').replace('Ana', 'Eve'))).status).toBe(403);
  });

  it('refuses an expired URL and accepts the documentation’s examples', async () => {
    const secret = await rotate(24);
    const base = `${stack().url}/r/${design.public_id}`;
    const args = ['first_name=Zoë Ann', 'note=50% off! (today*)'];
    const past = String(Math.floor(Date.now() / 1000) - 60);
    const future = String(Math.floor(Date.now() / 1000) + 3600);

    const node = (env: Record<string, string>) =>
      runExample('sign-render-url.mjs', process.execPath, [base, ...args], {
        SECRET: secret,
        ...env,
      });
    expectAccepted(await render(node({})));
    expectAccepted(await render(node({ EXPIRES: future })));
    expectRefused(await render(node({ EXPIRES: past })), 'signature-expired');
    expectAccepted(await render(node({ FORM: 'names' })));
    // ManyChat's __format is not signed: its JSON points at the URL without it.
    const manychat = runExample(
      'sign-render-url.mjs',
      process.execPath,
      [base, '__format=manychat_json', ...args],
      { SECRET: secret, FORM: 'names' },
    );
    expectAccepted(await render(manychat.replace('__format=manychat_json&', '')));

    const shell = runExample('sign-render-url.sh', 'bash', [base, ...args], { SECRET: secret });
    expect(shell).toBe(node({}));
    expectAccepted(await render(shell));

    if (hasPython) {
      const python = (env: Record<string, string>) =>
        runExample('sign_render_url.py', 'python3', [base, ...args], { SECRET: secret, ...env });
      expect(python({})).toBe(node({}));
      expect(python({ FORM: 'names', EXPIRES: future })).toBe(
        node({ FORM: 'names', EXPIRES: future }),
      );
      expectAccepted(await render(python({})));
    }
  });

  it('keeps the previous secret valid during the overlap of a rotation, and ends it with none', async () => {
    const first = await sign({ parameters: [{ name: 'first_name', value: 'Old' }] });
    await rotate(24);
    const status = await owner.request('GET', `/settings/companies/${teamId}/signing-secret`);
    expect(status.json.previous_valid_until).not.toBeNull();
    const second = await sign({ parameters: [{ name: 'first_name', value: 'New' }] });
    expectAccepted(await render(first.json.url));
    expectAccepted(await render(second.json.url));

    await rotate(0);
    expectRefused(await render(first.json.url), 'signature-invalid');
    expectRefused(await render(second.json.url), 'signature-invalid');
    expectAccepted(await render((await sign({ parameters: [] })).json.url));
  });

  it('draws unsigned URLs again once the requirement is off', async () => {
    const off = await owner.request('PUT', `/api/pic-snippet/${design.id}/signing`, {
      require_signed_urls: false,
    });
    expect(off.status).toBe(200);
    // The render reads a design at most 1 s old (functions/render/handler.ts DESIGN_TTL_MS).
    await new Promise((r) => setTimeout(r, 1100));
    expectAccepted(await render(`/r/${design.public_id}?first_name=Free`));
  });

  it('draws names-form URLs whose values the platform wrote unencoded (&, #, empty)', async () => {
    const secret = await rotate(24);
    const { db } = await import('#lib/db/index.ts');
    const demo = (await db().Design.get({ designId: 'design-demo-welcome' }).go()).data!;
    const doc = demo.document as Record<string, unknown>;
    await putDesign('signed-raw-values', teamId, { ...doc, require_signed_urls: true });
    await putDesign('unsigned-raw-values', teamId, { ...doc, require_signed_urls: false });
    const signed = signRenderPath(secret, 'names', '/r/signed-raw-values.png', [
      { name: 'first_name', value: '{{ first_name }}' },
    ]);
    /** "Hello {{first_name}}!" (1000x625 canvas). */
    const textBand = { left: 50, top: 200, width: 900, height: 220 };
    for (const [written, drawn] of [
      ['Tom & Jerry', 'Tom%20%26%20Jerry'],
      ['AT&T', 'AT%26T'],
      ['A#1', 'A'],
      ['', ''],
    ] as const) {
      const got = await fetchImage(`${stack().url}${signed.replace('{{ first_name }}', written)}`);
      expect(got.res.headers.get('x-render-reason'), written).toBeNull();
      const want = await fetchImage(`${stack().url}/r/unsigned-raw-values.png?first_name=${drawn}`);
      expect(meanDifference(got.pixels, want.pixels, got.width, textBand), written).toBeLessThan(
        0.5,
      );
    }
    // A changed name is still refused.
    const renamed = await fetchImage(
      `${stack().url}${signed.replace('first_name={{ first_name }}', 'last_name=Eve')}`,
    );
    expect(renamed.res.headers.get('x-render-reason')).toBe('signature-invalid');
  });
});
