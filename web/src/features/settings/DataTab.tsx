import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import {
  DATA_SOURCE_MESSAGES,
  type DataStore,
  type StoreUploadSchema,
} from '#shared/contract/data-sources.ts';
import type { z } from 'zod';
import { apiUpload, call, isApiError, type UploadProgress } from '../../api/client.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { TextField } from '../../components/TextField.tsx';
import { queryKeys } from '../../state/queryKeys.ts';
import { formatDate } from './ApiTokensSection.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { formatCount } from '../../lib/format.ts';

type StoreUpload = z.output<typeof StoreUploadSchema>;

const storesKey = (teamId: string) => [...queryKeys.teams.one(teamId), 'data-stores'] as const;
const apisKey = (teamId: string) => [...queryKeys.teams.one(teamId), 'web-apis'] as const;

/** The files a data store takes (docs/data-sources.md "Data stores"). */
const ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** "12 rows read: 10 added, 2 updated" and what was cut or skipped. */
export function uploadSummary(report: StoreUpload['report']): string {
  const parts = [
    `${formatCount(report.rows)} ${report.rows === 1 ? 'row' : 'rows'} read: ${report.added} added, ${report.updated} updated`,
  ];
  if (report.cut_values > 0) parts.push(`${report.cut_values} values cut to 255 characters`);
  if (report.skipped_empty_rows > 0) parts.push(`${report.skipped_empty_rows} empty rows skipped`);
  return `${parts.join('; ')}.`;
}

/**
 * Team settings → Data (docs/data-sources.md "In the settings"): the team's data stores (upload a
 * CSV or XLSX table as a new store with its key column, upload a store again to add and update
 * records, delete one) and its web APIs (listed, deleted; made with the API). Owners and admins
 * manage them; the editor's Data panel binds a design to them. Tests: ./DataTab.test.tsx.
 */
