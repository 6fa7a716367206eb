import { ImpersonationLock } from '../../components/ImpersonationLock.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useController, useForm, type Control, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { NewTokenBody, TokenBody } from '#shared/contract/auth.ts';
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
import { FormCheckboxGroup, FormMessage, FormTextField } from '../../components/FormFields.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import { loadFailure, STALE_TIME } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { LoadedList } from '../../components/LoadedList.tsx';
import { ActionNotice, type ActionMessage } from '../../components/ActionNotice.tsx';
import { ShownOnce } from './ShownOnce.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { SubmitButton } from './ProfileTab.tsx';
import { formatDay } from '../../lib/format.ts';

/** API tokens (docs/adr/0044-the-api-contract.md "The API contract": "Security and tokens"): list, create, edit, delete. */
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
      <ImpersonationLock>
        <div className="stack">
          <p className="muted">Tokens let other programs use the PicSnippets API as you.</p>
          {created ? (
            <ShownOnce
              title={`Token “${created.name}” created`}
              label="New API token"
              value={created.token}
              what="token"
              testId="new-token"
              onDone={() => setCreated(null)}
            >
              Copy it now: this is the only time it is shown. Store it somewhere safe; anyone with
              it can use your account through the API.
            </ShownOnce>
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
      </ImpersonationLock>
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

/** The expiry choices (the server's `TOKEN_LIFETIMES_DAYS`); '' = never. */
const EXPIRY_CHOICES: ReadonlyArray<{ value: string; text: string }> = [
  { value: '', text: 'Never (until deleted)' },
  { value: '7', text: 'In 7 days' },
  { value: '30', text: 'In 30 days' },
  { value: '90', text: 'In 90 days' },
  { value: '365', text: 'In a year' },
];

/**
 * A new token's rules (`POST /settings/api/token`'s `NewTokenBody`): a name (an empty one says
 * what to enter), at least one ability, and an expiry the select gives as text ('' = never).
 */
const NewTokenSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name for the token.').pipe(TokenBody.shape.name),
  abilities: TokenBody.shape.abilities,
  expires_in_days: z
    .string()
    .transform((days) => (days === '' ? null : Number(days)))
    .pipe(NewTokenBody.shape.expires_in_days.unwrap()),
});
const NEW_TOKEN_FIELDS = ['name', 'abilities', 'expires_in_days'] as const;
const TOKEN_FIELDS = ['name', 'abilities'] as const;

/** The create form: a name, abilities (the defaults ticked) and an expiry. */
function CreateTokenForm({
  abilities,
  onCreated,
}: {
  abilities: Ability[];
  onCreated: (name: string, token: string) => void;
}) {
  const base = useId();
  const defaults: z.input<typeof NewTokenSchema> = {
    name: '',
    abilities: abilities.filter((a) => a.default).map((a) => a.value),
    expires_in_days: '',
  };
  const form = useForm<z.input<typeof NewTokenSchema>, unknown, z.output<typeof NewTokenSchema>>({
    resolver: zodResolver(NewTokenSchema),
    defaultValues: defaults,
  });
  const { control, setError, reset } = form;
  const {
    field: { ref: expiryRef, ...expiry },
    fieldState: { error: expiryProblem },
  } = useController({ control, name: 'expires_in_days' });
  const expiryError = expiryProblem?.message;

  const submit = submitWith(form, async (values) => {
    try {
      const answer = await createToken(values);
      onCreated(values.name, answer.token);
      reset(defaults);
    } catch (error) {
      applyServerErrors(setError, error, NEW_TOKEN_FIELDS);
    }
  });

  return (
    <form id={base} className="stack subcard" noValidate onSubmit={submit}>
      <h3 className="settings-subtitle">Create a token</h3>
      <FormMessage control={control} />
      <FormTextField
        control={control}
        field="name"
        id={`${base}-name`}
        label="Token name"
        name="token_name"
        autoComplete="off"
        hint="Say what uses it, e.g. “Shop sync”."
      />
      <AbilityChoices idBase={base} abilities={abilities} control={control} />
      <div className="field">
        <label htmlFor={`${base}-expiry`} className="field__label">
          Expires
        </label>
        <select
          ref={expiryRef}
          id={`${base}-expiry`}
          name="expires_in_days"
          className="input input--select"
          value={expiry.value}
          aria-invalid={expiryError ? true : undefined}
          aria-describedby={expiryError ? `${base}-expiry-error` : undefined}
          onChange={(event) => expiry.onChange(event.target.value)}
          onBlur={expiry.onBlur}
        >
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.text}
            </option>
          ))}
        </select>
        {expiryError && <FieldError id={`${base}-expiry-error`} errors={[expiryError]} />}
      </div>
      <SubmitButton
        pending={form.formState.isSubmitting}
        label="Create token"
        busyLabel="Creating…"
      />
    </form>
  );
}

/** The abilities of a token form, as checkboxes (`FormCheckboxGroup`). */
function AbilityChoices<T extends { abilities: Ability['value'][] }, O extends FieldValues>({
  idBase,
  abilities,
  control,
}: {
  idBase: string;
  abilities: Ability[];
  control: Control<T, unknown, O>;
}) {
  return (
    <FormCheckboxGroup
      control={control}
      field={'abilities' as Path<T>}
      idBase={idBase}
      legend="Abilities"
      options={abilities}
    />
  );
}

/** A token in the list: its abilities and dates, Edit (name and abilities) and Delete. */
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
  const saved: z.input<typeof TokenBody> = {
    name: token.name,
    abilities: (token.metadata?.abilities ?? []).filter((v): v is Ability['value'] =>
      abilities.some((a) => a.value === v),
    ),
  };
  const form = useForm<z.input<typeof TokenBody>, unknown, z.output<typeof TokenBody>>({
    resolver: zodResolver(TokenBody),
    defaultValues: saved,
  });
  const { control, setError, reset } = form;
  const pending = form.formState.isSubmitting;
  const labels = (token.metadata?.abilities ?? []).map(
    (v) => abilities.find((a) => a.value === v)?.text ?? v,
  );

  const save = submitWith(form, async (values) => {
    try {
      await updateToken(token.id, values);
      setEditing(false);
      onSaved();
    } catch (error) {
      applyServerErrors(setError, error, TOKEN_FIELDS);
    }
  });

  if (editing) {
    return (
      <li className="item-list__item">
        <form id={base} className="stack" noValidate onSubmit={save}>
          <FormMessage control={control} />
          <FormTextField
            control={control}
            field="name"
            id={`${base}-name`}
            label="Token name"
            name="token_name"
            autoComplete="off"
          />
          <AbilityChoices idBase={base} abilities={abilities} control={control} />
          <div className="item-list__actions">
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => {
                setEditing(false);
                reset(saved);
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
          onClick={() => {
            reset(saved);
            setEditing(true);
          }}
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

/** A date of the token list, in the reader's locale (the text as given when it is no date). */
export function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDay(date);
}
