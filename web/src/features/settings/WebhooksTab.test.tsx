/**
 * Team settings → Webhooks (./WebhooksTab.tsx; docs/developer-api.md "Webhooks"): who may manage
 * them, the list's loading, empty and failed states, the endpoint form's own errors and the
 * server's, the secret shown once, the test event and its delivery, turning an endpoint off and
 * deleting it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from '#shared/contract/webhooks.ts';
import { answer } from '../../test/api.ts';
import {
  descriptionOf,
  expectBusy,
  expectFieldError,
  expectFocusOn,
} from '../../test/expectations.ts';
import { anEndpoint, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { WebhooksTab } from './WebhooksTab.tsx';

const EVENTS = WEBHOOK_EVENTS.map((value) => ({ value, text: WEBHOOK_EVENT_LABELS[value] }));
const URL = 'https://example.com/hooks';

/** The webhook list of team-1 answers these endpoints. */
const listAnswers = (endpoints: ReturnType<typeof anEndpoint>[]) =>
  answer('GET /settings/companies/{id}/webhooks', 200, { endpoints, events: EVENTS });

function renderWebhooks(canManage = true) {
  return renderWithProviders(<WebhooksTab teamId="team-1" canManage={canManage} />, {
    route: '/settings/companies/team-1#/webhooks',
    signedInAs: aUser(),
  });
}

/** The endpoints list, once loaded. */
const endpointList = () => screen.findByRole('list', { name: 'Endpoints' });

