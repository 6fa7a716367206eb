/**
 * The export outputs (docs/export.md "What Generate writes": "Export and merge tags";
 * docs/export.md): the rendered image URL, the HTML snippet, the web-tracking snippet and the
 * Wistia script. One builder, used by the export screen and by the tests, so what the tests prove
 * is what users paste.
 *
 * The rendered image URL (docs/export.md "What Generate writes"): `base_url`, the optional cache id
 * segment, the optional `/pdf` segment, then `?` and `param_name=value` pairs joined by `&`.
 * ManyChat's URL starts with `__format=manychat_json`; fixyourfunnel's carries `txt=` only;
 * dynamic-sticker parameters are appended with their values. How the render service reads it back:
 * shared/render-url.ts.
 *
 * A parameter's value is its `merge_tag_value`: the provider's merge tag (written in the URL
 * with the platform's encoding filter, `Provider.urlTag`, and left for the platform to replace)
 * or fixed text (percent-encoded here). An empty value leaves the pair out, so the design's
 * fallback shows. Web pages and video players (mywebsite, Wistia, Vidalytics) get no pairs:
 * the web-tracking script adds them from the page's address.
 */
import type { DynamicStickerType } from './design.ts';
import { PARAMETER_MESSAGES } from './parameter-rules.ts';
import { providerOf, wistiaMediaId, type Provider } from './providers/index.ts';
import { MAX_VALUE_LENGTH } from './scene/resolve.ts';
import { densePath } from './render-url.ts';
import { WEB_TRACKING_SCRIPT_FILE, WEB_TRACKING_SCRIPT_VERSION } from './web-tracking-script.ts';
import { EMAIL_SHAPE, trimEndChar } from './strings.ts';

/** A text parameter or a dynamic sticker's parameter, as the export screen holds it. */
export interface ExportParameter {
  param_name: string;
  /** The chosen merge tag or typed text (docs/export.md "What Generate writes" parameter `merge_tag_value`). */
  merge_tag_value: string | null;
  /** Set for a dynamic sticker's parameter: its kind, for the value rules. */
  dynamicStickerType?: DynamicStickerType | null;
}

export interface RenderUrlInput {
  /** `https://{cdn}/r/{publicId}` (docs/export.md "What Generate writes" pic snippet `base_url`). */
  base_url: string;
  /** `v{version}`: the URL is then cached for a year (README "The render URL"). */
  cacheId?: string | null;
  /** The PDF form (`/pdf`), for plans with `can_export_pdf`. */
  pdf?: boolean;
  /**
   * A design with a countdown timer: the URL ends in `.gif`, the animated GIF it answers
   * (docs/adr/0058-countdown-timers.md "Countdown timers"); not with `pdf`.
   */
  gif?: boolean;
  /**
   * WebP or AVIF for a web page or video player (docs/export.md "Image formats"): the URL ends
   * in `.webp` or `.avif`; not with `pdf`, and a countdown design's `.gif` comes first.
   */
  format?: 'webp' | 'avif' | null;
  /** The design's `merge_tag_provider`; null reads as Custom. */
  provider: string | null;
  /** Text parameters in the design's order (the first is fixyourfunnel's `txt`). */
  parameters: ExportParameter[];
  /** Dynamic stickers' parameters, appended after the text parameters. */
  stickers?: ExportParameter[];
}

/** Refusals of the builders; `message` is for the user. */
export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

/** The spec's messages for export values (docs/export.md "The screen"). */
export const EXPORT_MESSAGES = {
  valueTooLong: PARAMETER_MESSAGES.valueTooLong,
  invalidEmail: 'Invalid email',
  invalidUrl: 'Invalid URL',
  imageType: 'Image not found. We support jpg, jpeg, png, gif and svg',
  /** Shown by the screen when a hosted image's fallback does not load (docs/export.md "The screen"). */
  imageMissing: 'Error: image doesn`t exist',
  embedCodeRequired: 'The video embed code is required.',
  /** A link URL `normaliseLinkUrl` refuses (the screen and `PUT …/link` say the same). */
  linkInvalid: 'The link must be a web address starting with http:// or https://.',
} as const;

/** The query parameter ManyChat's URL starts with (docs/export.md "What Generate writes"). */
export const MANYCHAT_FORMAT = '__format=manychat_json';

/**
 * How a value is written in the URL: the provider's tag with its encoding filter (replaced by
 * the platform later), or fixed text, percent-encoded. Empty: left out.
 */
