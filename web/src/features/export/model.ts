/**
 * The export screen's rules, as pure functions (docs/export.md "The screen": "Export screen",
 * "Export", export validations, sticker fallback rules; docs/export.md). The screen holds state
 * and calls these; test/unit/export-*.test.ts checks them.
 *
 * The URL, HTML and scripts come from `shared/export-url.ts` and the provider modules, the same
 * code the tests of the render round trip use.
 */
import { altTemplate, exportAltText } from '#shared/alt-text.ts';
import { buildPollHtml, pollVoteLink } from '#shared/poll-export.ts';
import {
  buildHtmlSnippet,
  buildRenderUrl,
  buildWebTrackingSnippet,
  buildWistiaScript,
  canGenerate,
  escapeAttribute,
  ExportError,
  EXPORT_MESSAGES,
  exportValueProblem,
  pageParameterList,
  webTrackingScriptUrl,
  type ExportParameter,
  type HtmlAlignment,
  type RenderUrlInput,
} from '#shared/export-url.ts';
import type { DynamicStickerType } from '#shared/design.ts';
import { queryNames } from '#shared/render-signature.ts';
import { densityFits } from '#shared/render-limits.ts';
import { densePath } from '#shared/render-url.ts';
import {
  providerList,
  providerOf,
  vidalyticsEmbed,
  type Provider,
  type VidalyticsOptions,
} from '#shared/providers/index.ts';

/** One value editor of the screen: a text parameter or a dynamic sticker's parameter. */
export interface ExportRow {
  /** Unique on the screen: the parameter id, or `sticker:{uuid}`. */
  key: string;
  /** The text parameter's id (sent to `PUT …/choices`); null for a sticker. */
  parameterId: string | null;
  param_name: string;
  /** What a recipient without a value sees (the parameter's or the sticker's fallback). */
  fallback: string;
  dynamicStickerType: DynamicStickerType | null;
  /** The chosen merge tag or typed text; '' is none. */
  merge_tag_value: string;
  /** The label of the chosen merge tag, '' for typed text. */
  merge_tag_name: string;
}

/** What the screen reads of a design (GET /api/pic-snippet/{id}). */
export interface ExportDesign {
  id: string;
  title: string;
  version: number;
  base_url: string;
  preview_url: string;
  canvas_width: number;
  canvas_height: number;
  merge_tag_provider: string | null;
  merge_tag_storefront: string | null;
  merge_tag_choices: Array<{ key?: string; merge_tag_name: string; merge_tag_value: string }>;
  html_link_url: string | null;
  /** Only signed URLs draw it (docs/developer-api.md "Signed render URLs"). */
  require_signed_urls: boolean;
  /** The alt-text template (docs/export.md "Alt text"); null: the texts joined. */
  alt_text?: string | null;
  /**
   * A design with countdown timers: its GIF's frames (the URL ends in `.gif`;
   * docs/adr/0058-countdown-timers.md "Countdown timers"); null or absent without a timer.
   */
  timer_frames?: number | null;
  /**
   * The design draws a GIF file (its base photo or a plain image sticker): e-mail platforms get
   * its `.gif`, the animation, unless "Require signed URLs" is on as Generate runs (it keeps the
   * still then; docs/export.md "Animated designs").
   */
  animated_gif?: boolean;
  /** The design's rules' own links (docs/rules.md "Links"), one per rule; absent: no rules. */
  rule_links?: Array<string | null>;
  /**
   * The design's poll (docs/polls.md "In the e-mail"): its answers' labels and its bar colour
   * for the e-mail HTML's answer buttons; absent or null: no poll.
   */
  poll?: { answers: string[]; bar_fill: string } | null;
  text_snippets: Array<{
    /** The snippet's text: the default alt text joins them (shared/alt-text.ts). */
    text?: string;
    parameters: Array<{
      id: string;
      param_name: string;
      param_default_value: string;
      merge_tag_value: string | null;
    }>;
  }>;
  graphics_data: Array<{
    uuid: string;
    stickerType: string;
    dynamicStickerType: DynamicStickerType | null;
    dynamicStickerParamName: string | null;
    dynamicStickerUrl: string;
    /**
     * A countdown timer's mode: only an evergreen one that starts from a value reads its
     * parameter (its start); `first_open` counts from the recipient's first open and reads none.
     */
    countdownMode?: 'fixed' | 'evergreen' | 'first_open' | null;
  }>;
}

