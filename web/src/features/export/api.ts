/**
 * The export screen's calls (docs/export.md "What Generate writes": "Export and merge tags"): the
 * design, the merge tags of a platform (on the typed client: shared/contract/merge-tags.ts), and
 * the three saves `PUT /api/pic-snippet/{id}/provider`, `/choices`, `/link`
 * (functions/designs/export.ts). Design answers are checked at the edge: missing fields get safe
 * defaults, a design without an id is refused.
 */
import type { BodyOf } from '#shared/contract/index.ts';
import type { MergeTagList, StoreFront } from '#shared/contract/merge-tags.ts';
import { ApiError, call } from '../../api/client.ts';
import type { ExportDesign, ExportRow } from './model.ts';
import { openTimeFacts, type OpenTimeDesign } from './openTime.ts';

export type { MergeTagList, StoreFront } from '#shared/contract/merge-tags.ts';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const number = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

const NOT_A_DESIGN = 'The server answered with a design this screen cannot open.';

const STICKER_TYPES = [
  'qrCode',
  'hostedImage',
  'screenShot',
  'gravatar',
  'countdown',
  'poll',
  'weather',
] as const;

/** A design answer as the screen reads it. @throws {ApiError} when it is not a design. */
export function toExportDesign(body: unknown): ExportDesign & OpenTimeDesign {
  if (!isRecord(body) || typeof body.id !== 'string') throw new ApiError(200, NOT_A_DESIGN);
  return {
    open_time: openTimeFacts(body),
    id: body.id,
    title: text(body.title, 'Untitled'),
    version: number(body.version, 0),
    base_url: text(body.base_url),
    preview_url: text(body.preview_url, text(body.base_url)),
    canvas_width: number(body.canvas_width, 900),
    canvas_height: number(body.canvas_height, 600),
    merge_tag_provider:
      typeof body.merge_tag_provider === 'string' ? body.merge_tag_provider : null,
    merge_tag_storefront:
      typeof body.merge_tag_storefront === 'string' ? body.merge_tag_storefront : null,
    merge_tag_choices: list(body.merge_tag_choices)
      .filter(isRecord)
      .map((c) => ({
        key: text(c.key),
        merge_tag_name: text(c.merge_tag_name),
        merge_tag_value: text(c.merge_tag_value),
      })),
    html_link_url: typeof body.html_link_url === 'string' ? body.html_link_url : null,
    require_signed_urls: body.require_signed_urls === true,
    alt_text: typeof body.alt_text === 'string' ? body.alt_text : null,
    ...(Array.isArray(body.rules) && body.rules.length > 0
      ? {
          rule_links: list(body.rules).map((r) =>
            isRecord(r) && typeof r.link_url === 'string' ? r.link_url : null,
          ),
        }
      : {}),
    text_snippets: list(body.text_snippets)
      .filter(isRecord)
      .map((s) => ({
        text: text(s.text),
        parameters: list(s.parameters)
          .filter((p): p is Record<string, unknown> => isRecord(p) && typeof p.id === 'string')
          .map((p) => ({
            id: p.id as string,
            param_name: text(p.param_name),
            param_default_value: text(p.param_default_value),
            merge_tag_value: typeof p.merge_tag_value === 'string' ? p.merge_tag_value : null,
          })),
      })),
    graphics_data: list(body.graphics_data)
      .filter((s): s is Record<string, unknown> => isRecord(s) && typeof s.uuid === 'string')
      .map((s) => ({
        uuid: s.uuid as string,
        stickerType: text(s.stickerType, 'plain'),
        dynamicStickerType: STICKER_TYPES.find((t) => t === s.dynamicStickerType) ?? null,
        dynamicStickerParamName:
          typeof s.dynamicStickerParamName === 'string' ? s.dynamicStickerParamName : null,
        dynamicStickerUrl: text(s.dynamicStickerUrl),
        countdownMode: isRecord(s.countdown)
          ? s.countdown.mode !== 'evergreen'
            ? ('fixed' as const)
            : s.countdown.start === 'first_open'
              ? ('first_open' as const)
              : ('evergreen' as const)
          : null,
      })),
    timer_frames: timerFrames(body.graphics_data),
    // What the design draws, whatever its signing: "Require signed URLs" may change on the
    // screen, and Generate keeps the still while it is on (useExportForm.ts `generate`).
    animated_gif: drawsGifFile(body),
    poll: pollOf(body.graphics_data),
  };
}

/**
 * The design draws a GIF file: its base photo's key or a plain image sticker's url ends in
 * `.gif`, as the render decides (docs/animated-designs.md "The URL").
 */
function drawsGifFile(body: Record<string, unknown>): boolean {
  const gif = (v: unknown) => typeof v === 'string' && v.toLowerCase().endsWith('.gif');
  return (
    gif(body.base_image_key) ||
    list(body.graphics_data).some(
      (s) => isRecord(s) && s.stickerType !== 'dynamicSticker' && gif(s.url),
    )
  );
}

/** The design's poll as the e-mail HTML needs it (docs/polls.md "In the e-mail"), or null. */
function pollOf(graphics: unknown): ExportDesign['poll'] {
  const sticker = list(graphics)
    .filter(isRecord)
    .find((s) => s.dynamicStickerType === 'poll' && isRecord(s.poll));
  if (!sticker) return null;
  const poll = sticker.poll as Record<string, unknown>;
  return {
    answers: list(poll.options)
      .filter(isRecord)
      .map((o) => text(o.label)),
    bar_fill: text(poll.bar_fill, '#4f7cff'),
  };
}

/**
 * The GIF frames of a design's countdown timers (the most any asks, as the render makes them;
 * docs/adr/0058-countdown-timers.md "Countdown timers"), or null without a timer.
 */
