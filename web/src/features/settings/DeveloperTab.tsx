import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../api/client.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { loadFailure } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { ShownOnce } from './ShownOnce.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { formatDateTime } from '../../lib/format.ts';

/** The overlap choices of a rotation, hours (the server takes 0–720). */
const OVERLAPS: ReadonlyArray<{ hours: number; text: string }> = [
  { hours: 0, text: 'None: the old secret stops now' },
  { hours: 1, text: '1 hour' },
  { hours: 24, text: '24 hours' },
  { hours: 72, text: '3 days' },
  { hours: 168, text: '7 days' },
  { hours: 720, text: '30 days' },
];

const secretKey = (teamId: string) => [...queryKeys.teams.one(teamId), 'signing-secret'] as const;

const when = (iso: string) => formatDateTime(iso);

/**
 * Team settings → Developer (docs/developer-api.md "Signed render URLs"): whether the team has
 * a render signing secret, making one, and rotating it with an overlap. The new secret is shown
 * once. Only the owner and admins manage it; members are told who can.
 */
export function DeveloperTab({ teamId, canManage }: { teamId: string; canManage: boolean }) {
  const base = useId();
  const queryClient = useQueryClient();
  const [overlap, setOverlap] = useState(24);
  const [created, setCreated] = useState<string | null>(null);
  const status = useQuery({
    queryKey: secretKey(teamId),
    queryFn: ({ signal }) =>
      call('GET /settings/companies/{id}/signing-secret', { params: { id: teamId }, signal }),
    enabled: canManage,
  });
  const rotate = useMutation({
    mutationFn: (overlapHours: number) =>
      call('POST /settings/companies/{id}/signing-secret', {
        params: { id: teamId },
        body: { overlap_hours: overlapHours },
      }),
    onSuccess: (answer) => {
      setCreated(answer.secret);
      queryClient.setQueryData(secretKey(teamId), {
        exists: answer.exists,
        created_at: answer.created_at,
        previous_valid_until: answer.previous_valid_until,
      });
    },
  });

  return (
    <section className="settings-section stack" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Signed render URLs
      </h2>
      <p className="muted">
        A design that requires signed URLs draws only for URLs signed with this secret; others get
        its fallback image. Turn it on in a design’s export screen, and sign URLs with the API (
        <a href="/api/docs">API reference</a>).
      </p>
      {!canManage && (
        <Notice tone="info">Only the company’s owner or an admin can manage its secret.</Notice>
      )}
      {canManage && status.isPending && (
        <p className="muted" role="status">
          <Spinner /> Loading the signing secret…
        </p>
      )}
      {status.isError && <Notice tone="error">{loadFailure(status.error)}</Notice>}
      {created && (
        <ShownOnce
          title="Signing secret made"
          label="New signing secret"
          value={created}
          what="secret"
          testId="new-signing-secret"
          onDone={() => setCreated(null)}
        >
          Copy it now: this is the only time it is shown. Anyone with it can sign render URLs of
          this company’s designs.
        </ShownOnce>
      )}
      {status.data && !created && (
        <div className="stack">
          <p data-testid="signing-secret-status">
            {status.data.exists && status.data.created_at
              ? `This company has a signing secret, made ${when(status.data.created_at)}.`
              : 'This company has no signing secret yet.'}
            {status.data.previous_valid_until &&
              ` The previous secret still works until ${when(status.data.previous_valid_until)}.`}
          </p>
          {status.data.exists && (
            <div className="field">
              <label htmlFor={`${base}-overlap`} className="field__label">
                Keep the current secret working for
              </label>
              <p id={`${base}-overlap-hint`} className="field__hint">
                URLs already sent keep working this long after you rotate.
              </p>
              <select
                id={`${base}-overlap`}
                className="input input--select"
                aria-describedby={`${base}-overlap-hint`}
                value={overlap}
                onChange={(event) => setOverlap(Number(event.target.value))}
              >
                {OVERLAPS.map((o) => (
                  <option key={o.hours} value={o.hours}>
                    {o.text}
                  </option>
                ))}
              </select>
            </div>
          )}
          {rotate.isError && <Notice tone="error">{actionFailure(rotate.error)}</Notice>}
          <div>
            <button
              type="button"
              className="button"
              disabled={rotate.isPending}
              aria-busy={rotate.isPending}
              onClick={() => rotate.mutate(status.data.exists ? overlap : 0)}
            >
              {rotate.isPending
                ? 'Making the secret…'
                : status.data.exists
                  ? 'Rotate signing secret'
                  : 'Create signing secret'}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