function urlValue(provider: Provider, value: string | null): string | undefined {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return undefined;
  const tag = provider.parseTag(trimmed);
  if (tag) return provider.urlTag(tag.field, tag.fallback ?? '');
  return encodeURIComponent(value!);
}

/** The first non-empty value of each parameter name (a repeated name is sent once). */
function uniqueByName(parameters: readonly ExportParameter[]): ExportParameter[] {
  const seen = new Map<string, ExportParameter>();
  for (const p of parameters) {
    const known = seen.get(p.param_name);
    if (!known || ((known.merge_tag_value ?? '').trim() === '' && p.merge_tag_value)) {
      seen.set(p.param_name, p);
    }
  }
  return [...seen.values()];
}

/**
 * The render URL's path: base, cache id, `/pdf` (docs/export.md "What Generate writes"),
 * `.gif` for a countdown design (docs/adr/0058-countdown-timers.md "Countdown timers"), else
 * `.webp` or `.avif` when asked (docs/export.md "Image formats").
 */
export function renderPath(
  input: Pick<RenderUrlInput, 'base_url' | 'cacheId' | 'pdf' | 'gif' | 'format'>,
): string {
  const ending =
    input.pdf || input.base_url === ''
      ? ''
      : input.gif
        ? '.gif'
        : input.format
          ? `.${input.format}`
          : '';
  return `${trimEndChar(input.base_url, '/')}${input.cacheId ? `/${input.cacheId}` : ''}${
    input.pdf ? '/pdf' : ''
  }${ending}`;
}

/**
 * The rendered image URL for a provider (docs/export.md "What Generate writes").
 * @returns the URL with the platform's merge tags in it (not yet a working URL until the
 *   platform replaces them).
 * @throws ExportError when the PDF form is asked for a provider that cannot show it (docs/export.md "The screen": not website, wistia, vidalytics).
 */
