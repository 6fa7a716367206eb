/**
 * The support form's call (docs/notifications.md "Support": "Support form",
 * docs/adr/0044-the-api-contract.md "The API contract" `POST /support/email`; docs/notifications.md
 * "Support"): the mail reaches the support address from the signed-in user (whatever `from` the
 * body says), with Reply-To and the user and team ids in headers; five an hour per user, then 429
 * with the limit's message; field messages for empty input.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SUPPORT_MESSAGES } from '#shared/contract/notifications.ts';
import { TestClient } from '../support/client.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

const outbox = async () =>
  (await (await fetch(`${stack().url}/__outbox.json`)).json()) as OutboxMail[];

async function newUser() {
  const c = new TestClient(stack().url);
  const email = `helpme-${randomUUID().slice(0, 8)}@example.org`;
  const password = 'amber-compass-64';
  const res = await c.request('POST', '/register', {
    name: 'Hilda Helpme',
    email,
    team: 'Hilda Team',
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
  const me = (await c.request('GET', '/user/current')).json;
  return { c, email, userId: me.id as string, teamId: me.current_team_id as string };
}

describe('POST /support/email', () => {
  it('mails the support address from the signed-in user, with their ids in headers', async () => {
    const { c, email, userId, teamId } = await newUser();
    const res = await c.request('POST', '/support/email', {
      from: 'someone-else@example.org',
      subject: 'Export\r\nBcc: victim@example.org',
      message: 'My render shows the fallback.\nCan you look?',
    });
    expect(res).toMatchObject({ status: 200, json: { success: true } });
    const mail = (await outbox()).find((m) => m.to === 'support@picsnippets.local')!;
    // A line break cannot start a header of its own: the subject is one line.
    expect(mail.subject).toBe('[Support] Export Bcc: victim@example.org');
    expect(mail.text).toContain(`Hilda Helpme <${email}>`);
    expect(mail.text).toContain('Hilda Team');
    expect(mail.text).toContain('My render shows the fallback.');
    expect(mail.text).not.toContain('someone-else@example.org');
    expect(mail.headers).toEqual({
      'Reply-To': email,
      'X-PicSnippets-User-Id': userId,
      'X-PicSnippets-Team-Id': teamId,
    });
  });

  it('allows five messages an hour per user, then answers 429 with the limit’s message', async () => {
    const first = await newUser();
    const other = await newUser();
    const send = (c: TestClient, n: number) =>
      c.request('POST', '/support/email', { subject: `Question ${n}`, message: 'Hello' });
    for (let n = 1; n <= 5; n++) expect((await send(first.c, n)).status).toBe(200);
    const refused = await send(first.c, 6);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(SUPPORT_MESSAGES.tooMany);
    const sent = (await outbox()).filter((m) => m.headers?.['Reply-To'] === first.email);
    expect(sent.map((m) => m.subject).sort()).toEqual(
      [1, 2, 3, 4, 5].map((n) => `[Support] Question ${n}`),
    );
    // The limit is per user: someone else may still write.
    expect((await send(other.c, 1)).status).toBe(200);
  });

  it('refuses an empty subject or message with field messages, and strangers with 401', async () => {
    const { c } = await newUser();
    const res = await c.request('POST', '/support/email', { subject: '  ', message: '' });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      subject: [SUPPORT_MESSAGES.subjectRequired],
      message: [SUPPORT_MESSAGES.messageRequired],
    });
    const stranger = await new TestClient(stack().url).request('POST', '/support/email', {
      subject: 'Hi',
      message: 'Hello',
    });
    expect(stranger.status).toBe(401);
  });
});
