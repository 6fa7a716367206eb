/**
 * Webhook rules without the stack (docs/developer-api.md "Webhooks"): the signature a receiver
 * recomputes, the retry schedule, and which endpoint input the contract takes.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CreateWebhookBody, UpdateWebhookBody } from '#shared/contract/webhooks.ts';
import { deliveryBody, webhookSignature } from '#domain/webhooks.ts';
import { retryDelay } from '#functions/webhooks/worker.ts';

describe('webhook signature', () => {
  it('is t=<unix s>,v1=<hex HMAC-SHA256 of "t.body"> under the secret', () => {
    const body = '{"id":"evt_1","type":"ping"}';
    const expected = createHmac('sha256', 'whsec_abc').update(`1764000000.${body}`).digest('hex');
    expect(webhookSignature('whsec_abc', 1764000000, body)).toBe(`t=1764000000,v1=${expected}`);
    // Another time, body or secret gives another signature.
    expect(webhookSignature('whsec_abc', 1764000001, body)).not.toContain(expected);
    expect(webhookSignature('whsec_abd', 1764000000, body)).not.toContain(expected);
    expect(webhookSignature('whsec_abc', 1764000000, `${body} `)).not.toContain(expected);
  });

  it('signs the body every attempt of an event sends, with the event id and time', () => {
    const message = {
      eventId: 'evt_1',
      type: 'design.saved' as const,
      createdAt: '2026-11-24T15:00:00.000Z',
      teamId: 'team-1',
      webhookId: 'hook-1',
      data: { design: { id: 'd1' } },
      attempt: 1,
    };
    const first = deliveryBody(message);
    expect(JSON.parse(first)).toEqual({
      id: 'evt_1',
      type: 'design.saved',
      created_at: '2026-11-24T15:00:00.000Z',
      team_id: 'team-1',
      data: { design: { id: 'd1' } },
    });
    expect(deliveryBody({ ...message, attempt: 4 })).toBe(first);
  });
});

describe('webhook retries', () => {
  it('waits 30 s, 2 min, 8 min, then 15 min (SQS’s longest delay)', () => {
    expect([1, 2, 3, 4, 5, 7].map((attempt) => retryDelay(attempt, 30))).toEqual([
      30, 120, 480, 900, 900, 900,
    ]);
    expect(retryDelay(3, 0)).toBe(0);
  });
});

describe('webhook endpoint input', () => {
  it('takes an http(s) URL and at least one known event, without repeats', () => {
    expect(
      CreateWebhookBody.parse({
        url: ' https://example.com/hooks ',
        events: ['design.saved', 'design.saved', 'export.generated'],
      }),
    ).toEqual({
      url: 'https://example.com/hooks',
      events: ['design.saved', 'export.generated'],
      enabled: true,
    });
  });

  it.each([
    ['ftp://example.com/', ['design.saved']],
    ['https://user:pass@example.com/', ['design.saved']],
    ['not a url', ['design.saved']],
    ['https://example.com/', []],
    ['https://example.com/', ['design.deleted']],
    [`https://example.com/${'a'.repeat(2048)}`, ['design.saved']],
  ])('refuses %s with %j', (url, events) => {
    expect(CreateWebhookBody.safeParse({ url, events }).success).toBe(false);
  });

  it('changes only what is sent', () => {
    expect(UpdateWebhookBody.parse({ enabled: false })).toEqual({ enabled: false });
  });
});