export function DataTab({ teamId, canManage }: { teamId: string; canManage: boolean }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [deleting, setDeleting] = useState<DataStore | null>(null);
  const stores = useQuery({
    queryKey: storesKey(teamId),
    queryFn: ({ signal }) =>
      call('GET /settings/companies/{id}/data-stores', { params: { id: teamId }, signal }),
    enabled: canManage,
  });
  const apis = useQuery({
    queryKey: apisKey(teamId),
    queryFn: ({ signal }) =>
      call('GET /settings/companies/{id}/web-apis', { params: { id: teamId }, signal }),
    enabled: canManage,
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: storesKey(teamId) });

  if (!canManage)
    return (
      <p className="muted">Only the company&apos;s owner and admins manage its data sources.</p>
    );

  const remove = async (store: DataStore) => {
    try {
      await call('DELETE /settings/companies/{id}/data-stores/{storeId}', {
        params: { id: teamId, storeId: store.id },
      });
      setMessage({ tone: 'success', text: `The data store “${store.name}” was deleted.` });
      reload();
    } catch (error) {
      setMessage({ tone: 'error', text: actionFailure(error) });
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className="stack-lg">
      <section className="card stack" aria-labelledby="data-stores-title">
        <h2 id="data-stores-title">Data stores</h2>
        <p className="muted">
          A table of your own (CSV or XLSX) with a key column: a design&apos;s Data panel fills its
          parameters from the record whose key a recipient&apos;s URL names.
        </p>
        {message && (
          <Notice tone={message.tone}>
            <span>{message.text}</span>
          </Notice>
        )}
        {stores.isPending ? (
          <p role="status" className="muted">
            <Spinner /> Loading the data stores…
          </p>
        ) : stores.isError ? (
          <Notice tone="error">{actionFailure(stores.error)}</Notice>
        ) : stores.data.stores.length === 0 ? (
          <p className="muted">No data stores yet: upload the first table below.</p>
        ) : (
          <ul className="data-stores" aria-label="Data stores">
            {stores.data.stores.map((store) => (
              <StoreRow
                key={store.id}
                teamId={teamId}
                store={store}
                onUploaded={(text) => {
                  setMessage({ tone: 'success', text });
                  reload();
                }}
                onDelete={() => setDeleting(store)}
              />
            ))}
          </ul>
        )}
        <NewStoreForm
          teamId={teamId}
          onCreated={(text) => {
            setMessage({ tone: 'success', text });
            reload();
          }}
        />
      </section>
      <section className="card stack" aria-labelledby="web-apis-title">
        <h2 id="web-apis-title">Web APIs</h2>
        {apis.isPending ? (
          <p role="status" className="muted">
            <Spinner /> Loading the web APIs…
          </p>
        ) : apis.isError ? (
          <Notice tone="error">{actionFailure(apis.error)}</Notice>
        ) : apis.data.apis.length === 0 ? (
          <p className="muted">No web APIs yet.</p>
        ) : (
          <ul aria-label="Web APIs">
            {apis.data.apis.map((api) => (
              <li key={api.id}>
                <strong>{api.name}</strong> <code>{api.url}</code>
              </li>
            ))}
          </ul>
        )}
        <p className="muted">
          Web APIs are added with the developer API:{' '}
          <code>POST /settings/companies/{'{id}'}/web-apis</code> (see the{' '}
          <a href="/api/docs">API reference</a>).
        </p>
      </section>
      {deleting && (
        <ConfirmDialog
          open
          title={`Delete the data store “${deleting.name}”?`}
          confirmLabel="Delete data store"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          Designs bound to it show their fallbacks from then on.
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A store with its size and the upload-again and delete actions. */
function StoreRow({
  teamId,
  store,
  onUploaded,
  onDelete,
}: {
  teamId: string;
  store: DataStore;
  onUploaded: (text: string) => void;
  onDelete: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const upload = async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    setFailure(null);
    setProgress(0);
    try {
      const answer = await apiUpload<StoreUpload>(
        `/settings/companies/${encodeURIComponent(teamId)}/data-stores/${encodeURIComponent(store.id)}/upload`,
        form,
        (p: UploadProgress) =>
          setProgress(p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 0),
      );
      onUploaded(`“${store.name}” updated: ${uploadSummary(answer.report)}`);
    } catch (error) {
      setFailure(actionFailure(error));
    } finally {
      setProgress(null);
    }
  };
  return (
    <li className="data-store">
      <div>
        <strong>{store.name}</strong>
        <p className="muted">
          Key column <code>{store.key_column}</code> · {formatCount(store.rows)} of{' '}
          {formatCount(store.max_rows)} rows · updated {formatDate(store.updated_at)}
        </p>
        {failure && (
          <p className="field__error" role="alert">
            ! {failure}
          </p>
        )}
      </div>
      <div className="form-actions">
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          hidden
          aria-label={`A new file for ${store.name}`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
        <button
          type="button"
          className="button button--secondary button--small"
          disabled={progress !== null}
          onClick={() => input.current?.click()}
        >
          {progress !== null ? (
            <>
              <Spinner /> Uploading {progress}%
            </>
          ) : (
            <>
              Upload again<span className="visually-hidden"> {store.name}</span>
            </>
          )}
        </button>
        <button type="button" className="button button--secondary button--small" onClick={onDelete}>
          Delete<span className="visually-hidden"> {store.name}</span>
        </button>
      </div>
    </li>
  );
}

/** The new store's form: a name, the key column and the file, with field errors. */
function NewStoreForm({
  teamId,
  onCreated,
}: {
  teamId: string;
  onCreated: (text: string) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [keyColumn, setKeyColumn] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const local: Record<string, string[]> = {};
    if (name.trim() === '') local.name = ['The name is required.'];
    if (keyColumn.trim() === '') local.key_column = [DATA_SOURCE_MESSAGES.keyColumn];
    if (!file) local.file = ['Choose a CSV or XLSX file.'];
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0 || !file) return;
    const form = new FormData();
    form.append('name', name.trim());
    form.append('key_column', keyColumn.trim());
    form.append('file', file);
    setProgress(0);
    try {
      const answer = await apiUpload<StoreUpload>(
        `/settings/companies/${encodeURIComponent(teamId)}/data-stores`,
        form,
        (p: UploadProgress) =>
          setProgress(p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 0),
      );
      onCreated(`“${answer.store.name}” made: ${uploadSummary(answer.report)}`);
      setName('');
      setKeyColumn('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    } catch (error) {
      if (isApiError(error) && error.errors && Object.keys(error.errors).length > 0)
        setErrors(error.errors);
      setFailure(actionFailure(error));
    } finally {
      setProgress(null);
    }
  };

  const field = (name: string) =>
    errors[name]?.[0] ? (
      <p className="field__error" id={`${id}-${name}-error`} role="alert">
        ! {errors[name]![0]}
      </p>
    ) : null;
  const described = (name: string) => (errors[name] ? `${id}-${name}-error` : undefined);

  return (
    <form
      className="stack"
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h3 id={`${id}-title`}>Upload a new data store</h3>
      {failure && Object.keys(errors).length === 0 && <Notice tone="error">{failure}</Notice>}
      <TextField
        id={`${id}-name`}
        label="Name"
        name="name"
        autoComplete="off"
        value={name}
        errors={errors.name}
        onChange={setName}
      />
      <TextField
        id={`${id}-key`}
        label="Key column"
        name="key_column"
        autoComplete="off"
        hint="The header of the column whose values are unique, such as email or sku."
        value={keyColumn}
        errors={errors.key_column}
        onChange={setKeyColumn}
      />
      <div className="field">
        <label htmlFor={`${id}-file`} className="field__label">
          File (CSV or XLSX)
        </label>
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept={ACCEPT}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={described('file')}
        />
        {field('file')}
      </div>
      <div>
        <button type="submit" className="button" disabled={progress !== null}>
          {progress !== null ? (
            <>
              <Spinner /> Uploading {progress}%
            </>
          ) : (
            'Upload data store'
          )}
        </button>
      </div>
    </form>
  );
}
