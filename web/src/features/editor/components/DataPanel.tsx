/**
 * The data panel (docs/editor.md "Data sources"; docs/data-sources.md "Binding a design"): the
 * design's data bindings, a form that binds a team data store (the store, the render URL's key
 * parameter, and which design parameter each column fills, beside a sample record of the store)
 * or a web API (DataApiBinding.tsx), and a remove button per binding. Every change is one undoable
 * step (`setDataBindings`) and is saved with the design. The store routes are for the team's owner
 * and admins: a plain member sees the bindings and a message instead of the form.
 */
import { Link } from 'react-router-dom';
import { useId, useState } from 'react';
import { DATA_BINDING_BOUNDS, type DataBinding } from '#shared/data-bindings.ts';
import { Notice } from '../../../components/Notice.tsx';
import { useAppStore } from '../../../state/store.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { runCommand } from '../commands.ts';
import { DataBindingsError } from '../commands/data.ts';
import {
  fetchStoreSample,
  listDataStores,
  listWebApis,
  type DataRecord,
  type DataStore,
} from '../dataSourcesApi.ts';
import { AddBindingForm, ParamField, ParamMap } from './AddBindingForm.tsx';
import { AddApiBinding } from './DataApiBinding.tsx';
import { useLoad } from './useDataLoad.ts';
import '../data.css';

/**
 * Shown while a design binds data but does not require signed URLs (docs/data-sources.md
 * "Security"): the render URL is public, so its key or values are whatever a caller writes.
 */
export const UNSIGNED_BINDINGS_WARNING =
  'Anyone who has this image’s URL can change its values, and so look up any record these sources hold for another key. Require signed URLs on the Export screen so that only URLs you signed look data up.';

/** Shown to a member who may not read the team's data sources. */
export const NOT_MANAGER_MESSAGE = 'Ask a team owner or admin to connect data sources.';

/** The design's parameter names: text parameters and dynamic stickers' parameters. */
export function useDesignParams(): string[] {
  const snippets = useEditor((s) => s.design?.text_snippets) ?? [];
  const stickers = useEditor((s) => s.design?.graphics_data) ?? [];
  const names = [
    ...snippets.flatMap((s) => s.parameters.map((p) => p.param_name)),
    ...stickers.flatMap((s) => (s.dynamicStickerParamName ? [s.dynamicStickerParamName] : [])),
  ];
  return [...new Set(names)].sort();
}

