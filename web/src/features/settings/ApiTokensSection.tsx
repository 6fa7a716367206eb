import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  createToken,
  deleteToken,
  fetchAbilities,
  fetchTokens,
  updateToken,
  type Ability,
  type ApiToken,
} from '../../api/settings.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { FieldError, TextField } from '../../components/TextField.tsx';
import { loadFailure, STALE_TIME } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { LoadedList } from './LoadedList.tsx';
import { ActionNotice, type ActionMessage } from './ActionNotice.tsx';
import { CopyField } from '../playground/CopyField.tsx';
import { actionFailure, formFailure } from './formFailure.ts';
import { SubmitButton, focusFirstInvalid } from './ProfileTab.tsx';

/** API tokens (spec 001 §7 "Security and tokens"): list, create, edit, delete. */
export function ApiTokensSection() {
  const base = useId();
  const queryClient = useQueryClient();
  const abilities = useQuery({
    queryKey: queryKeys.reference.abilities,
    queryFn: ({ signal }) => fetchAbilities(signal),
    staleTime: STALE_TIME.reference,
  });
  const tokens = useQuery({
    queryKey: queryKeys.tokens,
    queryFn: ({ signal }) => fetchTokens(signal),
  });
  const reloadTokens = () => void queryClient.invalidateQueries({ queryKey: queryKeys.tokens });
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [deleting, setDeleting] = useState<ApiToken | null>(null);
  const [listMessage, setListMessage] = useState<ActionMessage>();
  const remove = useMutation({
    mutationFn: (token: ApiToken) => deleteToken(token.id),
    onSuccess: (_answer, token) => {
      // The row and its Delete button go: focus moves to the outcome.
      setListMessage({
        tone: 'success',
        text: `The token “${token.name}” was deleted.`,
        focus: true,
      });
      queryClient.setQueryData<ApiToken[]>(queryKeys.tokens, (list) =>
        list?.filter((t) => t.id !== token.id),
      );
      reloadTokens();
    },
    onError: (error) => setListMessage({ tone: 'error', text: actionFailure(error) }),
    onSettled: () => setDeleting(null),
  });

  function confirmDelete() {
    if (deleting && !remove.isPending) remove.mutate(deleting);
  }

  return (
    <section className="settings-section" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        API tokens
      </h2>
      <div className="stack">
        <p className="muted">Tokens let other programs use the PicSnippets API as you.</p>
        {created ? (
          <NewToken name={created.name} token={created.token} onDone={() => setCreated(null)} />
        ) : (
          abilities.status === 'success' && (
            <CreateTokenForm
              abilities={abilities.data}
              onCreated={(name, token) => {
                setCreated({ name, token });
                setListMessage(undefined);
                reloadTokens();
              }}
            />
          )
        )}
        {abilities.status === 'error' && (
          <Notice tone="error">{loadFailure(abilities.error)}</Notice>
        )}
        <h3 id={`${base}-tokens`} className="settings-subtitle">
          Your tokens
        </h3>
        <ActionNotice message={listMessage} />
        <LoadedList
          query={tokens}
          loadingText="Loading tokens…"
          emptyText="You have no API tokens yet."
          labelledBy={`${base}-tokens`}
          testId="token-list"
        >
          {(token) => (
            <TokenRow
              key={token.id}
              token={token}
              abilities={abilities.data ?? []}
              onSaved={reloadTokens}
              onDelete={() => setDeleting(token)}
            />
          )}
        </LoadedList>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this API token?"
        confirmLabel="Delete token"
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        <p>
          Programs using “{deleting?.name}” will no longer be able to reach the API. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * The new token, shown once (it cannot be read again). Takes focus when it appears so keyboard
 * and screen-reader users land on it; "I have stored it" brings the create form back.
 */
function NewToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="focus-target">
      <Notice tone="success" title={`Token “${name}” created`}>
        <div className="stack">
          <p>
            Copy it now: this is the only time it is shown. Store it somewhere safe; anyone with it
            can use your account through the API.
          </p>
          <CopyField label="New API token" value={token} what="token" testId="new-token" />
          <div>
            <button type="button" className="button button--small" onClick={onDone}>
              I have stored it
            </button>
          </div>
        </div>
      </Notice>
    </div>
  );
}

type TokenField = 'name' | 'abilities' | 'expires_in_days';

/** The expiry choices (the server's `TOKEN_LIFETIMES_DAYS`); '' = never. */
const EXPIRY_CHOICES: ReadonlyArray<{ value: string; text: string }> = [
  { value: '', text: 'Never (until deleted)' },
  { value: '7', text: 'In 7 days' },
  { value: '30', text: 'In 30 days' },
  { value: '90', text: 'In 90 days' },
  { value: '365', text: 'In a year' },
];

