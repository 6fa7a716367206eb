import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '../../api/client.ts';
import type { CurrentTeam } from '../../api/designs.ts';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { useUnsavedChangesGuard } from '../../hooks/useUnsavedChangesGuard.ts';
import { PRO_ONLY_MESSAGE } from '../dashboard/DesignViewer.tsx';
import { subscriptionPath } from '../dashboard/useCurrentTeam.ts';
import { actionFailure } from '../settings/formFailure.ts';
import {
  EXPORT_MESSAGES,
  ExportError,
  normaliseLinkUrl,
  type HtmlAlignment,
} from '#shared/export-url.ts';
import {
  DEFAULT_VIDALYTICS_OPTIONS,
  providerOf,
  type VidalyticsOptions,
} from '#shared/providers/index.ts';
import {
  createCacheId,
  fetchMergeTags,
  saveChoices,
  saveLink,
  saveProvider,
  type MergeTagList,
  type StoreFront,
} from './api.ts';
import { CopyBlock } from './CopyBlock.tsx';
import { CustomDataIntro } from './CustomDataIntro.tsx';
import { ExportPreview } from './ExportPreview.tsx';
import {
  exportRows,
  generateEnabled,
  generateOutputs,
  htmlWidth,
  originOf,
  pdfBlock,
  platformOptions,
  previewUrl,
  repeatedNames,
  rowProblem,
  type ExportDesign,
  type ExportOutputs,
  type ExportRow,
} from './model.ts';
import { ValueEditor } from './ValueEditor.tsx';

/** Wait after the last keystroke before the preview re-renders and choices are saved, ms. */
const PREVIEW_DEBOUNCE_MS = 500;
const SAVE_DEBOUNCE_MS = 800;

type SaveState = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; message: string };

type Tags =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'ready'; list: MergeTagList }
  | { state: 'error'; message: string; field?: string };

/** Save status of one call, announced politely. */
function SaveStatus({ save, what }: { save: SaveState; what: string }) {
  return (
    <p className="small export-save" role="status" aria-live="polite">
      {save.state === 'saving' && (
        <>
          <Spinner /> Saving the {what}…
        </>
      )}
      {save.state === 'saved' && <span className="export-save--saved">✓ {what} saved</span>}
      {save.state === 'failed' && (
        <span className="export-save--failed">
          <span aria-hidden="true">! </span>
          The {what} was not saved: {save.message}
        </span>
      )}
    </p>
  );
}

/** Runs a save and reports its state; the last call wins. */
function useSave(): [SaveState, (run: () => Promise<unknown>) => Promise<boolean>] {
  const [save, setSave] = useState<SaveState>({ state: 'idle' });
  const round = useRef(0);
  const run = useCallback(async (call: () => Promise<unknown>) => {
    const mine = ++round.current;
    setSave({ state: 'saving' });
    try {
      await call();
      if (mine === round.current) setSave({ state: 'saved' });
      return true;
    } catch (error) {
      if (mine === round.current) setSave({ state: 'failed', message: actionFailure(error) });
      return false;
    }
  }, []);
  return [save, run];
}

/** Checks that fixed hosted-image URLs load (spec 001 §5 'Error: image doesn`t exist'). */
function useMissingImages(rows: readonly ExportRow[], provider: string | null): Set<string> {
  const [found, setFound] = useState<{ urls: string; missing: Set<string> }>({
    urls: '',
    missing: new Set(),
  });
  const urls = useDebouncedValue(
    rows
      .filter(
        (r) =>
          r.dynamicStickerType === 'hostedImage' &&
          r.merge_tag_value.trim() !== '' &&
          !providerOf(provider).parseTag(r.merge_tag_value) &&
          rowProblem(provider, r) === null,
      )
      .map((r) => r.merge_tag_value.trim())
      .join('\n'),
    PREVIEW_DEBOUNCE_MS,
  );
  useEffect(() => {
    let live = true;
    const missing = new Set<string>();
    const probes = (urls === '' ? [] : urls.split('\n')).map((url) => {
      const image = new Image();
      image.onerror = () => {
        missing.add(url);
        if (live) setFound({ urls, missing: new Set(missing) });
      };
      image.src = url;
      return image;
    });
    return () => {
      live = false;
      for (const probe of probes) probe.onerror = null;
    };
  }, [urls]);
  return found.urls === urls ? found.missing : new Set();
}

