import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  CreateWebhookBody,
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  type WebhookEndpoint,
} from '#shared/contract/webhooks.ts';
import { call } from '../../api/client.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FormCheckboxGroup, FormMessage, FormTextField } from '../../components/FormFields.tsx';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import { loadFailure } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { ActionNotice, type ActionMessage } from '../../components/ActionNotice.tsx';
import { formatDate } from './ApiTokensSection.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { LoadedList, type ListQuery } from '../../components/LoadedList.tsx';
import { ShownOnce } from './ShownOnce.tsx';
import { SubmitButton } from './ProfileTab.tsx';
import './webhooks.css';
import { formatDateTime } from '../../lib/format.ts';

type EventValue = (typeof WEBHOOK_EVENTS)[number];
type EventOption = { value: EventValue; text: string };

const listKey = (teamId: string) => [...queryKeys.teams.one(teamId), 'webhooks'] as const;
const deliveriesKey = (teamId: string, id: string) =>
  [...listKey(teamId), id, 'deliveries'] as const;

/** How long the deliveries are read again after a test event, waiting for its row, ms. */
const TEST_WAIT_MS = 20_000;

/**
 * An endpoint form's rules (the server's `CreateWebhookBody`): a URL (an empty one says what to
 * enter), at least one event, an optional description.
 */
const EndpointSchema = z.object({
  url: z.string().trim().min(1, WEBHOOK_MESSAGES.url).pipe(CreateWebhookBody.shape.url),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, WEBHOOK_MESSAGES.events),
  description: z.string().trim().max(255, 'At most 255 characters.'),
});
type EndpointInput = z.input<typeof EndpointSchema>;
type EndpointValues = z.output<typeof EndpointSchema>;
const ENDPOINT_FIELDS = ['url', 'events', 'description'] as const;

/**
 * Team settings → Webhooks (docs/developer-api.md "Webhooks"): the team's endpoints (add, edit,
 * turn on or off, delete), each one's recent deliveries with the receiver's answers, and a test
 * event. A new endpoint's signing secret is shown once. Only the owner and admins manage them.
 */