function CreateTokenForm({
  abilities,
  onCreated,
}: {
  abilities: Ability[];
  onCreated: (name: string, token: string) => void;
}) {
  const base = useId();
  const defaults = abilities.filter((a) => a.default).map((a) => a.value);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>(defaults);
  const [expiry, setExpiry] = useState('');
  const [errors, setErrors] = useState<Partial<Record<TokenField, string[]>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setMessage(null);
    if (name.trim() === '') {
      setErrors({ name: ['Enter a name for the token.'] });
      focusFirstInvalid(base);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const answer = await createToken({
        name: name.trim(),
        abilities: chosen,
        expires_in_days: expiry === '' ? null : Number(expiry),
      });
      onCreated(name.trim(), answer.token);
      setName('');
      setChosen(defaults);
      setExpiry('');
    } catch (error) {
      const failure = formFailure(error, ['name', 'abilities', 'expires_in_days'] as const);
      setErrors(failure.fields);
      setMessage(failure.message);
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  return (
    <form id={base} className="stack subcard" noValidate onSubmit={(e) => void submit(e)}>
      <h3 className="settings-subtitle">Create a token</h3>
      {message && <Notice tone="error">{message}</Notice>}
      <TextField
        id={`${base}-name`}
        label="Token name"
        name="token_name"
        autoComplete="off"
        hint="Say what uses it, e.g. “Shop sync”."
        value={name}
        errors={errors.name}
        onChange={setName}
      />
      <AbilityChoices
        idBase={base}
        abilities={abilities}
        chosen={chosen}
        errors={errors.abilities}
        onChange={setChosen}
      />
      <div className="field">
        <label htmlFor={`${base}-expiry`} className="field__label">
          Expires
        </label>
        <select
          id={`${base}-expiry`}
          name="expires_in_days"
          className="input input--select"
          value={expiry}
          aria-invalid={errors.expires_in_days ? true : undefined}
          aria-describedby={errors.expires_in_days ? `${base}-expiry-error` : undefined}
          onChange={(event) => setExpiry(event.target.value)}
        >
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.text}
            </option>
          ))}
        </select>
        {errors.expires_in_days && (
          <FieldError id={`${base}-expiry-error`} errors={errors.expires_in_days} />
        )}
      </div>
      <SubmitButton pending={pending} label="Create token" busyLabel="Creating…" />
    </form>
  );
}

function AbilityChoices({
  idBase,
  abilities,
  chosen,
  errors,
  onChange,
}: {
  idBase: string;
  abilities: Ability[];
  chosen: string[];
  errors: string[] | undefined;
  onChange: (chosen: string[]) => void;
}) {
  return (
    <fieldset
      className="fieldset"
      aria-describedby={errors ? `${idBase}-abilities-error` : undefined}
    >
      <legend className="field__label">Abilities</legend>
      <div className="checkbox-row">
        {abilities.map((ability) => (
          <div className="checkbox" key={ability.value}>
            <input
              id={`${idBase}-ability-${ability.value}`}
              type="checkbox"
              name="abilities"
              value={ability.value}
              checked={chosen.includes(ability.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, ability.value]
                    : chosen.filter((v) => v !== ability.value),
                )
              }
            />
            <label htmlFor={`${idBase}-ability-${ability.value}`}>{ability.text}</label>
          </div>
        ))}
      </div>
      {errors && <FieldError id={`${idBase}-abilities-error`} errors={errors} />}
    </fieldset>
  );
}

function TokenRow({
  token,
  abilities,
  onSaved,
  onDelete,
}: {
  token: ApiToken;
  abilities: Ability[];
  onSaved: () => void;
  onDelete: () => void;
}) {
  const base = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(token.name);
  const [chosen, setChosen] = useState<string[]>(token.metadata?.abilities ?? []);
  const [errors, setErrors] = useState<Partial<Record<TokenField, string[]>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const labels = (token.metadata?.abilities ?? []).map(
    (v) => abilities.find((a) => a.value === v)?.text ?? v,
  );

  async function save(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setMessage(null);
    setErrors({});
    setPending(true);
    try {
      await updateToken(token.id, { name: name.trim(), abilities: chosen });
      setEditing(false);
      onSaved();
    } catch (error) {
      const failure = formFailure(error, ['name', 'abilities'] as const);
      setErrors(failure.fields);
      setMessage(failure.message);
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  if (editing) {
    return (
      <li className="item-list__item">
        <form id={base} className="stack" noValidate onSubmit={(e) => void save(e)}>
          {message && <Notice tone="error">{message}</Notice>}
          <TextField
            id={`${base}-name`}
            label="Token name"
            name="token_name"
            autoComplete="off"
            value={name}
            errors={errors.name}
            onChange={setName}
          />
          <AbilityChoices
            idBase={base}
            abilities={abilities}
            chosen={chosen}
            errors={errors.abilities}
            onChange={setChosen}
          />
          <div className="item-list__actions">
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => {
                setEditing(false);
                setName(token.name);
                setChosen(token.metadata?.abilities ?? []);
                setErrors({});
                setMessage(null);
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button button--small" aria-disabled={pending}>
              {pending ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      </li>
    );
  }

  return (
    <li className="item-list__item">
      <div className="item-list__main">
        <p className="item-list__name">{token.name}</p>
        <p className="muted item-list__meta">
          {labels.length > 0 ? labels.join(', ') : 'No abilities'}
          {' · '}
          {token.last_used_at ? `Last used ${formatDate(token.last_used_at)}` : 'Never used'}
          {' · '}
          {token.expires_at ? `Expires ${formatDate(token.expires_at)}` : 'Does not expire'}
        </p>
      </div>
      <div className="item-list__actions">
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => setEditing(true)}
        >
          Edit<span className="visually-hidden"> {token.name}</span>
        </button>
        <button type="button" className="button button--small button--danger" onClick={onDelete}>
          Delete<span className="visually-hidden"> {token.name}</span>
        </button>
      </div>
    </li>
  );
}

export function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
