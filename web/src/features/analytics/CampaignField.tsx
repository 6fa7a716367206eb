import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { MAX_CAMPAIGN_LENGTH } from '#shared/contract/campaigns.ts';
import { call, isApiError } from '../../api/client.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import './analytics.css';
import { analyticsKeys, campaignsQuery } from './api.ts';

/** The address of a campaign's report (docs/analytics.md "Campaigns"). */
export const campaignPath = (name: string): string =>
  `/campaigns/report?campaign=${encodeURIComponent(name)}`;

/**
 * A design's campaign on its page (docs/analytics.md "Campaigns"): the name, typed or picked from
 * the team's campaigns (read when the field is first focused), saved by `PUT
 * /api/pic-snippet/{id}/campaign` with the design's version; Remove takes the design out. The saved
 * design (new version) goes to `onSaved`. A refused name shows the server's message under the
 * field; a stale version says to reload.
 */
export function CampaignField({
  designId,
  version,
  campaign,
  onSaved,
}: {
  designId: string;
  version: number;
  campaign: string | null;
  onSaved: (saved: { version: number; campaign: string | null; updated_at: string }) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState(campaign ?? '');
  // The team's campaigns as suggestions, asked for once the field is first used.
  const [used, setUsed] = useState(false);
  const known = useQuery({ ...campaignsQuery(), enabled: used });
  const save = useMutation({
    mutationFn: (next: string | null) =>
      call('PUT /api/pic-snippet/{id}/campaign', {
        params: { id: designId },
        body: { version, campaign: next },
      }),
    onSuccess: (saved) => {
      setText(saved.campaign ?? '');
      onSaved(saved);
      void queryClient.invalidateQueries({ queryKey: analyticsKeys.campaigns() });
    },
  });
  const fieldError =
    save.error && isApiError(save.error) && save.error.status === 422
      ? (save.error.errors?.campaign?.[0] ?? save.error.message)
      : null;
  const failure = save.error && !fieldError ? actionFailure(save.error) : null;
  const trimmed = text.replace(/\s+/g, ' ').trim();
  const changed = trimmed !== (campaign ?? '');
  return (
    <form
      className="stack campaign-field"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        if (changed && !save.isPending) save.mutate(trimmed === '' ? null : trimmed);
      }}
    >
      <h2 id={`${id}-title`} className="card__title">
        Campaign
      </h2>
      <div className="field">
        <label htmlFor={`${id}-name`} className="field__label">
          Campaign name
        </label>
        <p id={`${id}-hint`} className="field__hint">
          Designs with the same campaign are counted together on the campaign&apos;s analytics.
        </p>
        <div className="campaign-field__row">
          <input
            id={`${id}-name`}
            className="input"
            list={`${id}-known`}
            maxLength={MAX_CAMPAIGN_LENGTH + 20}
            value={text}
            placeholder="For example: Spring sale"
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${id}-hint ${id}-error` : `${id}-hint`}
            onFocus={() => setUsed(true)}
            onChange={(e) => {
              setText(e.target.value);
              if (save.isError) save.reset();
            }}
          />
          <button type="submit" className="button button--small" disabled={!changed}>
            {save.isPending && <Spinner />}
            Save campaign
          </button>
          {campaign !== null && (
            <button
              type="button"
              className="button button--small button--secondary"
              disabled={save.isPending}
              onClick={() => save.mutate(null)}
            >
              Remove from campaign
            </button>
          )}
        </div>
        <datalist id={`${id}-known`}>
          {(known.data?.campaigns ?? []).map((c) => (
            <option key={c.name} value={c.name} />
          ))}
        </datalist>
        {fieldError && (
          <p id={`${id}-error`} className="field__error" role="alert">
            ! {fieldError}
          </p>
        )}
      </div>
      {failure && (
        <p className="field__error" role="alert">
          ! {failure}
        </p>
      )}
      {save.isSuccess && !save.isPending && (
        <p className="muted small" role="status">
          {save.data.campaign ? `Saved: in ${save.data.campaign}.` : 'Saved: in no campaign.'}
        </p>
      )}
      {campaign !== null && (
        <p className="small">
          <Link to={campaignPath(campaign)}>Analytics of the campaign {campaign}</Link>
        </p>
      )}
    </form>
  );
}