/** Keap's authorisation window for this design (functions/merge-tags/keap-oauth.ts). */
const keapWindowUrl = (authorizeUrl: string, designId: string) =>
  `${authorizeUrl}?design=${encodeURIComponent(designId)}`;

/** The merge-tag list state after a failed `POST /api/merge-tag`. */
function tagsFailure(error: unknown): Tags {
  const refused = isApiError(error) ? error.errors?.access_token : undefined;
  return refused
    ? { state: 'error', message: refused.join(' '), field: 'access_token' }
    : { state: 'error', message: actionFailure(error) };
}

/**
 * The export screen (spec 001 §2 "Export screen", §4 "Export", §5; issue #9 item 3): the preview
 * on the left; on the right the platform, the store front (Klaviyo), the value of each
 * parameter and dynamic sticker, image or PDF, HTML width and alignment, the link URL, the
 * Vidalytics options and the embed code, Generate, and the outputs with copy buttons.
 * Platform, values and link are saved as they change (`PUT …/provider`, `/choices`, `/link`).
 */
export function ExportScreen({
  design,
  team,
  storeFronts,
}: {
  design: ExportDesign;
  team: CurrentTeam | null;
  storeFronts: readonly StoreFront[];
}) {
  const idBase = useId();
  const [provider, setProvider] = useState<string>(design.merge_tag_provider ?? '');
  const [storefront, setStorefront] = useState<string>(design.merge_tag_storefront ?? '');
  const [rows, setRows] = useState<ExportRow[]>(() => exportRows(design));
  const [pdf, setPdf] = useState(false);
  const [width, setWidth] = useState('100');
  const [align, setAlign] = useState<HtmlAlignment>('center');
  const [link, setLink] = useState(design.html_link_url ?? '');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [embedCode, setEmbedCode] = useState('');
  const [embedError, setEmbedError] = useState<string | null>(null);
  const [vidalytics, setVidalytics] = useState<VidalyticsOptions>(DEFAULT_VIDALYTICS_OPTIONS);
  const [loadedPreview, setLoadedPreview] = useState<string | null>(null);
  const [outputs, setOutputs] = useState<ExportOutputs | null>(null);
  const [generating, setGenerating] = useState(false);
  const [generateError, setGenerateError] = useState<string | null>(null);
  const [tags, setTags] = useState<Tags>(() =>
    providerOf(design.merge_tag_provider).source === 'text'
      ? { state: 'none' }
      : { state: 'loading' },
  );
  const [accessToken, setAccessToken] = useState('');
  const [providerSave, runProviderSave] = useSave();
  const [choicesSave, runChoicesSave] = useSave();
  const [linkSave, runLinkSave] = useSave();
  const touched = useRef(false);
  /** Values typed or chosen since the screen opened or the platform changed. */
  const [edited, setEdited] = useState(false);
  /** The link as last handed to a save (or loaded). */
  const [sentLink, setSentLink] = useState(design.html_link_url ?? '');
  const outputsRef = useRef<HTMLHeadingElement>(null);

  const platform = providerOf(provider);
  const block = pdfBlock(provider, team?.can_export_pdf ?? false);
  const repeated = useMemo(() => repeatedNames(rows), [rows]);
  const missing = useMissingImages(rows, provider);
  const problemOf = (row: ExportRow) =>
    rowProblem(provider, row) ??
    (missing.has(row.merge_tag_value.trim()) ? EXPORT_MESSAGES.imageMissing : null);
  const problems = rows.some((r) => problemOf(r) !== null);
  const preview = useDebouncedValue(previewUrl(design, provider, rows), PREVIEW_DEBOUNCE_MS);
  const previewLoaded = loadedPreview === preview;
  const enabled = !problems && generateEnabled({ provider, rows, previewLoaded, embedCode });
  const needsEmbed = platform.value === 'wistia' || platform.value === 'vidalytics';

  // The platform's merge tags (POST /api/merge-tag), again when the store front changes.
  const loadTags = useCallback(
    async (
      value: string,
      options: { token?: string; storeFront?: string; openOAuth?: boolean },
    ) => {
      if (providerOf(value).source === 'text') {
        setTags({ state: 'none' });
        return;
      }
      setTags({ state: 'loading' });
      try {
        const list = await fetchMergeTags(value, {
          ...(options.token ? { accessToken: options.token } : {}),
          storeFront: options.storeFront ?? null,
        });
        setTags({ state: 'ready', list });
        // Spec 001 §4: Keap without a token opens its authorisation window.
        if (
          options.openOAuth &&
          list.connection_needed &&
          !list.credentials_saved &&
          list.authorize_url
        ) {
          window.open(
            keapWindowUrl(list.authorize_url, design.id),
            'keap-authorisation',
            'popup,width=640,height=760',
          );
        }
      } catch (error) {
        setTags(tagsFailure(error));
      }
    },
    [design.id],
  );

  // The saved platform's merge tags, once, when the screen opens.
  useEffect(() => {
    if (providerOf(design.merge_tag_provider).source === 'text') return;
    const controller = new AbortController();
    fetchMergeTags(design.merge_tag_provider ?? '', {
      storeFront: design.merge_tag_storefront,
      signal: controller.signal,
    }).then(
      (list) => setTags({ state: 'ready', list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setTags(tagsFailure(error));
      },
    );
    return () => controller.abort();
  }, [design]);

  // Values are saved once typing pauses and every value passes its rules.
  const rowsToSave = useDebouncedValue(rows, SAVE_DEBOUNCE_MS);
  useEffect(() => {
    if (!touched.current) return;
    if (rowsToSave.some((r) => rowProblem(provider, r) !== null)) return;
    void runChoicesSave(() => saveChoices(design.id, rowsToSave));
  }, [rowsToSave, provider, design.id, runChoicesSave]);

  // Unsaved: values still in the debounce, held back by a problem, or whose save failed; a
  // link not yet saved; a platform whose save failed. Generate's options are not saved at all.
  useUnsavedChangesGuard(
    (edited &&
      (rows !== rowsToSave ||
        rowsToSave.some((r) => rowProblem(provider, r) !== null) ||
        choicesSave.state === 'failed')) ||
      (normaliseLinkUrl(link) ?? link) !== sentLink ||
      linkSave.state === 'failed' ||
      providerSave.state === 'failed',
  );

  function chooseProvider(value: string) {
    // Spec 001 §4: choosing a provider clears all merge values and script text, then saves it.
    setProvider(value);
    touched.current = false;
    setEdited(false);
    setRows((current) => current.map((r) => ({ ...r, merge_tag_value: '', merge_tag_name: '' })));
    setOutputs(null);
    setEmbedCode('');
    setEmbedError(null);
    setAccessToken('');
    const store = value === 'klaviyo' ? storefront : '';
    void runProviderSave(() => saveProvider(design.id, value, store || null));
    void loadTags(value, { storeFront: store, openOAuth: value === 'infusionsoft' });
  }

  function chooseStorefront(value: string) {
    setStorefront(value);
    void runProviderSave(() => saveProvider(design.id, provider, value || null));
    void loadTags(provider, { storeFront: value, ...(accessToken ? { token: accessToken } : {}) });
  }

  function changeRow(key: string, value: string, name: string) {
    touched.current = true;
    setEdited(true);
    setOutputs(null);
    setRows((current) =>
      current.map((r) =>
        r.key === key ? { ...r, merge_tag_value: value, merge_tag_name: name } : r,
      ),
    );
  }

  function commitLink() {
    const normalised = normaliseLinkUrl(link);
    if (normalised === undefined) {
      setLinkError(EXPORT_MESSAGES.linkInvalid);
      return;
    }
    setLinkError(null);
    setLink(normalised);
    setSentLink(normalised);
    if (normalised === (design.html_link_url ?? '') && linkSave.state === 'idle') return;
    void runLinkSave(() => saveLink(design.id, normalised));
  }

  async function generate() {
    const linkValue = normaliseLinkUrl(link);
    if (linkValue === undefined) {
      setLinkError(EXPORT_MESSAGES.linkInvalid);
      return;
    }
    setGenerating(true);
    setGenerateError(null);
    let cacheId: string;
    try {
      // The design as it is now: e-mails sent with these URLs keep this image after edits.
      cacheId = await createCacheId(design.id);
    } catch (error) {
      setGenerateError(`Nothing was generated: ${actionFailure(error)}`);
      return;
    } finally {
      setGenerating(false);
    }
    try {
      setOutputs(
        generateOutputs(design, {
          cacheId,
          provider,
          rows,
          pdf: pdf && block === null,
          width: htmlWidth(width),
          align,
          link: linkValue,
          embedCode,
          vidalytics,
          origin: originOf(design.base_url) || window.location.origin,
          alt: design.title,
        }),
      );
      setEmbedError(null);
      window.setTimeout(() => outputsRef.current?.focus(), 0);
    } catch (error) {
      if (error instanceof ExportError) setEmbedError(error.message);
      else throw error;
    }
  }

  const tagList = tags.state === 'ready' ? tags.list.merge_tags : [];
  const connection = platform.connection;
  const showKey = connection === 'api_key' || connection === 'page_api_key';
  const offline = tags.state === 'ready' && tags.list.connection_needed;

  return (
    <div className="export">
      <CustomDataIntro />
      <section className="export__preview stack" aria-labelledby={`${idBase}-preview`}>
        <h2 id={`${idBase}-preview`} className="card__title">
          Preview
        </h2>
        <ExportPreview
          src={preview}
          alt={`${design.title} with these values`}
          width={design.canvas_width}
          height={design.canvas_height}
          onLoaded={setLoadedPreview}
        />
      </section>

      <section className="export__settings stack" aria-labelledby={`${idBase}-settings`}>
        <h2 id={`${idBase}-settings`} className="card__title">
          Export settings
        </h2>

        <div className="field">
          <label htmlFor={`${idBase}-platform`} className="field__label">
            Platform
          </label>
          <select
            id={`${idBase}-platform`}
            className="input input--select"
            value={provider}
            onChange={(event) => chooseProvider(event.target.value)}
          >
            {platformOptions(pdf && block === null).map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          <SaveStatus save={providerSave} what="platform" />
        </div>

        {provider === 'klaviyo' && (
          <div className="field">
            <label htmlFor={`${idBase}-storefront`} className="field__label">
              Store front
            </label>
            <select
              id={`${idBase}-storefront`}
              className="input input--select"
              value={storefront}
              onChange={(event) => chooseStorefront(event.target.value)}
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
                id={`${idBase}-key`}
                className="input input--mono"
                type="password"
                autoComplete="off"
                value={accessToken}
                aria-describedby={`${idBase}-key-hint`}
                aria-invalid={
                  tags.state === 'error' && tags.field === 'access_token' ? true : undefined
                }
                onChange={(event) => setAccessToken(event.target.value)}
              />
              <button
                type="button"
                className="button button--secondary"
                disabled={accessToken.trim() === '' || tags.state === 'loading'}
                onClick={() =>
                  void loadTags(provider, { token: accessToken.trim(), storeFront: storefront })
                }
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
                  href={keapWindowUrl(tags.list.authorize_url, design.id)}
                  target="keap-authorisation"
                  rel="opener"
                >
                  Connect Keap
                </a>
              </>
            )}
          </Notice>
        )}

        <fieldset className="fieldset stack">
          <legend className="field__label">Values</legend>
          {repeated.size > 0 && (
            <Notice tone="info" title="Repeated parameter names">
              {[...repeated].map((n) => `“${n}”`).join(', ')} {repeated.size === 1 ? 'is' : 'are'}{' '}
              used by more than one text snippet. The URL carries one value per name: the first one
              set fills them all.
            </Notice>
          )}
          {rows.length === 0 && (
            <p className="muted">
              This PicSnippet has no parameters: every recipient sees the same image.
            </p>
          )}
          {rows.map((row) => (
            <ValueEditor
              key={row.key}
              row={row}
              tags={tagList}
              problem={problemOf(row)}
              repeated={repeated.has(row.param_name) && row.parameterId !== null}
              onChange={(value, name) => changeRow(row.key, value, name)}
            />
          ))}
          <SaveStatus save={choicesSave} what="values" />
        </fieldset>

        <fieldset className="fieldset stack">
          <legend className="field__label">Format</legend>
          <div className="toggle" role="group" aria-label="Image or PDF">
            {(['image', 'pdf'] as const).map((mode) => (
              <button
                key={mode}
                type="button"
                className="toggle__option"
                aria-pressed={(mode === 'pdf') === pdf}
                aria-disabled={mode === 'pdf' && block !== null ? true : undefined}
                aria-describedby={mode === 'pdf' && block ? `${idBase}-pdf-hint` : undefined}
                onClick={() => {
                  if (mode === 'pdf' && block !== null) return;
                  setPdf(mode === 'pdf');
                  setOutputs(null);
                }}
              >
                {mode === 'image' ? 'Image' : 'PDF'}
              </button>
            ))}
          </div>
          {block === 'plan' && (
            <div id={`${idBase}-pdf-hint`}>
              <Notice tone="info" title="PDF">
                {PRO_ONLY_MESSAGE} {team && <Link to={subscriptionPath(team.id)}>Upgrade</Link>}
              </Notice>
            </div>
          )}
          {block === 'provider' && (
            <p id={`${idBase}-pdf-hint`} className="field__hint">
              {platform.label} shows an image: PDF is not available for web pages and video players.
            </p>
          )}
          {pdf && block === null && (
            <p className="field__hint">
              With PDF on, Website, Wistia and Vidalytics are not offered.
            </p>
          )}
          {needsEmbed ? (
            <p className="field__hint">
              {platform.label} gets a script, not HTML: the HTML width, alignment and link do not
              apply.
            </p>
          ) : (
            <>
              <div className="export__row">
                <div className="field">
                  <label htmlFor={`${idBase}-width`} className="field__label">
                    HTML width (%)
                  </label>
                  <input
                    id={`${idBase}-width`}
                    className="input"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={100}
                    value={width}
                    onChange={(event) => {
                      setWidth(event.target.value);
                      setOutputs(null);
                    }}
                    onBlur={() => setWidth(String(htmlWidth(width)))}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${idBase}-align`} className="field__label">
                    Alignment
                  </label>
                  <select
                    id={`${idBase}-align`}
                    className="input input--select"
                    value={align}
                    onChange={(event) => {
                      setAlign(event.target.value as HtmlAlignment);
                      setOutputs(null);
                    }}
                  >
                    <option value="left">Left</option>
                    <option value="center">Center</option>
                    <option value="right">Right</option>
                  </select>
                </div>
              </div>
              <div className="field">
                <label htmlFor={`${idBase}-link`} className="field__label">
                  Link URL<span className="field__optional"> (optional)</span>
                </label>
                <p id={`${idBase}-link-hint`} className="field__hint">
                  Where a click on the image goes; https:// is added when left out.
                </p>
                <input
                  id={`${idBase}-link`}
                  className="input"
                  type="text"
                  inputMode="url"
                  autoComplete="url"
                  spellCheck={false}
                  value={link}
                  aria-invalid={linkError ? true : undefined}
                  aria-describedby={`${idBase}-link-hint${linkError ? ` ${idBase}-link-error` : ''}`}
                  onChange={(event) => {
                    setLink(event.target.value);
                    setOutputs(null);
                  }}
                  onBlur={commitLink}
                />
                {linkError && <FieldError id={`${idBase}-link-error`} errors={[linkError]} />}
                <SaveStatus save={linkSave} what="link" />
              </div>
            </>
          )}
        </fieldset>

        {needsEmbed && (
          <fieldset className="fieldset stack">
            <legend className="field__label">{platform.label} video</legend>
            {platform.value === 'vidalytics' && (
              <Notice tone="info" title="What the Vidalytics script does">
                Vidalytics has no documented way for a web page to change a player&apos;s image for
                each viewer, so the script does not change the player by itself. It works out this
                viewer&apos;s image from the page&apos;s address and hands it, with the choices
                below, to your page&apos;s own code as <code>window.PicSnippetsVidalytics</code>.
                For one image for every viewer, upload the Direct link&apos;s image as the
                video&apos;s thumbnail in Vidalytics instead.
              </Notice>
            )}
            {platform.value === 'vidalytics' && (
              <div className="stack" role="group" aria-label="Show the image in the player">
                {(
                  [
                    ['default', 'Before the video plays'],
                    ['pause', 'When the video is paused'],
                    ['mobile', 'On mobile devices'],
                  ] as const
                ).map(([key, label]) => (
                  <label key={key} className="checkbox-row">
                    <input
                      type="checkbox"
                      className="checkbox"
                      checked={vidalytics[key]}
                      onChange={(event) => {
                        setVidalytics((v) => ({ ...v, [key]: event.target.checked }));
                        setOutputs(null);
                      }}
                    />
                    {label}
                  </label>
                ))}
              </div>
            )}
            <div className="field">
              <label htmlFor={`${idBase}-embed`} className="field__label">
                Video embed code
              </label>
              <p id={`${idBase}-embed-hint`} className="field__hint">
                Paste the embed code {platform.label} gives for the video; the script goes after it
                on your page.
              </p>
              <textarea
                id={`${idBase}-embed`}
                className="input input--mono"
                rows={4}
                required
                spellCheck={false}
                value={embedCode}
                aria-invalid={embedError ? true : undefined}
                aria-describedby={`${idBase}-embed-hint${embedError ? ` ${idBase}-embed-error` : ''}`}
                onChange={(event) => {
                  setEmbedCode(event.target.value);
                  setEmbedError(null);
                  setOutputs(null);
                }}
              />
              {embedError && <FieldError id={`${idBase}-embed-error`} errors={[embedError]} />}
            </div>
          </fieldset>
        )}

        <div className="stack">
          <button
            type="button"
            className="button"
            aria-disabled={!enabled || generating}
            aria-describedby={`${idBase}-generate-hint`}
            onClick={() => {
              if (enabled && !generating) void generate();
            }}
          >
            {generating && <Spinner />} Generate
          </button>
          {generateError && (
            <Notice tone="error" title="Generate">
              {generateError}
            </Notice>
          )}
          <p id={`${idBase}-generate-hint`} className="field__hint">
            {enabled
              ? 'Generate the HTML, the direct link and the script for this platform.'
              : needsEmbed
                ? 'Paste the video embed code first.'
                : problems
                  ? 'Fix the values marked above first.'
                  : !previewLoaded
                    ? 'Waiting for the preview…'
                    : 'Give every parameter a value first.'}
          </p>
        </div>

        {outputs && (
          <section className="export__outputs stack" aria-labelledby={`${idBase}-outputs`}>
            <h3 id={`${idBase}-outputs`} ref={outputsRef} tabIndex={-1} className="card__title">
              Ready to paste into {platform.label}
            </h3>
            {outputs.html && (
              <CopyBlock label="HTML" value={outputs.html} rows={5} testId="export-html" />
            )}
            <CopyBlock label="Direct link" value={outputs.link} opens testId="export-link" />
            {outputs.script && (
              <CopyBlock label="Script" value={outputs.script} rows={6} testId="export-script" />
            )}
          </section>
        )}
      </section>
    </div>
  );
}