/** A record's fields as a small labelled table. */
function SampleRecord({ record, caption }: { record: DataRecord; caption: string }) {
  return (
    <table className="data-panel__sample">
      <caption>{caption}</caption>
      <tbody>
        {Object.entries(record.fields).map(([column, value]) => (
          <tr key={column}>
            <th scope="row">{column}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The form that binds one store: its key parameter and which parameter each column fills. */
function AddStoreBinding({
  teamId,
  stores,
  params,
  onAdd,
}: {
  teamId: string;
  stores: DataStore[];
  params: string[];
  onAdd: (binding: DataBinding) => string | null;
}) {
  const id = useId();
  const [storeId, setStoreId] = useState(stores[0]?.id ?? '');
  const [keyParam, setKeyParam] = useState('');
  const [map, setMap] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const sample = useLoad(storeId ? `${teamId}/${storeId}` : null, (signal) =>
    fetchStoreSample(teamId, storeId, signal),
  );
  const store = stores.find((s) => s.id === storeId);
  const keyShown = keyParam || (store?.key_column.toLowerCase() ?? '');

  const add = () => {
    const fields = Object.entries(map)
      .filter(([, param]) => param !== '')
      .map(([field, param]) => ({ field, param }));
    if (!keyShown.trim()) return setProblem('Name the URL parameter that holds the key.');
    if (fields.length === 0) return setProblem('Choose a parameter for at least one column.');
    const result = onAdd({
      source: 'store',
      source_id: storeId,
      key_param: keyShown.trim(),
      fields,
    });
    setProblem(result);
    if (result === null) setMap({});
  };

  return (
    <AddBindingForm
      id={id}
      source="store"
      value={storeId}
      sources={stores.map((s) => ({ id: s.id, label: `${s.name} (${s.rows} rows)` }))}
      onSourceChange={(next) => {
        setStoreId(next);
        setKeyParam('');
        setMap({});
      }}
      problem={problem}
      canAdd={store !== undefined}
      onAdd={add}
    >
      <div className="field">
        <label htmlFor={`${id}-key`} className="field__label">
          Key parameter
        </label>
        <p id={`${id}-key-hint`} className="field__hint">
          The render URL&apos;s value of this parameter is looked up in the column{' '}
          {store?.key_column ?? ''}.
        </p>
        <input
          id={`${id}-key`}
          className="input"
          value={keyShown}
          aria-describedby={`${id}-key-hint`}
          onChange={(e) => setKeyParam(e.target.value)}
        />
      </div>
      {sample.status === 'loading' && <p role="status">Loading the sample record…</p>}
      {sample.status === 'error' && (
        <p className="field__error" role="alert">
          ! {sample.message}
        </p>
      )}
      {sample.status === 'ready' &&
        (sample.value.sample[0] ? (
          <SampleRecord
            record={sample.value.sample[0]}
            caption={`Sample record (${sample.value.store.key_column} ${sample.value.sample[0].key})`}
          />
        ) : (
          <p>This store has no records yet.</p>
        ))}
      {store && (
        <ParamMap legend="Fill parameters from columns" params={params}>
          {store.columns.map((column) => (
            <ParamField
              key={column}
              id={`${id}-col-${column}`}
              label={`Column ${column}`}
              value={map[column] ?? ''}
              params={params}
              onChange={(param) => setMap({ ...map, [column]: param })}
            />
          ))}
        </ParamMap>
      )}
    </AddBindingForm>
  );
}

/** How a binding's URL placeholders are filled, in words (an API binding's `url_values`). */
const urlValueText = (v: NonNullable<DataBinding['url_values']>[number]) =>
  v.param === '' ? `{${v.name}} = ${v.value}` : `{${v.name}} ← URL parameter ${v.param}`;

/**
 * The panel: the bindings with their remove buttons, then a choice of data store or web API and
 * its add form (or the loading, empty, error or not-a-manager state of the team's sources).
 */
export function DataPanel() {
  const id = useId();
  const { store } = useEditorContext();
  const bindings = useEditor((s) => s.design?.data_bindings) ?? [];
  const signedOnly = useEditor((s) => s.design?.require_signed_urls) === true;
  const teamId = useAppStore((s) => s.user?.current_team_id ?? null);
  const params = useDesignParams();
  const [problem, setProblem] = useState<string | null>(null);
  const [kind, setKind] = useState<'store' | 'api'>('store');
  const stores = useLoad(teamId, (signal) => listDataStores(teamId!, signal));
  const apis = useLoad(teamId, (signal) => listWebApis(teamId!, signal));
  const knownStores = stores.status === 'ready' ? stores.value : [];
  const knownApis = apis.status === 'ready' ? apis.value : [];

  const change = (next: DataBinding[]): string | null => {
    try {
      runCommand(store, 'setDataBindings', { bindings: next });
      setProblem(null);
      return null;
    } catch (error) {
      if (!(error instanceof DataBindingsError)) throw error;
      setProblem(error.message);
      return error.message;
    }
  };
  const nameOf = (b: DataBinding) =>
    b.source === 'api'
      ? (knownApis.find((a) => a.id === b.source_id)?.name ?? 'Web API')
      : (knownStores.find((s) => s.id === b.source_id)?.name ?? 'Data store');
  const add = (binding: DataBinding) => change([...bindings, binding]);
  const sources = kind === 'store' ? stores : apis;

  return (
    <div className="data-panel stack">
      <p className="field__hint">
        Fill the design&apos;s parameters from a record of a team data store or a web API, looked up
        when the image is opened.
      </p>
      {bindings.length === 0 ? (
        <p>No data sources yet: the parameters take the URL&apos;s values.</p>
      ) : (
        <ul className="data-panel__list stack" aria-label="Data bindings">
          {bindings.map((b, i) => (
            <li key={`${b.source_id}-${i}`} className="data-panel__binding">
              <p>
                <strong>{nameOf(b)}</strong>
                {b.source === 'store' && <> by URL parameter {b.key_param}</>}
              </p>
              <ul>
                {(b.source === 'api' ? (b.url_values ?? []) : []).map((v) => (
                  <li key={`url-${v.name}`}>{urlValueText(v)}</li>
                ))}
                {b.fields.map((f) => (
                  <li key={`${f.field}-${f.param}`}>
                    {f.field} → {f.param}
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className="button button--secondary"
                aria-label={`Remove binding to ${nameOf(b)}`}
                onClick={() => change(bindings.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {bindings.length > 0 && !signedOnly && (
        <Notice tone="info" title="Lookups from an unsigned URL">
          {UNSIGNED_BINDINGS_WARNING}
        </Notice>
      )}
      {problem && (
        <p className="field__error" role="alert">
          ! {problem}
        </p>
      )}
      {teamId === null || stores.status === 'forbidden' || apis.status === 'forbidden' ? (
        <p role="note">{NOT_MANAGER_MESSAGE}</p>
      ) : bindings.length >= DATA_BINDING_BOUNDS.bindings ? (
        <p>A design takes at most {DATA_BINDING_BOUNDS.bindings} data sources.</p>
      ) : (
        <>
          <fieldset className="data-panel__kind">
            <legend className="field__label">Add from</legend>
            {(
              [
                ['store', 'A data store'],
                ['api', 'A web API'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} htmlFor={`${id}-kind-${value}`}>
                <input
                  id={`${id}-kind-${value}`}
                  type="radio"
                  name={`${id}-kind`}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          {sources.status === 'loading' || sources.status === 'forbidden' ? (
            <p role="status">
              Loading the team&apos;s {kind === 'store' ? 'data stores' : 'web APIs'}…
            </p>
          ) : sources.status === 'error' ? (
            <p className="field__error" role="alert">
              ! {sources.message}
            </p>
          ) : kind === 'store' ? (
            knownStores.length === 0 ? (
              <p>
                The team has no data stores yet.{' '}
                <Link to={`/settings/companies/${encodeURIComponent(teamId)}#/data`}>
                  Upload a table in the company settings (Data)
                </Link>
                .
              </p>
            ) : (
              <AddStoreBinding teamId={teamId} stores={knownStores} params={params} onAdd={add} />
            )
          ) : knownApis.length === 0 ? (
            <p>
              The team has no web APIs yet. Web APIs are added with the developer API (
              <Link to={`/settings/companies/${encodeURIComponent(teamId)}#/data`}>
                company settings, Data
              </Link>
              ).
            </p>
          ) : (
            <AddApiBinding teamId={teamId} apis={knownApis} params={params} onAdd={add} />
          )}
        </>
      )}
    </div>
  );
}
