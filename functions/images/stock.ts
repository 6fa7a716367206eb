/**
 * Stock-photo search (docs/adr/0017-user-files.md "User files" Images panel "stock-photo search",
 * Image "from (stock-photo service …), user name and link
 * for attribution", docs/adr/0017-user-files.md "User files" `GET /api/search-images/{query}`
 * (page); docs/adr/0027-editor-extras-and-stock-photos.md "Editor extras and stock photos") through
 * Unsplash and Pixabay, with keys from config (`UNSPLASH_ACCESS_KEY`, `PIXABAY_API_KEY`). Without
 * keys the search answers `configured: false` and the panel says stock search is not configured
 * (the explicit offline mode of docs/operations.md "First start"): nothing is called.
 *
 * Every call to a service goes through the SSRF-safe client with a time budget and a body cap
 * (functions/merge-tags/provider-http.ts, docs/security.md "Uploaded files"). A chosen photo is
 * imported: the server asks the service for the photo by its id (it never trusts an image URL sent
 * by the browser), tells Unsplash about the download as its API guidelines require, fetches the
 * bytes through the guard and stores them as a team upload with the same checks as any upload
 * (functions/images/library.ts), with the photographer's name and link kept for attribution.
 *
 * Keys never reach logs or answers: errors name the service and the failure only.
 */
import { z } from 'zod';
import { config } from '#lib/config.ts';
import { AppError, validationFailed } from '#lib/errors.ts';
import { MAX_IMAGE_BYTES } from '#lib/uploads.ts';
import { UrlRefused } from '#lib/ssrf.ts';
import {
  ProviderCallError,
  providerGetJson,
  providerGuard,
} from '#functions/merge-tags/provider-http.ts';
import { storeUpload } from './library.ts';
import { trimEndChar } from '#shared/strings.ts';
import {
  STOCK_SOURCES,
  type StockImage,
  type StockPage,
  type StockSource,
} from '#shared/contract/images.ts';

/** Results per page: four rows of the six-column picker, like the library. */
export const STOCK_PAGE_SIZE = 24;
/** The last page a service serves (Pixabay stops at 500 hits; Unsplash pages are capped too). */
const MAX_PAGE = 20;
/** Budget for one service call, ms. */
const CALL_TIMEOUT_MS = 5000;
/** Budget for downloading a chosen photo, ms. */
const DOWNLOAD_TIMEOUT_MS = 15_000;
/** Longest edge asked of Unsplash for an imported photo, px (the canvas is at most 1056 px). */
const IMPORT_EDGE_PX = 2048;
/** Shown when no service has a key (docs/operations.md "First start" offline mode). */
export const STOCK_NOT_CONFIGURED = 'Stock photo search is not configured on this server.';
/** Shown when the service could not be reached or refused the key. */
export const STOCK_UNAVAILABLE = 'Stock photo search is unavailable right now. Try again later.';

/** Attribution links back to Unsplash carry the app's name (Unsplash API guidelines). */
const UTM = 'utm_source=picsnippets&utm_medium=referral';
const withUtm = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${UTM}`;

const UnsplashPhoto = z.object({
  id: z.string(),
  width: z.number(),
  height: z.number(),
  description: z.string().nullish(),
  alt_description: z.string().nullish(),
  urls: z.object({ raw: z.string(), small: z.string(), thumb: z.string() }),
  links: z.object({ html: z.string(), download_location: z.string() }),
  user: z.object({ name: z.string(), links: z.object({ html: z.string() }) }),
});
const UnsplashSearch = z.object({
  total_pages: z.number(),
  results: z.array(UnsplashPhoto),
});

const PixabayHit = z.object({
  id: z.number(),
  pageURL: z.string(),
  previewURL: z.string(),
  webformatURL: z.string(),
  largeImageURL: z.string(),
  imageWidth: z.number(),
  imageHeight: z.number(),
  tags: z.string().default(''),
  user: z.string(),
  user_id: z.number(),
});
const PixabaySearch = z.object({ totalHits: z.number(), hits: z.array(PixabayHit) });

/** A service's settings: its API origin (tests point it at a fake) and key. */
interface Service {
  base: string;
  key: string;
}

/**
 * The configured services, Unsplash first. API origins may be overridden with
 * `STOCK_API_URLS` (`unsplash=http://…,pixabay=http://…`), for tests against a fake server.
 */