export function buildRenderUrl(input: RenderUrlInput): string {
  const provider = providerOf(input.provider);
  if (input.pdf && !provider.allowsPdf) {
    throw new ExportError(`${provider.label} shows an image: the PDF form is not available.`);
  }
  const path = renderPath(input);
  if (provider.source === 'page') return path;
  const pair = (p: ExportParameter, name = p.param_name) => {
    const value = urlValue(provider, p.merge_tag_value);
    return value === undefined ? undefined : `${encodeURIComponent(name)}=${value}`;
  };
  const text = uniqueByName(input.parameters);
  const textPairs =
    provider.urlForm === 'txt'
      ? [text[0] ? pair(text[0], 'txt') : undefined]
      : text.map((p) => pair(p));
  const stickerPairs = uniqueByName(input.stickers ?? []).map((p) => pair(p));
  const pairs = [
    ...(provider.urlForm === 'manychat' ? [MANYCHAT_FORMAT] : []),
    ...textPairs,
    ...stickerPairs,
  ].filter((p): p is string => p !== undefined);
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** What a page provider's script reads: `param` or `param:pageParameter` entries (see script). */
export function pageParameterList(
  parameters: readonly ExportParameter[],
  stickers: readonly ExportParameter[] = [],
): string {
  return uniqueByName([...parameters, ...stickers])
    .map((p) => {
      const from = providerOf('mywebsite').parseTag(p.merge_tag_value ?? '')?.field;
      return from && from !== p.param_name ? `${p.param_name}:${from}` : p.param_name;
    })
    .join(',');
}

/** Alignment of the HTML image (docs/export.md "The screen"). */
export type HtmlAlignment = 'left' | 'center' | 'right';

export interface HtmlOptions {
  /** Width in percent of the container, 0–100, default 100 (docs/export.md "The screen"). */
  width?: number;
  align?: HtmlAlignment;
  /** Where a click goes (the design's normalised `html_link_url`); none: no link. */
  link?: string | null;
  alt?: string;
  /**
   * The image's width attribute, px: the canvas (1×) width when the `src` is the 2× image
   * (docs/export.md "Density"), so a client that sizes by the attribute (Outlook desktop) shows
   * it at its 1× size. Absent: no attribute.
   */
  imageWidth?: number;
}

/** Escapes text for an HTML attribute value in double quotes. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function clampWidth(width: number | undefined): number {
  if (width === undefined || !Number.isFinite(width)) return 100;
  return Math.min(100, Math.max(0, Math.round(width)));
}

function wrap(img: string, options: HtmlOptions): string {
  const linked = options.link
    ? `<a href="${escapeAttribute(options.link)}" target="_blank" rel="noopener">${img}</a>`
    : img;
  return `<div style="text-align:${options.align ?? 'center'}">${linked}</div>`;
}

const imgStyle = (options: HtmlOptions) =>
  `width:${clampWidth(options.width)}%;height:auto;border:0;display:inline-block`;

/** ` width="{px}"` for {@link HtmlOptions.imageWidth}, or nothing. */
const widthAttribute = (options: HtmlOptions) =>
  options.imageWidth === undefined ? '' : ` width="${Math.round(options.imageWidth)}"`;

/**
 * The HTML snippet for e-mail (docs/export.md "The screen": "HTML width … and alignment, link
 * URL"): the image in a div aligned as asked, linked when a link is given. `&` in the URL is
 * written `&amp;`, as HTML wants; merge tags hold no character that is escaped, so platforms still
 * find them.
 */
export function buildHtmlSnippet(url: string, options: HtmlOptions = {}): string {
  const img = `<img src="${escapeAttribute(url)}"${widthAttribute(options)} alt="${escapeAttribute(options.alt ?? '')}" style="${imgStyle(options)}">`;
  return wrap(img, options);
}

/** The address of the web-tracking script on the product's origin, versioned for caching. */
export function webTrackingScriptUrl(origin: string): string {
  return `${trimEndChar(origin, '/')}/js/${WEB_TRACKING_SCRIPT_FILE}?v=${WEB_TRACKING_SCRIPT_VERSION}`;
}

export interface WebTrackingOptions extends HtmlOptions {
  /** The product's origin, where `/js/picsnippets.js` is served. */
  origin: string;
  /** Keep values found in the address in localStorage for later pages. */
  remember?: boolean;
  /**
   * Offer the 2× image too (docs/export.md "Density"): `srcset` with the 1× and 2× URLs, and
   * `data-picsnippet-2x` for the script to fill; `imageWidth` should then be the canvas width.
   */
  dense?: boolean;
}

/**
 * The snippet for a web page (mywebsite): the script tag and a tagged image whose `src` starts
 * as the all-fallback render (so a page without JavaScript still shows the image) and is set by
 * the script from the page's query parameters.
 */
export function buildWebTrackingSnippet(
  input: RenderUrlInput,
  options: WebTrackingOptions,
): string {
  const base = buildRenderUrl({ ...input, provider: 'mywebsite' });
  const params = pageParameterList(input.parameters, input.stickers);
  const dense = options.dense ? densePath(base, 2) : undefined;
  const img =
    `<img src="${escapeAttribute(base)}" data-picsnippet="${escapeAttribute(base)}"` +
    (dense
      ? ` srcset="${escapeAttribute(`${base} 1x, ${dense} 2x`)}" data-picsnippet-2x="${escapeAttribute(dense)}"`
      : '') +
    ` data-picsnippet-params="${escapeAttribute(params)}"` +
    (options.remember ? ' data-picsnippet-remember' : '') +
    widthAttribute(options) +
    ` alt="${escapeAttribute(options.alt ?? '')}" style="${imgStyle(options)}">`;
  return `<script src="${escapeAttribute(webTrackingScriptUrl(options.origin))}"></script>\n${wrap(img, options)}`;
}

/**
 * The Wistia script (docs/providers.md "Wistia"): put after the pasted embed code, it sets the
 * video's thumbnail (`stillUrl` embed option, through `window._wq`) to the render URL filled
 * from the page's address.
 * @throws ExportError `embedCodeRequired` when the embed code names no Wistia media (docs/export.md "The screen").
 */
export function buildWistiaScript(
  input: RenderUrlInput,
  options: { origin: string; embedCode: string; remember?: boolean; dense?: boolean },
): string {
  const mediaId = wistiaMediaId(options.embedCode);
  if (!mediaId) throw new ExportError(EXPORT_MESSAGES.embedCodeRequired);
  const url = buildRenderUrl({ ...input, provider: 'wistia' });
  // The player draws its still at the player's size, mostly wider than the canvas: the 2×
  // image when `dense` (docs/export.md "Density").
  const base = options.dense ? densePath(url, 2) : url;
  const params = pageParameterList(input.parameters, input.stickers);
  const still = `window.PicSnippets.url(${JSON.stringify(base)}, ${JSON.stringify(params)}, ${options.remember ? 'true' : 'false'})`;
  return [
    `<script src="${escapeAttribute(webTrackingScriptUrl(options.origin))}"></script>`,
    '<script>',
    'window._wq = window._wq || [];',
    `window._wq.push({ id: ${JSON.stringify(mediaId)}, options: { stillUrl: ${still} } });`,
    '</script>',
  ].join('\n');
}

const isHttpUrl = (value: string): URL | undefined => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
};