export function WebhooksTab({ teamId, canManage }: { teamId: string; canManage: boolean }) {
  const base = useId();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [listMessage, setListMessage] = useState<ActionMessage>();
  const list = useQuery({
    queryKey: listKey(teamId),
    queryFn: ({ signal }) =>
      call('GET /settings/companies/{id}/webhooks', { params: { id: teamId }, signal }),
    enabled: canManage,
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: listKey(teamId) });
  const remove = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) =>
      call('DELETE /settings/companies/{id}/webhooks/{webhookId}', {
        params: { id: teamId, webhookId: endpoint.id },
      }),
    onSuccess: (_answer, endpoint) => {
      setListMessage({
        tone: 'success',
        text: `The endpoint ${endpoint.url} was deleted.`,
        focus: true,
      });
      // Its row leaves at once, so its deliveries are not asked for again (they would be a
      // 404); then the list itself is read again, without its rows' deliveries.
      queryClient.setQueryData(
        listKey(teamId),
        (old: { endpoints: WebhookEndpoint[] } | undefined) =>
          old ? { ...old, endpoints: old.endpoints.filter((e) => e.id !== endpoint.id) } : old,
      );
      queryClient.removeQueries({ queryKey: deliveriesKey(teamId, endpoint.id) });
      void queryClient.invalidateQueries({ queryKey: listKey(teamId), exact: true });
    },
    onError: (error) => setListMessage({ tone: 'error', text: actionFailure(error) }),
    onSettled: () => setDeleting(null),
  });
  const events = list.data?.events ?? [];

  return (
    <section className="settings-section stack" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Webhooks
      </h2>
      <p className="muted">
        PicSnippets can tell your own servers when designs are saved, published or archived, exports
        are generated, send lists finish or the subscription changes. Each delivery is signed with
        the endpoint’s secret (<a href="/api/docs">API reference</a>).
      </p>
      {!canManage && (
        <Notice tone="info">Only the company’s owner or an admin can manage its webhooks.</Notice>
      )}
      {canManage && list.status === 'error' && (
        <Notice tone="error">{loadFailure(list.error)}</Notice>
      )}
      {canManage && created && (
        <ShownOnce
          title="Endpoint added"
          label="Signing secret"
          value={created.secret}
          what="secret"
          testId="new-webhook-secret"
          onDone={() => setCreated(null)}
        >
          Copy its signing secret now: this is the only time it is shown. Your server checks each
          delivery to <span className="webhooks-url">{created.url}</span> with it.
        </ShownOnce>
      )}
      {canManage && !created && list.status === 'success' && (
        <EndpointForm
          events={events}
          title="Add an endpoint"
          submitLabel="Add endpoint"
          busyLabel="Adding…"
          initial={{ url: '', events: [], description: '' }}
          onSubmit={async (values) => {
            const answer = await call('POST /settings/companies/{id}/webhooks', {
              params: { id: teamId },
              body: values,
            });
            setCreated({ url: answer.endpoint.url, secret: answer.secret });
            setListMessage(undefined);
            reload();
          }}
        />
      )}
      {canManage && (
        <>
          <h3 id={`${base}-list`} className="settings-subtitle">
            Endpoints
          </h3>
          <ActionNotice message={listMessage} />
          <LoadedList
            query={endpointsOf(list)}
            loadingText="Loading webhook endpoints…"
            emptyText="This company has no webhook endpoints yet."
            labelledBy={`${base}-list`}
            testId="webhook-list"
          >
            {(endpoint) => (
              <EndpointRow
                key={endpoint.id}
                teamId={teamId}
                endpoint={endpoint}
                events={events}
                onChanged={reload}
                onDelete={() => setDeleting(endpoint)}
              />
            )}
          </LoadedList>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this webhook endpoint?"
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        onConfirm={() => deleting && !remove.isPending && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>
          {deleting?.url} will get no more events, and its deliveries are no longer shown. This
          cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** The list query as `LoadedList` reads it: its endpoints. */
function endpointsOf(
  list: ReturnType<typeof useQuery<{ endpoints: WebhookEndpoint[] }>>,
): ListQuery<WebhookEndpoint> {
  return {
    status: list.status,
    data: list.data?.endpoints,
    error: list.error,
    refetch: list.refetch as unknown as ListQuery<WebhookEndpoint>['refetch'],
  };
}

/** The add and edit form: URL, events, description. */
function EndpointForm({
  events,
  title,
  submitLabel,
  busyLabel,
  initial,
  onSubmit,
  onCancel,
}: {
  events: EventOption[];
  title?: string;
  submitLabel: string;
  busyLabel: string;
  initial: EndpointInput;
  onSubmit: (values: EndpointValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const base = useId();
  const form = useForm<EndpointInput, unknown, EndpointValues>({
    resolver: zodResolver(EndpointSchema),
    defaultValues: initial,
  });
  const { control, setError, reset } = form;
  const submit = submitWith(form, async (values) => {
    try {
      await onSubmit(values);
      reset(initial);
    } catch (error) {
      applyServerErrors(setError, error, ENDPOINT_FIELDS);
    }
  });
  return (
    <form className="stack subcard" noValidate onSubmit={submit} aria-label={title ?? submitLabel}>
      {title && <h3 className="settings-subtitle">{title}</h3>}
      <FormMessage control={control} />
      <FormTextField
        control={control}
        field="url"
        id={`${base}-url`}
        label="Endpoint URL"
        autoComplete="off"
        hint="Where PicSnippets POSTs the events, e.g. https://example.com/picsnippets-hooks."
      />
      <FormCheckboxGroup
        control={control}
        field="events"
        idBase={base}
        legend="Events"
        options={events}
        layout="stack"
        label={(event) => (
          <>
            {event.text} <code>{event.value}</code>
          </>
        )}
      />
      <FormTextField
        control={control}
        field="description"
        id={`${base}-description`}
        label="Description (optional)"
        autoComplete="off"
      />
      <div className="item-list__actions">
        {onCancel && (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={onCancel}
          >
            Cancel
          </button>
        )}
        <SubmitButton
          pending={form.formState.isSubmitting}
          label={submitLabel}
          busyLabel={busyLabel}
        />
      </div>
    </form>
  );
}

/** A delivery's time, to the second, in the reader's locale. */
const sentAt = (iso: string) => formatDateTime(iso, { seconds: true });

/** What an endpoint's state says: on, off, or turned off for failing. */
function stateText(e: WebhookEndpoint): string {
  if (!e.enabled) return e.disabled_reason ? `Turned off: ${e.disabled_reason}` : 'Off';
  return e.failing_since ? `On, failing since ${formatDate(e.failing_since)}` : 'On';
}

/** One endpoint: its URL, events and state, its actions, and its recent deliveries. */
function EndpointRow({
  teamId,
  endpoint,
  events,
  onChanged,
  onDelete,
}: {
  teamId: string;
  endpoint: WebhookEndpoint;
  events: EventOption[];
  onChanged: () => void;
  onDelete: () => void;
}) {
  const base = useId();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [waitingFor, setWaitingFor] = useState<{ eventId: string; until: number } | null>(null);
  const [message, setMessage] = useState<ActionMessage>();
  const stopWaiting = useCallback(() => setWaitingFor(null), []);
  const params = { id: teamId, webhookId: endpoint.id };
  const toggle = useMutation({
    mutationFn: () =>
      call('PUT /settings/companies/{id}/webhooks/{webhookId}', {
        params,
        body: { enabled: !endpoint.enabled },
      }),
    onSuccess: (answer) => {
      setMessage({ tone: 'success', text: answer.enabled ? 'Turned on.' : 'Turned off.' });
      onChanged();
    },
    onError: (error) => setMessage({ tone: 'error', text: actionFailure(error) }),
  });
  const test = useMutation({
    mutationFn: () => call('POST /settings/companies/{id}/webhooks/{webhookId}/test', { params }),
    onSuccess: (answer) => {
      setMessage({ tone: 'success', text: 'Test event sent. Its delivery appears below.' });
      setShowDeliveries(true);
      setWaitingFor({ eventId: String(answer.event_id ?? ''), until: Date.now() + TEST_WAIT_MS });
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(teamId, endpoint.id) });
    },
    onError: (error) => setMessage({ tone: 'error', text: actionFailure(error) }),
  });
  const chosen = events.filter((e) => endpoint.events.includes(e.value)).map((e) => e.value);

  if (editing) {
    return (
      <li className="item-list__item">
        <EndpointForm
          events={events}
          submitLabel="Save"
          busyLabel="Saving…"
          initial={{ url: endpoint.url, events: chosen, description: endpoint.description }}
          onCancel={() => setEditing(false)}
          onSubmit={async (values) => {
            await call('PUT /settings/companies/{id}/webhooks/{webhookId}', {
              params,
              body: values,
            });
            setEditing(false);
            onChanged();
          }}
        />
      </li>
    );
  }

  return (
    <li className="item-list__item stack" data-testid="webhook-endpoint">
      <div className="item-list__main">
        <p className="item-list__name webhooks-url">{endpoint.url}</p>
        <p className="muted item-list__meta">
          {endpoint.description && `${endpoint.description} · `}
          {stateText(endpoint)}
          {' · '}
          {endpoint.events.join(', ')}
        </p>
      </div>
      <ActionNotice message={message} />
      <div className="item-list__actions">
        <button
          type="button"
          className="button button--small"
          aria-disabled={test.isPending}
          onClick={() => !test.isPending && test.mutate()}
        >
          {test.isPending ? 'Sending…' : 'Send test event'}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-expanded={showDeliveries}
          aria-controls={`${base}-deliveries`}
          onClick={() => setShowDeliveries((v) => !v)}
        >
          {showDeliveries ? 'Hide deliveries' : 'Recent deliveries'}
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          aria-disabled={toggle.isPending}
          onClick={() => !toggle.isPending && toggle.mutate()}
        >
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
          <span className="visually-hidden"> {endpoint.url}</span>
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => setEditing(true)}
        >
          Edit<span className="visually-hidden"> {endpoint.url}</span>
        </button>
        <button type="button" className="button button--small button--danger" onClick={onDelete}>
          Delete<span className="visually-hidden"> {endpoint.url}</span>
        </button>
      </div>
      <div id={`${base}-deliveries`} hidden={!showDeliveries}>
        {showDeliveries && (
          <Deliveries
            teamId={teamId}
            endpoint={endpoint}
            waitingFor={waitingFor}
            onArrived={stopWaiting}
          />
        )}
      </div>
    </li>
  );
}

/**
 * An endpoint's newest deliveries (status, time taken, the answer's first bytes or the error),
 * read again every second while a test event's row has not come yet (at most 20 s).
 */
function Deliveries({
  teamId,
  endpoint,
  waitingFor,
  onArrived,
}: {
  teamId: string;
  endpoint: WebhookEndpoint;
  waitingFor: { eventId: string; until: number } | null;
  onArrived: () => void;
}) {
  const deliveries = useQuery({
    queryKey: deliveriesKey(teamId, endpoint.id),
    queryFn: ({ signal }) =>
      call('GET /settings/companies/{id}/webhooks/{webhookId}/deliveries', {
        params: { id: teamId, webhookId: endpoint.id },
        signal,
      }),
    refetchInterval: () => (waitingFor && Date.now() < waitingFor.until ? 1000 : false),
  });
  const rows = deliveries.data?.deliveries;
  const arrived = waitingFor !== null && rows?.some((d) => d.event_id === waitingFor.eventId);
  useEffect(() => {
    if (arrived) onArrived();
  }, [arrived, onArrived]);
  // Past the wait, stop saying it is coming (the list shows what came).
  useEffect(() => {
    if (!waitingFor) return;
    const timer = setTimeout(onArrived, Math.max(0, waitingFor.until - Date.now()));
    return () => clearTimeout(timer);
  }, [waitingFor, onArrived]);

  if (deliveries.status === 'pending')
    return (
      <p className="muted" role="status">
        <Spinner /> Loading deliveries…
      </p>
    );
  if (deliveries.status === 'error')
    return <Notice tone="error">{loadFailure(deliveries.error)}</Notice>;
  return (
    <div className="stack">
      {waitingFor && !arrived && (
        <p className="muted" role="status">
          <Spinner /> Waiting for the test delivery…
        </p>
      )}
      {rows && rows.length === 0 ? (
        <p className="muted">No deliveries yet.</p>
      ) : (
        <div className="webhooks-table-wrap">
          <table className="webhooks-table" data-testid="webhook-deliveries">
            <caption>The newest {WEBHOOK_DELIVERIES_KEPT} deliveries</caption>
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Time</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {rows?.map((d) => (
                <tr key={d.id}>
                  <td>{sentAt(d.created_at)}</td>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>{d.attempt}</td>
                  <td className={d.ok ? 'webhooks-status--ok' : 'webhooks-status--failed'}>
                    {d.ok ? 'Delivered' : 'Failed'}
                    {d.status !== null && ` (${d.status})`}
                  </td>
                  <td>{d.duration_ms} ms</td>
                  <td>
                    <pre className="webhooks-table__response">
                      {d.error ?? (d.response || '(empty)')}
                    </pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