export function stockServices(): Partial<Record<StockSource, Service>> {
  const c = config();
  const bases: Record<StockSource, string> = {
    unsplash: 'https://api.unsplash.com',
    pixabay: 'https://pixabay.com',
  };
  for (const entry of (c.STOCK_API_URLS ?? '').split(',')) {
    const [name, url] = entry.split('=', 2).map((s) => s.trim());
    if ((STOCK_SOURCES as readonly string[]).includes(name ?? '') && url)
      bases[name as StockSource] = trimEndChar(url, '/');
  }
  const out: Partial<Record<StockSource, Service>> = {};
  if (c.UNSPLASH_ACCESS_KEY) out.unsplash = { base: bases.unsplash, key: c.UNSPLASH_ACCESS_KEY };
  if (c.PIXABAY_API_KEY) out.pixabay = { base: bases.pixabay, key: c.PIXABAY_API_KEY };
  return out;
}

/** One JSON GET to a service; every failure becomes a 502 with {@link STOCK_UNAVAILABLE}. */
async function serviceGet<T>(
  source: StockSource,
  url: string,
  headers: Record<string, string>,
  schema: z.ZodType<T>,
): Promise<T> {
  try {
    const answer = await providerGetJson(providerGuard(), url, {
      headers,
      timeoutMs: CALL_TIMEOUT_MS,
    });
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new ProviderCallError('bad_answer', 'unexpected answer shape');
    return parsed.data;
  } catch (error) {
    const failure = error instanceof ProviderCallError ? error.failure : 'unreachable';
    // The URL may hold a key (Pixabay takes it in the query): only the service and the failure.
    throw new AppError(502, 'stock_unavailable', STOCK_UNAVAILABLE, { source, failure });
  }
}

const unsplashHeaders = (service: Service) => ({
  authorization: `Client-ID ${service.key}`,
  'accept-version': 'v1',
});

function unsplashImage(photo: z.output<typeof UnsplashPhoto>): StockImage {
  return {
    id: photo.id,
    from: 'unsplash',
    thumb: photo.urls.small,
    width: photo.width,
    height: photo.height,
    description: photo.alt_description ?? photo.description ?? '',
    user: { name: photo.user.name, link: withUtm(photo.user.links.html) },
    link: withUtm(photo.links.html),
  };
}

function pixabayImage(hit: z.output<typeof PixabayHit>): StockImage {
  return {
    id: String(hit.id),
    from: 'pixabay',
    thumb: hit.webformatURL,
    width: hit.imageWidth,
    height: hit.imageHeight,
    description: hit.tags,
    user: {
      name: hit.user,
      link: `https://pixabay.com/users/${encodeURIComponent(hit.user)}-${hit.user_id}/`,
    },
    link: hit.pageURL,
  };
}

/**
 * Searches stock photos (docs/adr/0017-user-files.md "User files" `GET /api/search-images/{query}`
 * with `page`).
 * @param query the words typed (1–100 characters after trimming; the panel debounces 700 ms,
 *   docs/editor.md "Constants").
 * @param page 1-based; pages past the service's last answer empty.
 * @param source a service to ask; default the first configured (Unsplash, then Pixabay).
 * @returns the page; `configured: false` with {@link STOCK_NOT_CONFIGURED} when no service has
 *   a key (nothing is called).
 * @throws AppError 422 for an empty or too long query or an unknown/unconfigured source, 502
 *   with {@link STOCK_UNAVAILABLE} when the service fails.
 */