function timerFrames(graphics: unknown): number | null {
  const frames = list(graphics)
    .filter(isRecord)
    .filter((s) => s.dynamicStickerType === 'countdown' && isRecord(s.countdown))
    .map((s) => number((s.countdown as Record<string, unknown>).frames, 30));
  return frames.length > 0 ? Math.max(...frames) : null;
}

/** `GET /api/pic-snippet/{id}`. @throws {ApiError} 404 for another team's design. */
export async function fetchExportDesign(
  id: string,
  signal?: AbortSignal,
): Promise<ExportDesign & OpenTimeDesign> {
  return toExportDesign(await call('GET /api/pic-snippet/{id}', { params: { id }, signal }));
}

/** `GET /api/merge-tag/storeFront`: Klaviyo's storefronts. */
export const fetchStoreFronts = (signal?: AbortSignal): Promise<StoreFront[]> =>
  call('GET /api/merge-tag/storeFront', { signal });

/**
 * `POST /api/merge-tag` (docs/export.md "What Generate writes"): the platform's merge tags, with
 * `message` when live fields are missing and Keap's `authorize_url` when Keap is configured.
 * @param provider a platform of `GET /api/merge-tag/providers`; the server refuses any other
 *   (422 on `provider`).
 * @param accessToken a pasted credential (Klaviyo private key, ManyChat page API key), if any.
 * @throws {ApiError} 422 on `access_token` when the platform refuses the credential.
 */
export async function fetchMergeTags(
  provider: string,
  options: { accessToken?: string; storeFront?: string | null; signal?: AbortSignal } = {},
): Promise<MergeTagList> {
  const answer = await call('POST /api/merge-tag', {
    body: {
      provider: provider as BodyOf<'POST /api/merge-tag'>['provider'],
      ...(options.accessToken ? { access_token: options.accessToken } : {}),
      ...(provider === 'klaviyo' && options.storeFront ? { storeFront: options.storeFront } : {}),
    },
    signal: options.signal,
  });
  return { ...answer, merge_tags: answer.merge_tags.filter((t) => t.merge_tag_value !== '') };
}

/** What the saves answer: the new version. */
interface Saved {
  version: number;
}

/** `PUT …/provider` (docs/export.md "The screen": the platform is saved when chosen; Custom is ''). */
export async function saveProvider(
  id: string,
  provider: string,
  storefront: string | null,
): Promise<Saved> {
  const { version } = await call('PUT /api/pic-snippet/{id}/provider', {
    params: { id },
    body: { merge_tag_provider: provider, merge_tag_storefront: storefront },
  });
  return { version };
}

/** `PUT …/choices`: every parameter's value and the choices, keyed by parameter name. */
export async function saveChoices(id: string, rows: readonly ExportRow[]): Promise<Saved> {
  const parameters = rows.flatMap((r) =>
    r.parameterId === null ? [] : [{ id: r.parameterId, merge_tag_value: r.merge_tag_value }],
  );
  const seen = new Set<string>();
  const choices = rows
    .filter((r) => r.merge_tag_value.trim() !== '')
    .filter((r) => !seen.has(r.param_name) && seen.add(r.param_name))
    .map((r) => ({
      key: r.param_name,
      merge_tag_name: r.merge_tag_name,
      merge_tag_value: r.merge_tag_value,
    }));
  const { version } = await call('PUT /api/pic-snippet/{id}/choices', {
    params: { id },
    body: { text_snippets: [{ parameters }], merge_tag_choices: choices },
  });
  return { version };
}

/** `PUT …/link` (docs/export.md "What Generate writes": "normalised html_link_url"). */
export async function saveLink(id: string, link: string): Promise<Saved> {
  const { version } = await call('PUT /api/pic-snippet/{id}/link', {
    params: { id },
    body: { html_link_url: link },
  });
  return { version };
}

/**
 * `POST …/cache-id` (Generate; docs/export.md "Cache id"): keeps the design as it is now and
 * answers the cache id naming it (`v{version}`), for the render URL's cache id segment.
 * @throws ApiError as `api` does (404 for a design of another team).
 */
export async function createCacheId(id: string): Promise<string> {
  const { cache_id: cacheId } = await call('POST /api/pic-snippet/{id}/cache-id', {
    params: { id },
  });
  // It goes into the render URL's path: only the characters a cache id segment may hold.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cacheId)) {
    throw new Error('The server did not name the version to export.');
  }
  return cacheId;
}

/**
 * The names-form signature of the render URL with these parameter names (`POST
 * /api/pic-snippet/{id}/sign`; docs/developer-api.md "Signed render URLs"), as the query
 * parameters to append: `__sf=names&__sig=…`; with `density` 2, of the 2× path
 * (docs/export.md "Density").
 * @throws ApiError as the call does (409 when the team has no signing secret).
 */
export async function namesSignature(
  designId: string,
  names: readonly string[],
  cacheId: string | null,
  pdf: boolean,
  format: 'webp' | 'avif' | null = null,
  density?: 2,
): Promise<string> {
  const { url } = await call('POST /api/pic-snippet/{id}/sign', {
    params: { id: designId },
    body: {
      form: 'names',
      parameters: names.map((name) => ({ name, value: '' })),
      ...(cacheId ? { cache_id: cacheId } : {}),
      ...(pdf ? { format: 'pdf' as const } : format ? { format } : {}),
      ...(density ? { density } : {}),
    },
  });
  const signature = new URL(url).searchParams.get('__sig');
  if (!signature) throw new ApiError(200, 'The server did not sign the URL.');
  return `__sf=names&__sig=${signature}`;
}
