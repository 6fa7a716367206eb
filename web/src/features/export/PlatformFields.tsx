import { useController } from 'react-hook-form';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import type { Provider } from '#shared/providers/index.ts';
import type { StoreFront } from './api.ts';
import { platformOptions } from './model.ts';
import { SaveStatus } from './SaveStatus.tsx';
import type { ExportChoices } from './useExportChoices.ts';
import type { ExportFormState } from './useExportForm.ts';
import { keapWindowUrl, type Tags } from './useMergeTags.ts';

/**
 * The export screen's platform part (docs/export.md "The screen"): the platform (saved at once),
 * Klaviyo's store front, the optional API key that lists the account's own fields, and how the
 * platform's merge tags stand (loading, refused, or the standard fields offline).
 */
export function PlatformFields({
  idBase,
  designId,
  platform,
  choices,
  exportForm,
  storeFronts,
  tags,
  pdf,
  onPlatform,
  onStorefront,
  onLoadFields,
  fromTeam = false,
}: {
  idBase: string;
  designId: string;
  platform: Provider;
  choices: ExportChoices;
  exportForm: ExportFormState;
  storeFronts: readonly StoreFront[];
  tags: Tags;
  /** PDF is on: the platforms that show an image are not offered. */
  pdf: boolean;
  onPlatform: (value: string) => void;
  onStorefront: (value: string) => void;
  /** Loads the fields with the typed API key. */
  onLoadFields: (token: string) => void;
  /** The platform shown is the team's last, taken by a design never exported. */
  fromTeam?: boolean;
}) {
  const { ref: keyRef, ...key } = useController({
    control: exportForm.form.control,
    name: 'accessToken',
  }).field;
  const connection = platform.connection;
  const showKey = connection === 'api_key' || connection === 'page_api_key';
  const offline = tags.state === 'ready' && tags.list.connection_needed;

  return (
    <>
      <div className="field">
        <label htmlFor={`${idBase}-platform`} className="field__label">
          Platform
        </label>
        <select
          id={`${idBase}-platform`}
          className="input input--select"
          value={choices.provider}
          onChange={(event) => onPlatform(event.target.value)}
          aria-describedby={fromTeam ? `${idBase}-platform-hint` : undefined}
        >
          {platformOptions(pdf).map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        {fromTeam && (
          <p id={`${idBase}-platform-hint`} className="field__hint">
            Your team's last platform. Values whose names match its fields are filled in.
          </p>
        )}
        <SaveStatus save={choices.providerSave} what="platform" />
      </div>

      {choices.provider === 'klaviyo' && (
        <div className="field">
          <label htmlFor={`${idBase}-storefront`} className="field__label">
            Store front
          </label>
          <select
            id={`${idBase}-storefront`}
            className="input input--select"
            value={choices.storefront}
            onChange={(event) => onStorefront(event.target.value)}
          >
            <option value="">None</option>
            {storeFronts.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      )}

      {showKey && (
        <div className="field">
          <label htmlFor={`${idBase}-key`} className="field__label">
            {connection === 'api_key'
              ? `${platform.label} private API key`
              : `${platform.label} page API key`}
            <span className="field__optional"> (optional)</span>
          </label>
          <p id={`${idBase}-key-hint`} className="field__hint">
            With a key, your account&apos;s own fields are listed too. It is stored encrypted for
            your team.
          </p>
          <div className="copy-field">
            <input
              ref={keyRef}
              id={`${idBase}-key`}
              className="input input--mono"
              type="password"
              autoComplete="off"
              value={key.value}
              aria-describedby={`${idBase}-key-hint`}
              aria-invalid={
                tags.state === 'error' && tags.field === 'access_token' ? true : undefined
              }
              onChange={(event) => key.onChange(event.target.value)}
              onBlur={key.onBlur}
            />
            <button
              type="button"
              className="button button--secondary"
              disabled={key.value.trim() === '' || tags.state === 'loading'}
              onClick={() => onLoadFields(key.value.trim())}
            >
              Load fields
            </button>
          </div>
        </div>
      )}

      {tags.state === 'loading' && (
        <p className="muted small" role="status">
          <Spinner /> Loading {platform.label}&apos;s fields…
        </p>
      )}
      {tags.state === 'error' && (
        <Notice tone="error" title={`${platform.label}'s fields`}>
          {tags.message}
        </Notice>
      )}
      {offline && tags.state === 'ready' && (
        <Notice tone="info" title={`${platform.label}'s standard fields`}>
          {tags.list.message ?? `Live fields need a connection to ${platform.label}.`}{' '}
          {platform.value === 'infusionsoft' && !tags.list.authorize_url
            ? 'Keap is not connected on this installation; its standard fields are offered below.'
            : 'The standard fields are offered below, and any value may be typed.'}
          {platform.value === 'infusionsoft' && tags.list.authorize_url && (
            <>
              {' '}
              <a
                href={keapWindowUrl(tags.list.authorize_url, designId)}
                target="keap-authorisation"
                rel="opener"
              >
                Connect Keap
              </a>
            </>
          )}
        </Notice>
      )}
    </>
  );
}