/**
 * The screen's value editors: every text parameter in the design's order, then every dynamic
 * sticker that takes a parameter. A sticker's value is its saved choice (`merge_tag_choices`,
 * `key` = its parameter name); a parameter's label comes from the saved choice of its name.
 */
export function exportRows(design: ExportDesign): ExportRow[] {
  const choice = (name: string) => design.merge_tag_choices.find((c) => c.key === name);
  const parameters = design.text_snippets.flatMap((s) =>
    s.parameters.map((p): ExportRow => {
      const saved = choice(p.param_name);
      const value = p.merge_tag_value ?? '';
      return {
        key: p.id,
        parameterId: p.id,
        param_name: p.param_name,
        fallback: p.param_default_value.trim(),
        dynamicStickerType: null,
        merge_tag_value: value,
        merge_tag_name: saved && saved.merge_tag_value === value ? saved.merge_tag_name : '',
      };
    }),
  );
  const stickers = design.graphics_data
    .filter((s) => s.stickerType === 'dynamicSticker' && s.dynamicStickerParamName)
    // A fixed-deadline or first-open timer reads no value (docs/adr/0058-countdown-timers.md
    // "Countdown timers").
    .filter((s) => !(s.dynamicStickerType === 'countdown' && s.countdownMode !== 'evergreen'))
    .map((s): ExportRow => {
      const saved = choice(s.dynamicStickerParamName!);
      return {
        key: `sticker:${s.uuid}`,
        parameterId: null,
        param_name: s.dynamicStickerParamName!,
        fallback: s.dynamicStickerUrl,
        dynamicStickerType: s.dynamicStickerType,
        merge_tag_value: saved?.merge_tag_value ?? '',
        merge_tag_name: saved?.merge_tag_name ?? '',
      };
    });
  return [...parameters, ...stickers];
}

/**
 * The design as the export screen opens it (docs/export.md "The screen": the team's platform):
 * a design never exported (no platform, no value, no saved choice) takes the platform the team
 * last chose, `fromTeam` then true; any other design is kept.
 */
export function withTeamPlatform<D extends ExportDesign>(
  design: D,
  team: { export_provider: string | null; export_storefront: string | null } | null,
): { design: D; fromTeam: boolean } {
  const exported =
    design.merge_tag_provider !== null ||
    design.merge_tag_choices.length > 0 ||
    design.text_snippets.some((s) => s.parameters.some((p) => p.merge_tag_value));
  const known =
    team?.export_provider && providerOf(team.export_provider).value === team.export_provider;
  if (exported || !known) return { design, fromTeam: false };
  const storefront = team.export_provider === 'klaviyo' ? team.export_storefront : null;
  return {
    design: {
      ...design,
      merge_tag_provider: team!.export_provider,
      merge_tag_storefront: storefront,
    },
    fromTeam: true,
  };
}

/** A name compared loosely: lower case, letters and digits only (`First name` = `first_name`). */
const looseName = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The merge field whose name matches a parameter's (docs/export.md "The screen": matching
 * names): the tag's label or its field, its last dotted part included (`customer.first_name`,
 * `Contact.FirstName`), compared as letters and digits without case. Undefined when none or
 * more than one differ in value.
 */
export function tagMatching(
  provider: Provider,
  paramName: string,
  tags: readonly { merge_tag_name: string; merge_tag_value: string }[],
): { merge_tag_name: string; merge_tag_value: string } | undefined {
  const wanted = looseName(paramName);
  if (wanted === '') return undefined;
  const found = tags.filter((tag) => {
    const field = provider.parseTag(tag.merge_tag_value)?.field ?? '';
    const last = field.slice(field.lastIndexOf('.') + 1);
    return [tag.merge_tag_name, field, last].some((name) => looseName(name) === wanted);
  });
  return new Set(found.map((t) => t.merge_tag_value)).size === 1 ? found[0] : undefined;
}

