/**
 * The font calls of the SPA (docs/fonts.md "Uploads": "Images, stickers, fonts"): the picker's
 * server groups (`GET /api/fonts`), the team's uploaded fonts (`GET /getCustomFonts`) and the
 * upload (`POST /storeFont`, multipart field `file`), typed by their contract
 * (shared/contract/fonts.ts), so screens get typed data or an {@link ApiError}.
 */
import type { AnswerOf } from '#shared/contract/index.ts';
import type { CustomFont, FontFileFormat, FontGroup } from '#shared/fonts/types.ts';
import { apiUpload, call, type UploadProgress } from '../../api/client.ts';

/** The font list the server offers: the groups, and the CDN base when one is configured. */
export interface FontList {
  groups: FontGroup[];
  cdnUrl: string | null;
}

/** `GET /api/fonts`: the picker's server groups (built-in, then one per category). */
export async function fetchFontList(signal?: AbortSignal): Promise<FontList> {
  const { groups, cdnUrl } = await call('GET /api/fonts', { signal });
  return { groups, cdnUrl };
}

/** The spec's `customFonts` shape: names and paths, index by index (docs/fonts.md "Uploads"). */
interface CustomFontsBody {
  names?: unknown;
  path?: unknown;
}

const FORMATS: Record<string, FontFileFormat> = {
  ttf: 'truetype',
  otf: 'opentype',
  woff: 'woff',
  woff2: 'woff2',
};

/** The uploaded fonts of an answer's `customFonts` (a file's format from its extension). */
export function customFontsOf(body: CustomFontsBody | undefined): CustomFont[] {
  const names = Array.isArray(body?.names) ? body.names : [];
  const paths = Array.isArray(body?.path) ? body.path : [];
  return names.flatMap((name, i) => {
    const url = paths[i];
    if (typeof name !== 'string' || typeof url !== 'string') return [];
    const format = FORMATS[url.split('.').pop()?.toLowerCase() ?? ''] ?? 'truetype';
    return [{ family: name, url, format }];
  });
}

/** `GET /getCustomFonts`: the current team's uploaded fonts. */
export async function fetchCustomFonts(signal?: AbortSignal): Promise<CustomFont[]> {
  return customFontsOf((await call('GET /getCustomFonts', { signal })).customFonts);
}

/** What a successful upload answers (docs/fonts.md "Uploads"), its `customFonts` read as fonts. */
export interface StoredFont {
  fontName: string;
  fontPath: string;
  customFonts: CustomFont[];
  message: string;
}

/**
 * `POST /storeFont` with the file in the multipart field `file`.
 * @param onProgress upload progress, bytes.
 * @throws ApiError with the server's message (422: the spec's extension message, a refused
 *   file, bold/italic; 402: 'This feature is available only for Pro plans.').
 */
export async function storeFont(
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<StoredFont> {
  const form = new FormData();
  form.append('file', file);
  const answer = await apiUpload<AnswerOf<'POST /storeFont'>>('/storeFont', form, onProgress);
  const { fontName, fontPath, message } = answer;
  return { fontName, fontPath, message, customFonts: customFontsOf(answer.customFonts) };
}
