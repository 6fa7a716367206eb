/**
 * The data panel's web-API form (docs/editor.md "Data sources"; docs/data-sources.md "Binding a
 * design", "Web APIs", "Field paths"): choose one of the team's web APIs, say what fills each
 * `{name}` of its URL (one of the design's parameters, the URL parameter of that name, or a
 * fixed value), map paths of its JSON answer to the design's parameters, and see a sample record:
 * a test fetch the server makes now through its SSRF guard with a sample value for each
 * placeholder (the parameter's fallback unless typed), with its loading, failure ("the API
 * answered 500", "timed out", "the address was refused") and empty states. "Add binding" hands
 * the binding to the panel, which makes it one undoable change.
 */
import { useId, useMemo, useState } from 'react';
import type { DataBinding, UrlValue } from '#shared/data-bindings.ts';
import { DATA_BINDING_BOUNDS } from '#shared/data-bindings.ts';
import { parsePath } from '#shared/data-path.ts';
import { useEditor } from '../EditorContext.tsx';
import { testProblem, testWebApi, type ApiTest, type WebApi } from '../dataSourcesApi.ts';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { AddBindingForm, ParamField, ParamMap } from './AddBindingForm.tsx';
import { useLoad } from './useDataLoad.ts';

/** The select value of "a fixed value" (no parameter name can hold a NUL). */
const FIXED = '\u0000fixed';
/** How long typing rests before the sample is fetched again, ms. */
const SAMPLE_DEBOUNCE_MS = 700;

/** A URL template's placeholders, in order, each once (as the server reads them). */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([A-Za-z0-9_-]{1,64})\}/g)].map((m) => m[1]!))];
}

/** The fallback of each design parameter: a text parameter's default, a sticker's URL. */
function useParamDefaults(): Record<string, string> {
  const snippets = useEditor((s) => s.design?.text_snippets);
  const stickers = useEditor((s) => s.design?.graphics_data);
  return useMemo(() => {
    const defaults: Record<string, string> = {};
    for (const s of stickers ?? [])
      if (s.dynamicStickerParamName)
        defaults[s.dynamicStickerParamName] ??= (s.dynamicStickerUrl ?? '').trim();
    for (const s of snippets ?? [])
      for (const p of s.parameters) defaults[p.param_name] ??= p.param_default_value.trim();
    return defaults;
  }, [snippets, stickers]);
}

/** A path's problem, or null when it parses (the server's reader, shared/data-path.ts). */
function pathProblem(path: string): string | null {
  try {
    parsePath(path);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'This path does not parse.';
  }
}

interface FieldDraft {
  path: string;
  param: string;
}