describe('webhooks', () => {
  it('tells a member that only the owner or an admin manages them, and loads nothing', () => {
    renderWebhooks(false);
    expect(screen.getByRole('status').textContent).toContain(
      'Only the company’s owner or an admin can manage its webhooks.',
    );
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says the endpoints are loading, then that there are none yet', async () => {
    const list = listAnswers([]);
    const held = answer(
      'GET /settings/companies/{id}/webhooks',
      200,
      { endpoints: [], events: EVENTS },
      { held: true, once: true },
    );
    renderWebhooks();
    expect((await screen.findByRole('status')).textContent).toContain('Loading webhook endpoints…');
    held.release();
    await screen.findByText('This company has no webhook endpoints yet.');
    expect(held.requests[0]?.params).toEqual({ id: 'team-1' });
    expect(list.requests).toHaveLength(0);
  });

  it('says why the list could not be loaded, with Retry', async () => {
    answer('GET /settings/companies/{id}/webhooks', 503, {
      message: 'The service is unavailable. Please try again shortly.',
    });
    const { user } = renderWebhooks();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts[0]?.textContent).toContain('The service is unavailable.');
    listAnswers([]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('This company has no webhook endpoints yet.');
  });

  it('names the form’s fields and each event with its key', async () => {
    listAnswers([]);
    renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    const url = within(form).getByRole('textbox', { name: 'Endpoint URL' });
    expect(descriptionOf(url)).toMatch(/^Where PicSnippets POSTs the events/);
    const events = within(form).getByRole('group', { name: 'Events' });
    expect(within(events).getAllByRole('checkbox')).toHaveLength(WEBHOOK_EVENTS.length);
    expect(
      within(events).getByRole('checkbox', { name: 'A design was saved design.saved' }),
    ).toBeTruthy();
    expect(within(form).getByRole('textbox', { name: 'Description (optional)' })).toBeTruthy();
  });

  it('says what each field needs when nothing is filled in', async () => {
    listAnswers([]);
    const add = answer('POST /settings/companies/{id}/webhooks', 201, {
      endpoint: anEndpoint(),
      secret: 'whsec_x',
    });
    const { user } = renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    const url = within(form).getByRole('textbox', { name: 'Endpoint URL' });
    await waitFor(() =>
      expectFieldError(url, 'Enter the http(s) URL that should receive the events.'),
    );
    expectFieldError(
      within(form).getByRole('group', { name: 'Events' }),
      'Choose at least one event.',
    );
    expect(document.activeElement).toBe(url);
    expect(add.requests).toHaveLength(0);
  });

  it('refuses an address that is not http(s)', async () => {
    listAnswers([]);
    const { user } = renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    const url = within(form).getByRole('textbox', { name: 'Endpoint URL' });
    await user.type(url, 'ftp://example.com/hooks');
    await user.click(within(form).getByRole('checkbox', { name: /design\.saved/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() =>
      expectFieldError(url, 'Enter the http(s) URL that should receive the events.'),
    );
  });

  it('puts the server’s refusal of a private address on the URL field', async () => {
    listAnswers([]);
    answer(
      'POST /settings/companies/{id}/webhooks',
      422,
      invalid({
        url: ['This URL is not reachable from the internet (a private or local address).'],
      }),
    );
    const { user } = renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    const url = within(form).getByRole('textbox', { name: 'Endpoint URL' });
    await user.type(url, 'http://10.0.0.1/hooks');
    await user.click(within(form).getByRole('checkbox', { name: /design\.saved/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() =>
      expectFieldError(
        url,
        'This URL is not reachable from the internet (a private or local address).',
      ),
    );
    expect(document.activeElement).toBe(url);
  });

  it('says when the team has all the endpoints it may have, above the form', async () => {
    listAnswers([]);
    answer('POST /settings/companies/{id}/webhooks', 422, {
      message: 'A team can have at most 10 webhook endpoints.',
    });
    const { user } = renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    await user.type(within(form).getByRole('textbox', { name: 'Endpoint URL' }), URL);
    await user.click(within(form).getByRole('checkbox', { name: /design\.saved/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'A team can have at most 10 webhook endpoints.',
    );
  });

  it('adds an endpoint and shows its signing secret once', async () => {
    listAnswers([]);
    const add = answer(
      'POST /settings/companies/{id}/webhooks',
      201,
      { endpoint: anEndpoint(), secret: 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG' },
      { held: true },
    );
    const { user } = renderWebhooks();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    await user.type(within(form).getByRole('textbox', { name: 'Endpoint URL' }), ` ${URL} `);
    await user.click(within(form).getByRole('checkbox', { name: /design\.saved/ }));
    await user.type(
      within(form).getByRole('textbox', { name: 'Description (optional)' }),
      'CRM sync',
    );
    const button = within(form).getByRole('button', { name: 'Add endpoint' });
    listAnswers([anEndpoint({ description: 'CRM sync' })]);
    await user.click(button);
    await waitFor(() => expectBusy(button, 'Adding…'));
    add.release();

    const secret = (await screen.findByRole('textbox', {
      name: 'Signing secret',
    })) as HTMLInputElement;
    expect(secret.value).toBe('whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
    expect(screen.getByText('Endpoint added')).toBeTruthy();
    expect(add.requests[0]?.body).toEqual({
      url: URL,
      events: ['design.saved'],
      description: 'CRM sync',
    });
    await user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull();
    expect(within(await endpointList()).getByRole('listitem').textContent).toContain(
      'CRM sync · On · design.saved',
    );
  });

  it('describes each endpoint’s state: on, failing, or turned off and why', async () => {
    listAnswers([
      anEndpoint({ id: 'a', url: 'https://a.example.com/' }),
      anEndpoint({ id: 'b', url: 'https://b.example.com/', failing_since: '2026-03-01T00:00:00Z' }),
      anEndpoint({
        id: 'c',
        url: 'https://c.example.com/',
        enabled: false,
        disabled_reason: 'it failed for 3 days',
      }),
    ]);
    renderWebhooks();
    const [a, b, c] = within(await endpointList()).getAllByRole('listitem');
    expect(a?.textContent).toContain('On · design.saved');
    expect(b?.textContent).toMatch(/On, failing since .*2026/);
    expect(c?.textContent).toContain('Turned off: it failed for 3 days');
    expect(within(c!).getByRole('button', { name: 'Turn on https://c.example.com/' })).toBeTruthy();
  });

  it('sends a test event and shows its delivery with the receiver’s answer', async () => {
    listAnswers([anEndpoint()]);
    const test = answer('POST /settings/companies/{id}/webhooks/{webhookId}/test', 200, {
      success: true,
      event_id: 'evt-1',
    });
    answer('GET /settings/companies/{id}/webhooks/{webhookId}/deliveries', 200, {
      deliveries: [
        {
          id: 'del-1',
          event_id: 'evt-1',
          event_type: 'ping',
          attempt: 1,
          status: 200,
          ok: true,
          duration_ms: 42,
          response: 'hello from the receiver',
          error: null,
          created_at: '2026-03-01T10:00:00.000Z',
        },
      ],
    });
    const { user } = renderWebhooks();
    const item = within(await endpointList()).getByRole('listitem');
    const toggle = within(item).getByRole('button', { name: 'Recent deliveries' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(within(item).getByRole('button', { name: 'Send test event' }));

    await within(item).findByText('Test event sent. Its delivery appears below.');
    const table = await within(item).findByRole('table', { name: 'The newest 25 deliveries' });
    expect(within(table).getByRole('cell', { name: 'Delivered (200)' })).toBeTruthy();
    expect(within(table).getByText('hello from the receiver')).toBeTruthy();
    expect(
      within(item).getByRole('button', { name: 'Hide deliveries' }).getAttribute('aria-expanded'),
    ).toBe('true');
    expect(test.requests[0]?.params).toEqual({ id: 'team-1', webhookId: 'hook-1' });
  });

  it('says so when an endpoint has had no delivery yet', async () => {
    listAnswers([anEndpoint()]);
    answer('GET /settings/companies/{id}/webhooks/{webhookId}/deliveries', 200, {
      deliveries: [],
    });
    const { user } = renderWebhooks();
    const item = within(await endpointList()).getByRole('listitem');
    await user.click(within(item).getByRole('button', { name: 'Recent deliveries' }));
    await within(item).findByText('No deliveries yet.');
    expect(within(item).queryByRole('table')).toBeNull();
  });

  it('turns an endpoint off and says so', async () => {
    listAnswers([anEndpoint()]);
    const put = answer(
      'PUT /settings/companies/{id}/webhooks/{webhookId}',
      200,
      anEndpoint({ enabled: false }),
    );
    const { user } = renderWebhooks();
    const item = within(await endpointList()).getByRole('listitem');
    listAnswers([anEndpoint({ enabled: false })]);
    await user.click(within(item).getByRole('button', { name: `Turn off ${URL}` }));
    await within(item).findByText('Turned off.');
    expect(put.requests[0]?.body).toEqual({ enabled: false });
  });

  it('deletes an endpoint after confirming, focus on the outcome', async () => {
    listAnswers([anEndpoint()]);
    const remove = answer('DELETE /settings/companies/{id}/webhooks/{webhookId}', 200, {
      success: true,
    });
    const { user } = renderWebhooks();
    await user.click(within(await endpointList()).getByRole('button', { name: `Delete ${URL}` }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this webhook endpoint?' });
    expect(dialog.textContent).toContain(`${URL} will get no more events`);
    listAnswers([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    const outcome = await screen.findByText(`The endpoint ${URL} was deleted.`);
    await waitFor(() => expectFocusOn(outcome));
    await screen.findByText('This company has no webhook endpoints yet.');
    expect(remove.requests).toHaveLength(1);
  });

  it("asks no more for a deleted endpoint's deliveries", async () => {
    listAnswers([anEndpoint()]);
    const deliveries = answer('GET /settings/companies/{id}/webhooks/{webhookId}/deliveries', 200, {
      deliveries: [],
    });
    answer('DELETE /settings/companies/{id}/webhooks/{webhookId}', 200, { success: true });
    const { user } = renderWebhooks();
    const item = within(await endpointList()).getByRole('listitem');
    await user.click(within(item).getByRole('button', { name: 'Recent deliveries' }));
    await within(item).findByText('No deliveries yet.');
    const asked = deliveries.requests.length;
    expect(asked).toBeGreaterThan(0);
    await user.click(within(item).getByRole('button', { name: `Delete ${URL}` }));
    listAnswers([]);
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete endpoint' }),
    );
    await screen.findByText('This company has no webhook endpoints yet.');
    expect(deliveries.requests).toHaveLength(asked);
  });
});