/**
 * The rows with every empty value filled by the merge field matching its name
 * ({@link tagMatching}); a row with a value is kept. Returns the same array when nothing matched.
 */
export function matchRowsByName(
  provider: string | null,
  rows: readonly ExportRow[],
  tags: readonly { merge_tag_name: string; merge_tag_value: string }[],
): readonly ExportRow[] {
  const platform = providerOf(provider);
  let changed = false;
  const next = rows.map((row) => {
    if (row.merge_tag_value !== '') return row;
    const tag = tagMatching(platform, row.param_name, tags);
    if (!tag) return row;
    changed = true;
    return { ...row, merge_tag_value: tag.merge_tag_value, merge_tag_name: tag.merge_tag_name };
  });
  return changed ? next : rows;
}

/**
 * Names of text parameters that occur more than once (docs/export.md "The screen": "Repeated
 * parameter names show a notice and highlight"): one value in the URL fills them all, so the screen
 * says so.
 */
export function repeatedNames(rows: readonly ExportRow[]): Set<string> {
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (row.parameterId !== null) seen.set(row.param_name, (seen.get(row.param_name) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}

/** Why the PDF toggle cannot be used, or null when it can. */
export type PdfBlock = 'plan' | 'provider' | null;

/**
 * The PDF toggle's rule (docs/export.md "The screen": "unavailable for website, wistia,
 * vidalytics"; docs/adr/0023-team-roles.md "Team roles" `can_export_pdf`, "This feature is
 * available only for Pro plans.").
 */
export function pdfBlock(provider: string | null, canExportPdf: boolean): PdfBlock {
  if (!canExportPdf) return 'plan';
  return providerOf(provider).allowsPdf ? null : 'provider';
}

/**
 * The platforms the select offers (docs/export.md "The screen": "turning PDF on removes these
 * providers from the list"); value '' is Custom.
 */
export const platformOptions = (pdf: boolean) => providerList(pdf);

/** The parameters of the URL builders: text parameters, then the stickers'. */
export function urlInput(
  design: Pick<ExportDesign, 'base_url' | 'timer_frames' | 'animated_gif'>,
  provider: string | null,
  rows: readonly ExportRow[],
  pdf: boolean,
  cacheId: string | null = null,
  imageFormat: ImageFormat = 'jpeg',
): RenderUrlInput {
  const param = (r: ExportRow): ExportParameter => ({
    param_name: r.param_name,
    merge_tag_value: r.merge_tag_value,
    dynamicStickerType: r.dynamicStickerType,
  });
  return {
    base_url: design.base_url,
    cacheId,
    pdf: pdf && providerOf(provider).allowsPdf,
    // A countdown design's URL names its animated GIF (docs/adr/0058-countdown-timers.md "Countdown
    // timers").
    gif: (design.timer_frames ?? 0) > 0 || emailsAnimation(design, provider),
    // WebP and AVIF for web pages and video players only (docs/export.md "Image formats").
    format: imageFormat !== 'jpeg' && providerOf(provider).source === 'page' ? imageFormat : null,
    provider,
    parameters: rows.filter((r) => r.parameterId !== null).map(param),
    stickers: rows.filter((r) => r.parameterId === null).map(param),
  };
}

/** `urlInput` with Generate's options. */
const urlInputOf = (
  design: Pick<ExportDesign, 'base_url' | 'timer_frames' | 'animated_gif'>,
  options: Pick<GenerateOptions, 'provider' | 'rows' | 'pdf' | 'cacheId' | 'imageFormat'>,
): RenderUrlInput =>
  urlInput(
    design,
    options.provider,
    options.rows,
    options.pdf,
    options.cacheId,
    options.imageFormat,
  );

/** A row's problem for the screen (docs/export.md "The screen"), or null. */
export function rowProblem(provider: string | null, row: ExportRow): string | null {
  return exportValueProblem(providerOf(provider), {
    param_name: row.param_name,
    merge_tag_value: row.merge_tag_value,
    dynamicStickerType: row.dynamicStickerType,
  });
}

/**
 * Whether Generate is enabled (docs/export.md "The screen"): web tracking always; Wistia and
 * Vidalytics once an embed code is pasted; otherwise every text parameter has a value, no value has
 * a problem, and the preview has loaded.
 */
export function generateEnabled(state: {
  provider: string | null;
  rows: readonly ExportRow[];
  previewLoaded: boolean;
  embedCode: string;
}): boolean {
  return canGenerate(urlInput({ base_url: '' }, state.provider, state.rows, false), {
    previewLoaded: state.previewLoaded,
    embedCode: state.embedCode,
  });
}

/**
 * The preview's URL (docs/export.md "The screen": "Left: preview"): the current version's render
 * with the typed (fixed) values; a merge tag is not a value yet, so its parameter shows the
 * fallback, as a recipient without the field would see it.
 */
export function previewUrl(
  design: Pick<ExportDesign, 'preview_url'>,
  provider: string | null,
  rows: readonly ExportRow[],
): string {
  const platform = providerOf(provider);
  const pairs = new Map<string, string>();
  for (const row of rows) {
    const value = row.merge_tag_value.trim();
    if (value === '' || platform.parseTag(value) || pairs.has(row.param_name)) continue;
    if (rowProblem(provider, row)) continue;
    pairs.set(row.param_name, value);
  }
  const query = [...pairs].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (query.length === 0) return design.preview_url;
  return `${design.preview_url}${design.preview_url.includes('?') ? '&' : '?'}${query.join('&')}`;
}

/** HTML width in percent (docs/export.md "The screen": default 100, max 100); '' and junk read as 100. */
export function htmlWidth(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return 100;
  return Math.min(100, Math.max(1, Math.round(n)));
}

/**
 * The Vidalytics script (docs/providers.md "Vidalytics"; docs/export.md). Vidalytics documents
 * no way for a page to set a player's image per viewer, so the script does not touch the player:
 * it works out this viewer's image URL from the page's address and publishes it, with the
 * embed's ids, the player's container id (`vidalytics_embed_{embedId}`, the key Vidalytics'
 * player registers under in `window._vidalytics.embeds`) and the chosen slots, on
 * `window.PicSnippetsVidalytics` for the page's own code.
 * @throws ExportError `embedCodeRequired` when the embed code names no Vidalytics embed.
 */
export function buildVidalyticsScript(
  input: RenderUrlInput,
  options: { origin: string; embedCode: string; slots: VidalyticsOptions; dense?: boolean },
): string {
  const embed = vidalyticsEmbed(options.embedCode);
  if (!embed) throw new ExportError(EXPORT_MESSAGES.embedCodeRequired);
  const base = buildRenderUrl({ ...input, provider: 'vidalytics' });
  const params = pageParameterList(input.parameters, input.stickers);
  // The 2× image too (docs/export.md "Density"), as `srcset` candidates for the page's code.
  const dense = options.dense
    ? `, srcset: window.PicSnippets.url(${JSON.stringify(base)}, ${JSON.stringify(params)}, false) + ' 1x, ' + window.PicSnippets.url(${JSON.stringify(densePath(base, 2))}, ${JSON.stringify(params)}, false) + ' 2x'`
    : '';
  const config = {
    accountId: embed.accountId,
    embedId: embed.embedId,
    containerId: `vidalytics_embed_${embed.embedId}`,
    slots: options.slots,
  };
  return [
    `<script src="${escapeAttribute(webTrackingScriptUrl(options.origin))}"></script>`,
    '<script>',
    "// This viewer's image for your page's code; it does not change the Vidalytics player itself.",
    'window.PicSnippetsVidalytics = window.PicSnippetsVidalytics || [];',
    `window.PicSnippetsVidalytics.push(Object.assign(${JSON.stringify(config)}, { image: window.PicSnippets.url(${JSON.stringify(base)}, ${JSON.stringify(params)}, false)${dense} }));`,
    '</script>',
  ].join('\n');
}

/** What Generate produces (docs/export.md "The screen": "generated link and HTML, script output"). */
export interface ExportOutputs {
  /** The direct link: the render URL with the platform's merge tags. */
  link: string;
  /** The HTML to paste (e-mail platforms, or the web page's tagged image); null for players. */
  html: string | null;
  /** The script (web tracking, Wistia, Vidalytics); null for e-mail platforms. */
  script: string | null;
  /**
   * The rule link (docs/rules.md "Links"): the direct link with `/r/` turned into `/l/`, which
   * goes where the rule the image shows says; null for a design without rules.
   */
  ruleLink: string | null;
  /**
   * The canvas (1×) width, px, at which the HTML or the web page's image shows the 2× image
   * (docs/export.md "Density"); null when the outputs keep the 1× image.
   */
  denseWidth: number | null;
}

/**
 * The rule link of a render URL (docs/rules.md "Links"): the same URL and query with its `/r/`
 * path turned into `/l/`; the URL unchanged when it has no render path.
 */
export function ruleLinkOf(renderUrl: string): string {
  return renderUrl.replace(/^((?:https?:\/\/[^/?#]+)?)\/r\//, '$1/l/');
}

/** The image formats the export offers web pages and video players (docs/export.md "Image formats"). */
export const IMAGE_FORMATS = ['jpeg', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface GenerateOptions {
  provider: string | null;
  /** JPEG (the default), or WebP or AVIF for a web page or video player. */
  imageFormat?: ImageFormat;
  rows: readonly ExportRow[];
  pdf: boolean;
  width: number;
  align: HtmlAlignment;
  /** The normalised link URL, '' for none. */
  link: string;
  embedCode: string;
  vidalytics: VidalyticsOptions;
  /** Where `/js/picsnippets.js` is served: the product's origin (the render URL's). */
  origin: string;
  alt: string;
  /**
   * The cache id Generate got for the design as it is (`POST …/cache-id`, `v{version}`): the
   * URL keeps drawing this version after later edits (docs/export.md "Cache id").
   */
  cacheId: string | null;
  /**
   * The names-form signature to put in the URL (`__sf=names&__sig=…`), when the design
   * requires signed URLs (docs/developer-api.md "Signed render URLs"); the platform fills the
   * values in later.
   */
  signature?: string | undefined;
  /**
   * The names-form signature of the 2× path (docs/export.md "Density"), for a signed design's
   * HTML; without it a signed design's outputs keep the 1× image.
   */
  denseSignature?: string | undefined;
  /**
   * The names-form signature of a poll's answer links (the URL's names and `__vote`;
   * docs/polls.md "In the e-mail"), for a signed design; without it a signed design gets no
   * answer buttons.
   */
  voteSignature?: string | undefined;
}

/**
 * Whether Generate's URL names a GIF design's animation (docs/export.md "Animated designs"): an
 * e-mail platform's, for a design that draws a GIF file; web pages and players keep the still.
 */
const emailsAnimation = (
  design: Pick<ExportDesign, 'animated_gif'>,
  provider: string | null,
): boolean => design.animated_gif === true && providerOf(provider).source !== 'page';

/**
 * Whether Generate's outputs use the 2× image (docs/export.md "Density"): not for a PDF, nor a
 * countdown design nor an e-mail's animated GIF (a GIF is answered at 1×), and only when the canvas
 * fits the dense pixel limit at 2× (shared/render-limits.ts `densityFits`).
 */
export function usesDenseImage(
  design: Pick<ExportDesign, 'canvas_width' | 'canvas_height' | 'timer_frames' | 'animated_gif'>,
  pdf: boolean,
  provider: string | null = null,
): boolean {
  return (
    !pdf &&
    (design.timer_frames ?? 0) === 0 &&
    !emailsAnimation(design, provider) &&
    densityFits(design.canvas_width, design.canvas_height, 2)
  );
}

/**
 * The parameter names of the URL Generate makes, which a names-form signature covers
 * (docs/developer-api.md "Signed render URLs").
 */
export function linkParameterNames(
  design: Pick<ExportDesign, 'base_url' | 'timer_frames' | 'animated_gif'>,
  options: Pick<GenerateOptions, 'provider' | 'rows' | 'pdf' | 'cacheId' | 'imageFormat'>,
): string[] {
  const link = buildRenderUrl(urlInputOf(design, options));
  const q = link.indexOf('?');
  return q < 0 ? [] : queryNames(link.slice(q + 1));
}

/**
 * The outputs of Generate (docs/export.md "The screen", docs/export.md "What Generate writes";
 * docs/export.md): for an e-mail platform the URL with its merge tags and the HTML snippet (width
 * in %, alignment, link); for a web page the tagged image and the web-tracking script; for Wistia
 * and Vidalytics their scripts.
 * @throws ExportError `embedCodeRequired` when Wistia's or Vidalytics' embed code names no
 *   video (docs/export.md "The screen"), or when PDF is asked of a player.
 */
export function generateOutputs(
  design: Pick<
    ExportDesign,
    'base_url' | 'rule_links' | 'timer_frames' | 'animated_gif' | 'canvas_width' | 'canvas_height'
  > &
    Partial<Pick<ExportDesign, 'poll' | 'require_signed_urls'>>,
  options: GenerateOptions,
): ExportOutputs {
  const made = ruledOutputs(design, options);
  // A signed design's answer links: the unsigned link with `__vote`, its own signature first.
  const voteLink = (k: number) =>
    options.voteSignature
      ? signedFirst(
          pollVoteLink(ruleLinkOf(buildRenderUrl(urlInputOf(design, options))), k),
          options.voteSignature,
        )
      : pollVoteLink(made.ruleLink ?? ruleLinkOf(made.link), k);
  return { ...made, html: withPollButtons(design, options, made, voteLink) };
}

/**
 * The e-mail HTML with a button per poll answer under the image (docs/polls.md "In the e-mail"),
 * each `voteLink(k)`, the design's link with `__vote={k}`; unchanged without a poll, for a web
 * page or player, and for a design that requires signed URLs without `voteSignature`.
 */
function withPollButtons(
  design: Partial<Pick<ExportDesign, 'poll' | 'require_signed_urls'>>,
  options: GenerateOptions,
  outputs: ExportOutputs,
  voteLink: (k: number) => string,
): string | null {
  const poll = design.poll;
  if (!poll || outputs.html === null) return outputs.html;
  if (design.require_signed_urls === true && !options.voteSignature) return outputs.html;
  if (providerOf(options.provider).source === 'page') return outputs.html;
  const buttons = poll.answers.map((label, k) => ({ label, href: voteLink(k) }));
  return buildPollHtml(
    outputs.html,
    buttons,
    { background: poll.bar_fill, color: '#ffffff' },
    options.align,
  );
}

/** The outputs of {@link generateOutputs} before the poll's buttons. */
function ruledOutputs(
  design: Pick<
    ExportDesign,
    'base_url' | 'rule_links' | 'timer_frames' | 'canvas_width' | 'canvas_height'
  >,
  options: GenerateOptions,
): ExportOutputs {
  const { emailImage, ...shown } = platformOutputs(design, options);
  const outputs = { ...shown, denseWidth: emailImage.width ?? null };
  const rules = design.rule_links ?? [];
  if (rules.length === 0 || outputs.html === null) return { ...outputs, ruleLink: null };
  const ruleLink = ruleLinkOf(outputs.link);
  // The e-mail HTML clicks through the rule link when every outcome has somewhere to go: the
  // design's link (the default's) is set, and some rule has its own.
  const wrap = options.link !== '' && rules.some((url) => url);
  const html =
    wrap && providerOf(options.provider).source !== 'page'
      ? buildHtmlSnippet(emailImage.src, {
          width: options.width,
          align: options.align,
          link: ruleLink,
          alt: options.alt,
          ...(emailImage.width === undefined ? {} : { imageWidth: emailImage.width }),
        })
      : outputs.html;
  return { ...outputs, html, ruleLink };
}

/**
 * The URL with the signature's parameters first, before any value the platform fills in: a `#`
 * in a recipient's value cuts the rest of the URL off in the mail client, never the signature
 * (docs/adr/0054-signed-render-urls.md "Signed render URLs").
 */
function signedFirst(url: string, signature: string): string {
  const q = url.indexOf('?');
  if (q < 0) return `${url}?${signature}`;
  const rest = url.slice(q + 1);
  return `${url.slice(0, q)}?${signature}${rest === '' ? '' : `&${rest}`}`;
}

/**
 * `generateOutputs` before the rule link: what each platform pastes, and the e-mail HTML's
 * image (`src`, and its width attribute when it is the 2× image).
 */
function platformOutputs(
  design: Pick<
    ExportDesign,
    'base_url' | 'timer_frames' | 'animated_gif' | 'canvas_width' | 'canvas_height'
  >,
  options: GenerateOptions,
): Omit<ExportOutputs, 'ruleLink' | 'denseWidth'> & {
  emailImage: { src: string; width?: number };
} {
  const input = urlInputOf(design, options);
  const platform: Provider = providerOf(options.provider);
  const unsigned = buildRenderUrl(input);
  const link = options.signature ? signedFirst(unsigned, options.signature) : unsigned;
  // A signed design's 2× path needs a signature of its own (docs/export.md "Density").
  const dense =
    usesDenseImage(design, input.pdf === true, options.provider) &&
    (!options.signature || options.denseSignature !== undefined);
  const emailImage = dense
    ? {
        src: options.denseSignature
          ? signedFirst(densePath(unsigned, 2), options.denseSignature)
          : densePath(unsigned, 2),
        width: design.canvas_width,
      }
    : { src: link };
  const html = {
    width: options.width,
    align: options.align,
    link: options.link || null,
    alt: options.alt,
  };
  const page = {
    origin: options.origin,
    ...(dense ? { dense: true, imageWidth: design.canvas_width } : {}),
  };
  switch (platform.value) {
    case 'mywebsite': {
      const snippet = buildWebTrackingSnippet(input, { ...html, ...page });
      const [script, ...tagged] = snippet.split('\n');
      return { link, html: tagged.join('\n'), script: script ?? null, emailImage };
    }
    case 'wistia':
      return {
        link,
        html: null,
        script: buildWistiaScript(input, { ...page, embedCode: options.embedCode }),
        emailImage,
      };
    case 'vidalytics':
      return {
        link,
        html: null,
        script: buildVidalyticsScript(input, {
          ...page,
          embedCode: options.embedCode,
          slots: options.vidalytics,
        }),
        emailImage,
      };
    default:
      return {
        link,
        html: buildHtmlSnippet(emailImage.src, {
          ...html,
          ...(emailImage.width === undefined ? {} : { imageWidth: emailImage.width }),
        }),
        script: null,
        emailImage,
      };
  }
}

/** The origin of a render URL (where `/js/picsnippets.js` is served too). */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return '';
  }
}

/**
 * Whether this export window should hand over to its opener (docs/export.md "The screen": "When the
 * export window was opened by another window of the same path, that opener is reloaded and the
 * export window closes"): the OAuth window comes back to the export path, tells the export window
 * it opened from to reload (now with the connection), and closes.
 */
export function opensFromSamePath(
  self: Pick<Location, 'pathname' | 'origin'>,
  opener: { location: Pick<Location, 'pathname' | 'origin'> } | null,
): boolean {
  if (!opener) return false;
  try {
    return opener.location.origin === self.origin && opener.location.pathname === self.pathname;
  } catch {
    // Another origin's window: its location cannot be read.
    return false;
  }
}

/** localStorage key and value of the custom-data intro (docs/export.md "The screen": `customDataModal`, 0 hides). */
export const CUSTOM_DATA_MODAL_KEY = 'customDataModal';

/** Whether the custom-data intro shows (docs/export.md "The screen"). */
export function showCustomDataIntro(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage?.getItem(CUSTOM_DATA_MODAL_KEY) !== '0';
  } catch {
    return true;
  }
}

/**
 * The alt text Generate writes for the chosen platform (docs/export.md "Alt text"): the design's
 * template (or its texts joined) with each merge field in the platform's syntax and the
 * parameter's fallback, from the screen's rows.
 */
export function exportAlt(
  design: Pick<ExportDesign, 'alt_text' | 'text_snippets'>,
  provider: string | null,
  rows: readonly ExportRow[],
): string {
  const template = altTemplate({
    alt_text: design.alt_text ?? null,
    text_snippets: design.text_snippets.map((s) => ({ text: s.text ?? '' })),
  });
  return exportAltText(
    template,
    provider,
    rows.map((r) => ({
      param_name: r.param_name,
      merge_tag_value: r.merge_tag_value,
      fallback: r.fallback,
    })),
  );
}