/** One placeholder's row: what fills it, a fixed value or a sample value. */
function PlaceholderRow({
  idBase,
  name,
  params,
  choice,
  sample,
  onChoice,
  onSample,
}: {
  idBase: string;
  name: string;
  params: string[];
  choice: UrlValue;
  sample: string;
  onChoice: (next: UrlValue) => void;
  onSample: (value: string) => void;
}) {
  const fixed = choice.param === '';
  const options = [...new Set([name, ...params])].sort();
  return (
    <div className="data-panel__placeholder stack">
      <div className="field">
        <label htmlFor={`${idBase}-fill`} className="field__label">
          {`Fill {${name}} from`}
        </label>
        <select
          id={`${idBase}-fill`}
          className="input"
          value={fixed ? FIXED : choice.param}
          onChange={(e) =>
            onChoice(
              e.target.value === FIXED
                ? { name, param: '', value: choice.value }
                : { name, param: e.target.value, value: '' },
            )
          }
        >
          {options.map((p) => (
            <option key={p} value={p}>
              {params.includes(p) ? `Parameter ${p}` : `URL parameter ${p}`}
            </option>
          ))}
          <option value={FIXED}>A fixed value</option>
        </select>
      </div>
      {fixed ? (
        <div className="field">
          <label htmlFor={`${idBase}-fixed`} className="field__label">
            {`Fixed value of {${name}}`}
          </label>
          <input
            id={`${idBase}-fixed`}
            className="input"
            maxLength={255}
            value={choice.value}
            onChange={(e) => onChoice({ name, param: '', value: e.target.value })}
          />
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${idBase}-sample`} className="field__label">
            {`Sample value of ${choice.param}`}
          </label>
          <input
            id={`${idBase}-sample`}
            className="input"
            maxLength={255}
            value={sample}
            onChange={(e) => onSample(e.target.value)}
          />
        </div>
      )}
    </div>
  );
}

/** The sample record: each path's value, the answer's JSON, or why there is none. */
function ApiSample({
  load,
  paths,
  caption,
  onRetry,
}: {
  load: ReturnType<typeof useLoad<ApiTest>>;
  paths: string[];
  caption: string;
  onRetry: () => void;
}) {
  const retry = (
    <button type="button" className="button button--secondary" onClick={onRetry}>
      Fetch the sample again
    </button>
  );
  if (load.status === 'loading') return <p role="status">Fetching a sample record…</p>;
  if (load.status === 'forbidden' || load.status === 'error')
    return (
      <div className="stack">
        <p className="field__error" role="alert">
          ! {load.status === 'error' ? load.message : 'Only owners and admins can test an API.'}
        </p>
        {retry}
      </div>
    );
  const test = load.value;
  const problem = testProblem(test);
  if (problem)
    return (
      <div className="stack">
        <p className="field__error" role="alert">
          ! {problem} No sample record.
        </p>
        {retry}
      </div>
    );
  const empty = ['', '{}', '[]', 'null'].includes(test.sample.trim());
  return (
    <div className="stack" role="status">
      {empty ? (
        <p>The API answered with no data for these values.</p>
      ) : paths.length > 0 ? (
        <table className="data-panel__sample">
          <caption>{caption}</caption>
          <tbody>
            {paths.map((path) => (
              <tr key={path}>
                <th scope="row">{path === '' ? '(the whole answer)' : path}</th>
                <td>{test.values[path] ?? <em>no value here</em>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Enter a field path to see its value.</p>
      )}
      {!empty && (
        <details className="data-panel__json">
          <summary>The API&apos;s answer (JSON)</summary>
          <pre>{test.sample}</pre>
        </details>
      )}
      {retry}
    </div>
  );
}

/**
 * The form that binds one web API. `onAdd` answers the problem that refused the binding, or null
 * when it was added.
 */
export function AddApiBinding({
  teamId,
  apis,
  params,
  onAdd,
}: {
  teamId: string;
  apis: WebApi[];
  params: string[];
  onAdd: (binding: DataBinding) => string | null;
}) {
  const id = useId();
  const defaults = useParamDefaults();
  const [apiId, setApiId] = useState(apis[0]?.id ?? '');
  const [choices, setChoices] = useState<Record<string, UrlValue>>({});
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [fields, setFields] = useState<FieldDraft[]>([{ path: '', param: '' }]);
  const [problem, setProblem] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const api = apis.find((a) => a.id === apiId);
  const names = api ? placeholdersOf(api.url) : [];
  const choiceOf = (name: string): UrlValue => choices[name] ?? { name, param: name, value: '' };
  const sampleOf = (name: string): string => {
    const choice = choiceOf(name);
    if (choice.param === '') return choice.value;
    return samples[choice.param] ?? defaults[choice.param] ?? '';
  };

  const values = Object.fromEntries(names.map((n) => [n, sampleOf(n)]));
  const paths = [...new Set(fields.map((f) => f.path.trim()).filter((p) => p && !pathProblem(p)))];
  const request = useDebouncedValue(
    api ? JSON.stringify({ apiId: api.id, values, paths, attempt }) : null,
    SAMPLE_DEBOUNCE_MS,
  );
  const sample = useLoad(request, (signal) => {
    const asked = JSON.parse(request!) as {
      apiId: string;
      values: Record<string, string>;
      paths: string[];
    };
    return testWebApi(teamId, asked.apiId, { values: asked.values, paths: asked.paths }, signal);
  });
  const shownPaths = request ? (JSON.parse(request) as { paths: string[] }).paths : [];
  const caption = `Sample record (${names.map((n) => `${n} ${values[n] || '(empty)'}`).join(', ') || 'no URL values'})`;

  const setField = (index: number, next: Partial<FieldDraft>) =>
    setFields(fields.map((f, i) => (i === index ? { ...f, ...next } : f)));

  const add = () => {
    if (!api) return setProblem('Choose a web API.');
    const fixedEmpty = names.find((n) => choiceOf(n).param === '' && !choiceOf(n).value.trim());
    if (fixedEmpty) return setProblem(`Enter the fixed value of {${fixedEmpty}}.`);
    const bad = fields.find((f) => f.path.trim() && pathProblem(f.path.trim()));
    if (bad) return setProblem(`The path ${bad.path.trim()}: ${pathProblem(bad.path.trim())}`);
    const mapped = fields
      .filter((f) => f.param !== '' && f.path.trim() !== '')
      .map((f) => ({ field: f.path.trim(), param: f.param }));
    if (mapped.length === 0)
      return setProblem('Enter a field path and choose the parameter it fills.');
    const result = onAdd({
      source: 'api',
      source_id: api.id,
      key_param: '',
      fields: mapped,
      url_values: names.map((n) => {
        const c = choiceOf(n);
        return c.param === '' ? { name: n, param: '', value: c.value.trim() } : { ...c, value: '' };
      }),
    });
    setProblem(result);
    if (result === null) setFields([{ path: '', param: '' }]);
  };

  return (
    <AddBindingForm
      id={id}
      source="api"
      value={apiId}
      sources={apis.map((a) => ({ id: a.id, label: a.name }))}
      onSourceChange={(next) => {
        setApiId(next);
        setChoices({});
        setProblem(null);
      }}
      hint={
        api && (
          <p className="field__hint data-panel__url">
            <code>{api.url}</code>
          </p>
        )
      }
      problem={problem}
      canAdd={api !== undefined}
      onAdd={add}
    >
      {names.length > 0 && (
        <fieldset className="stack data-panel__map">
          <legend className="field__label">Values in the URL</legend>
          {names.map((name) => (
            <PlaceholderRow
              key={name}
              idBase={`${id}-ph-${name}`}
              name={name}
              params={params}
              choice={choiceOf(name)}
              sample={sampleOf(name)}
              onChoice={(next) => setChoices({ ...choices, [name]: next })}
              onSample={(value) => setSamples({ ...samples, [choiceOf(name).param]: value })}
            />
          ))}
        </fieldset>
      )}
      <ParamMap
        legend="Fill parameters from the answer"
        params={params}
        intro={
          <p id={`${id}-path-hint`} className="field__hint">
            A path such as <code>items[0].name</code> or <code>product.title</code>.
          </p>
        }
      >
        {fields.map((f, i) => {
          const pathError = f.path.trim() ? pathProblem(f.path.trim()) : null;
          return (
            <div key={i} className="data-panel__field">
              <div className="field">
                <label htmlFor={`${id}-path-${i}`} className="field__label">
                  Field path {i + 1}
                </label>
                <input
                  id={`${id}-path-${i}`}
                  className="input"
                  value={f.path}
                  maxLength={256}
                  aria-invalid={pathError ? true : undefined}
                  aria-describedby={pathError ? `${id}-path-${i}-error` : `${id}-path-hint`}
                  onChange={(e) => setField(i, { path: e.target.value })}
                />
                {pathError && (
                  <p id={`${id}-path-${i}-error`} className="field__error">
                    ! {pathError}
                  </p>
                )}
              </div>
              <ParamField
                id={`${id}-param-${i}`}
                label={`Fills parameter ${i + 1}`}
                value={f.param}
                params={params}
                onChange={(param) => setField(i, { param })}
              />
              {fields.length > 1 && (
                <button
                  type="button"
                  className="button button--secondary"
                  aria-label={`Remove field ${i + 1}`}
                  onClick={() => setFields(fields.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              )}
            </div>
          );
        })}
        {fields.length < DATA_BINDING_BOUNDS.fields && (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setFields([...fields, { path: '', param: '' }])}
          >
            Add a field
          </button>
        )}
      </ParamMap>
      {api && (
        <ApiSample
          load={sample}
          paths={shownPaths}
          caption={caption}
          onRetry={() => setAttempt(attempt + 1)}
        />
      )}
    </AddBindingForm>
  );
}