export async function searchStockImages(
  query: string,
  page: number,
  source?: StockSource,
): Promise<StockPage> {
  const services = stockServices();
  const chosen = source ?? STOCK_SOURCES.find((s) => services[s]);
  const words = query.trim();
  if (!chosen) {
    return {
      configured: false,
      source: null,
      data: [],
      current_page: page,
      last_page: 1,
      message: STOCK_NOT_CONFIGURED,
    };
  }
  const service = services[chosen];
  if (!service) throw validationFailed({ source: [`${chosen} is not configured on this server.`] });
  if (words.length === 0 || words.length > 100) {
    throw validationFailed({ query: ['Type between 1 and 100 characters to search.'] });
  }
  if (page > MAX_PAGE) {
    return { configured: true, source: chosen, data: [], current_page: page, last_page: MAX_PAGE };
  }
  const q = encodeURIComponent(words);
  if (chosen === 'unsplash') {
    const answer = await serviceGet(
      'unsplash',
      `${service.base}/search/photos?query=${q}&page=${page}&per_page=${STOCK_PAGE_SIZE}&content_filter=high`,
      unsplashHeaders(service),
      UnsplashSearch,
    );
    return {
      configured: true,
      source: 'unsplash',
      data: answer.results.map(unsplashImage),
      current_page: page,
      last_page: Math.max(1, Math.min(MAX_PAGE, answer.total_pages)),
    };
  }
  const answer = await serviceGet(
    'pixabay',
    `${service.base}/api/?key=${encodeURIComponent(service.key)}&q=${q}&page=${page}&per_page=${STOCK_PAGE_SIZE}&image_type=photo&safesearch=true`,
    {},
    PixabaySearch,
  );
  return {
    configured: true,
    source: 'pixabay',
    data: answer.hits.map(pixabayImage),
    current_page: page,
    last_page: Math.max(1, Math.min(MAX_PAGE, Math.ceil(answer.totalHits / STOCK_PAGE_SIZE))),
  };
}

/** Where to download a photo from, and who took it. */
interface ImportTarget {
  download: string;
  image: StockImage;
  /** Unsplash only: the download event to report (API guidelines). */
  track?: string;
}

async function importTarget(source: StockSource, service: Service, id: string) {
  if (source === 'unsplash') {
    const photo = await serviceGet(
      'unsplash',
      `${service.base}/photos/${encodeURIComponent(id)}`,
      unsplashHeaders(service),
      UnsplashPhoto,
    );
    const raw = new URL(photo.urls.raw);
    raw.searchParams.set('w', String(IMPORT_EDGE_PX));
    raw.searchParams.set('fm', 'jpg');
    raw.searchParams.set('q', '85');
    return {
      download: raw.toString(),
      image: unsplashImage(photo),
      track: photo.links.download_location,
    } satisfies ImportTarget;
  }
  const answer = await serviceGet(
    'pixabay',
    `${service.base}/api/?key=${encodeURIComponent(service.key)}&id=${encodeURIComponent(id)}`,
    {},
    PixabaySearch,
  );
  const hit = answer.hits[0];
  if (!hit) throw new AppError(404, 'not_found', 'That photo is no longer available.');
  return { download: hit.largeImageURL, image: pixabayImage(hit) } satisfies ImportTarget;
}

/**
 * Imports a chosen stock photo into the team's uploads, so designs use our own copy (the
 * render path never fetches from a stock service).
 * @param teamId the caller's current team.
 * @param source the service; `id` the service's photo id (from a search answer).
 * @returns the stored image record, with `author` (photographer), `authorUrl` and `licence`.
 * @throws AppError 422 for an unconfigured source or a refused image (the upload checks), 404
 *   when the service no longer has the photo, 502 with {@link STOCK_UNAVAILABLE} when the
 *   service or the download fails. Nothing is stored on any failure.
 */
export async function importStockImage(teamId: string, source: StockSource, id: string) {
  const service = stockServices()[source];
  if (!service) throw validationFailed({ source: [STOCK_NOT_CONFIGURED] });
  const target = await importTarget(source, service, id);
  if (target.track) {
    // Best effort: a failed report must not fail the user's import.
    await serviceGet('unsplash', target.track, unsplashHeaders(service), z.unknown()).catch(
      () => undefined,
    );
  }
  let bytes: Buffer;
  try {
    const answer = await providerGuard().fetch(target.download, {
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBytes: MAX_IMAGE_BYTES,
      accept: 'image/*',
      allowedContentTypes: /^image\//,
    });
    if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    bytes = answer.body;
  } catch (error) {
    const failure = error instanceof UrlRefused ? error.reason : 'download';
    throw new AppError(502, 'stock_unavailable', STOCK_UNAVAILABLE, { source, failure });
  }
  const licence = source === 'unsplash' ? 'Unsplash License' : 'Pixabay Content License';
  return storeUpload(
    teamId,
    {
      image: {
        filename: `${source}-${id}.jpg`,
        mimetype: 'image/jpeg',
        encoding: '7bit',
        content: bytes,
      },
    },
    {
      title: (target.image.description || `Photo by ${target.image.user.name}`).slice(0, 255),
      author: target.image.user.name,
      authorUrl: target.image.user.link,
      licence: `${licence} · ${target.image.link}`,
    },
  );
}
