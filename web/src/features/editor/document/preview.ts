/**
 * What the editor's canvas shows (spec 000 §5 "A parameter with an empty or single-space
 * default shows its name instead of its value"): the design resolved through the render path
 * (shared/scene/resolve.ts) as a recipient without values sees it, except that a parameter with
 * a blank fallback shows its name, so the user sees where it is.
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { resolveScene, type ResolvedScene } from '#shared/scene/resolve.ts';
import { defaultQrValue, dynamicImage } from './stickers.ts';

/**
 * The values the editor draws with: each parameter whose fallback is blank gets its own name;
 * the others get none (so their fallback shows, with its text transform).
 */
export function editorValues(design: DesignDocument): Record<string, string> {
  const values: Record<string, string> = {};
  for (const snippet of design.text_snippets)
    for (const p of snippet.parameters)
      if (p.param_default_value.trim() === '') values[p.param_name] = p.param_name;
  return values;
}

/**
 * Where the browser loads a sticker's image from, or null when the editor has none yet: a
 * plain or uploaded sticker's assets key is served at `/{key}` (docs/decisions.md "Sticker
 * library"), an https URL as it is; a dynamic sticker shows the image the editor last made, or
 * one made now from its fields.
 */
export function stickerImageUrl(sticker: Sticker): string | null {
  if (sticker.stickerType === 'dynamicSticker') {
    // One saved without the editor's image (by the API, a template) gets it made here.
    const made = sticker.newQrDataUrl ?? sticker.dynamicStickerNewUrl;
    if (made) return made;
    const image = dynamicImage(sticker, defaultQrValue());
    return image.newQrDataUrl ?? image.dynamicStickerNewUrl;
  }
  const url = sticker.url.trim();
  if (url === '') return null;
  return /^https?:\/\//i.test(url) ? url : `/${url.replace(/^\/+/, '')}`;
}

/** The scene the editor draws: the render's resolution with `editorValues` and sticker images. */
export function editorScene(design: DesignDocument): ResolvedScene {
  const images: Record<string, string> = {};
  for (const sticker of design.graphics_data) {
    const src = stickerImageUrl(sticker);
    if (src) images[sticker.uuid] = src;
  }
  return resolveScene(design, editorValues(design), images);
}
