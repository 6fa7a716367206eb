/**
 * The editor's slow requests, started as soon as the design answer names them
 * (docs/performance.md "Editor"): the base photo, the sticker images on this origin and the
 * faces of the text snippets load while React renders the editor and the canvas view mounts,
 * instead of after the view's first reconcile.
 *
 * Images are fetched once into `blob:` URLs that the canvas view draws from ({@link imageUrl}),
 * so the photo is not requested a second time even when the HTTP cache is off. Only same-origin
 * paths (`/files/…`) are preloaded; anything else is left to the view.
 */
import type { DesignDocument } from '#shared/design.ts';
import { fetchEditorDesign } from './api.ts';
import { editorScene } from './document/preview.ts';
import { baseImageUrlOf } from './document/image.ts';
import { loadTextFonts } from './canvas/textFonts.ts';
import { setFontTeam } from '../fonts/loadFont.ts';
import { useAppStore } from '../../state/store.ts';
// The bundled fallback faces (@font-face CSS) are there before the first preload measures.
import './canvas/fonts.ts';
import type { LoadedDesign } from './store/designSlice.ts';
import { fetchFile } from '../../api/client.ts';

/** Preloaded images of the current design: path → its `blob:` URL (rejects if the fetch failed). */
let images = new Map<string, Promise<string>>();

/**
 * The base photo a design draws: the photo of its document (a new base image or a crop changes
 * it), else the one the design answer named (`base_image_url`); null for a white canvas.
 */
export function basePhotoSrc(design: DesignDocument, answerUrl: string | null): string | null {
  return baseImageUrlOf(design.base_image_key) ?? answerUrl;
}

/** Preloaded images already decoded (the base photo): path → the element, once decoded. */
let decoded = new Map<string, HTMLImageElement>();

/**
 * Fetches a same-origin image into a `blob:` URL, once per path; with `decode`, also decodes
 * it into an element ({@link decodedImage}), so the view can draw it without waiting.
 */
function preloadImage(src: string, decode = false): void {
  if (!src.startsWith('/') || src.startsWith('//') || images.has(src)) return;
  const target = decoded;
  const url = fetchFile(src).then(async (blob) => {
    const blobUrl = URL.createObjectURL(blob);
    if (decode) {
      const element = new Image();
      element.src = blobUrl;
      // A failed decode leaves the element out: the view loads the URL itself.
      await element.decode().then(
        () => target.set(src, element),
        () => undefined,
      );
    }
    return blobUrl;
  });
  url.catch(() => undefined); // the view falls back to `src` and reports its own failure
  images.set(src, url);
}

/** The decoded element of a preloaded image, when its decode has finished; else undefined. */
export function decodedImage(src: string): HTMLImageElement | undefined {
  return decoded.get(src);
}

/**
 * Where the view loads `src` from: the preloaded `blob:` URL once it arrived, else `src` (not
 * preloaded, or the preload failed).
 */
export async function imageUrl(src: string): Promise<string> {
  const preloaded = images.get(src);
  return preloaded ? preloaded.catch(() => src) : src;
}

/**
 * Starts loading what the first draw of `loaded` needs: its base photo, its stickers' images
 * and the faces of its text snippets (with the editor's sample values, as the view draws them).
 * The previous design's preloaded images are released. Never throws.
 */
export function preloadDesign({ meta, document }: LoadedDesign): void {
  const previous = images;
  images = new Map();
  decoded = new Map();
  for (const url of previous.values()) void url.then(URL.revokeObjectURL, () => undefined);
  const photo = basePhotoSrc(document, meta.baseImageUrl);
  if (photo) preloadImage(photo, true);
  let scene;
  try {
    scene = editorScene(document);
  } catch (error) {
    console.error('the design could not be prepared for preloading', error);
    return;
  }
  for (const layer of scene.images) preloadImage(layer.src);
  for (const layer of scene.texts) void loadTextFonts(layer);
}

/**
 * `GET /api/pic-snippet/{id}` (`fetchEditorDesign`) that starts {@link preloadDesign} the moment
 * the answer arrives, before React renders the editor, with the font loader scoped to the
 * current team (`setFontTeam`: a team switch forgets the previous team's uploaded fonts).
 * @throws as `fetchEditorDesign` (ApiError 404 when the design is not the current team's).
 */
export async function fetchAndPreloadDesign(
  id: string,
  signal?: AbortSignal,
): Promise<LoadedDesign> {
  const loaded = await fetchEditorDesign(id, signal);
  // The answer is the current team's design (404 otherwise): its fonts are that team's.
  const teamId = useAppStore.getState().user?.current_team_id;
  if (teamId) setFontTeam(teamId);
  preloadDesign(loaded);
  return loaded;
}