/** `name:` at the start, as a scheme is written (RFC 3986 §3.1). */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** What follows `host:` when it is a port, not a scheme's data: digits, then the end or a `/?#`. */
const PORT_AFTER_COLON = /^\d{1,5}(?:[/?#]|$)/;

/**
 * Normalises a link URL (docs/export.md "What Generate writes": "normalised html_link_url"): trimmed; `https://` added when
 * no scheme is written (`example.com/x`, `example.com:8080/x`, `localhost:3000`, `//host`);
 * only http(s) links are kept, so `javascript:`, `data:`, `mailto:`, `ftp://` are refused. The
 * host comes back lower-case and in punycode (`bücher.de` → `xn--bcher-kva.de`), as the WHATWG
 * URL parser writes it; a host with a space is refused.
 * @returns the normalised URL, '' for an empty input, or undefined when it is not a web link.
 */
export function normaliseLinkUrl(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return '';
  let withScheme: string;
  if (trimmed.startsWith('//')) withScheme = `https:${trimmed}`;
  else {
    const scheme = SCHEME.exec(trimmed);
    // `host:8080/x` reads as scheme `host` to a URL parser; a port after the colon says it is not.
    const isScheme = scheme && !PORT_AFTER_COLON.test(trimmed.slice(scheme[0].length));
    withScheme = isScheme ? trimmed : `https://${trimmed}`;
  }
  return isHttpUrl(withScheme)?.href;
}

/**
 * The problem with one export value, or null (docs/export.md "The screen" sticker fallbacks): at
 * most 255 characters; a dynamic sticker's fixed value must suit its kind: an e-mail for a
 * Gravatar, an http(s) image URL (gif, jpg, jpeg, svg, png, and webp in the export form) for a
 * hosted image, a URL for a screenshot (the export form accepts it without a protocol). A merge
 * tag is checked for length only: the platform fills it in later.
 */
export function exportValueProblem(provider: Provider, parameter: ExportParameter): string | null {
  const value = (parameter.merge_tag_value ?? '').trim();
  if (Array.from(value).length > MAX_VALUE_LENGTH) return EXPORT_MESSAGES.valueTooLong;
  if (value === '' || provider.parseTag(value)) return null;
  switch (parameter.dynamicStickerType) {
    case 'gravatar':
      return EMAIL_SHAPE.test(value) ? null : EXPORT_MESSAGES.invalidEmail;
    case 'hostedImage': {
      const url = isHttpUrl(value);
      if (!url) return EXPORT_MESSAGES.invalidUrl;
      return /\.(gif|jpe?g|svg|png|webp)$/i.test(url.pathname) ? null : EXPORT_MESSAGES.imageType;
    }
    case 'screenShot':
      return normaliseLinkUrl(value) ? null : EXPORT_MESSAGES.invalidUrl;
    default:
      return null;
  }
}

/** Every problem of an export's values, by parameter name (for a 422 or the screen's fields). */
export function exportProblems(input: RenderUrlInput): Record<string, string[]> {
  const provider = providerOf(input.provider);
  const out: Record<string, string[]> = {};
  for (const p of [...input.parameters, ...(input.stickers ?? [])]) {
    const problem = exportValueProblem(provider, p);
    if (problem) (out[p.param_name] ??= []).push(problem);
  }
  return out;
}

/**
 * Whether Generate is enabled (docs/export.md "The screen"): web tracking always; Wistia and
 * Vidalytics once the embed code is pasted; otherwise when every parameter has a value and the
 * preview loaded.
 */
export function canGenerate(
  input: RenderUrlInput,
  state: { previewLoaded: boolean; embedCode?: string },
): boolean {
  const provider = providerOf(input.provider);
  if (provider.value === 'mywebsite') return true;
  if (provider.value === 'wistia' || provider.value === 'vidalytics') {
    return (state.embedCode ?? '').trim() !== '';
  }
  return (
    state.previewLoaded &&
    input.parameters.every((p) => (p.merge_tag_value ?? '').trim() !== '') &&
    Object.keys(exportProblems(input)).length === 0
  );
}
