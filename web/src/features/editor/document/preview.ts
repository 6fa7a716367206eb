/**
 * What the editor's canvas shows (docs/editor.md "Editing rules": "A parameter with an empty or
 * single-space default shows its name instead of its value"): the design resolved through the
 * render path (shared/scene/resolve.ts) as a recipient without values sees it, except that a
 * parameter with a blank fallback shows its name, so the user sees where it is.
 */
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { codePointLabel, glyphFilter } from '#shared/scene/glyphs.ts';
import { resolveScene, type ResolvedScene } from '#shared/scene/resolve.ts';
import { isUploadedFamily } from '../../fonts/loadFont.ts';
import { countdownFrameImage, defaultQrValue, dynamicImage } from './stickers.ts';
import { weatherImage } from './weather.ts';
import { cropPreviewRequest } from './webCrop.ts';
import type { WeatherPreview } from '../store/uiSlice.ts';
import { gifStickerSrc, isGifUrl } from '../gif/playback.ts';

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
 * plain or uploaded sticker's assets key is served at `/{key}` (docs/adr/0021-sticker-library.md
 * "Sticker library"), an https URL as it is; a dynamic sticker shows the image the editor last
 * made, or one made now from its fields.
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

/** Code points already reported as left out, so the console says each once per session. */
const reported = new Set<number>();

/**
 * The render's "never tofu" rule (shared/scene/glyphs.ts; docs/fonts.md): what no shipped face
 * draws is left out of the preview as it is of the render, the team's uploaded fonts left whole.
 */
const editorGlyphs = glyphFilter({
  ownCoverage: isUploadedFamily,
  onDropped: (codes) => {
    const fresh = codes.filter((code) => !reported.has(code));
    if (fresh.length === 0) return;
    for (const code of fresh) reported.add(code);
    console.warn(
      `Characters no font can draw are left out of the text: ${fresh.map(codePointLabel).join(', ')}`,
    );
  },
});

/**
 * A weather sticker's image for the canvas's weather preview (docs/editor.md "Weather"): the
 * stored sample image, or without weather its panel alone, or, when that draws nothing, the
 * dashed box a hidden timer shows, so it can still be picked.
 */
function weatherStickerImage(sticker: Sticker, preview: WeatherPreview): string | null {
  if (preview === 'sample' || !sticker.weather) return stickerImageUrl(sticker);
  return weatherImage(sticker.weather, preview) || countdownFrameImage(sticker);
}

/**
 * The scene the editor draws: the render's resolution with `editorValues`, sticker images and
 * the render's glyph filter.
 * @param weatherPreview what the weather stickers show (the store's ui slice): the sample, or
 *   no weather known.
 * @param cropPreviews live crops captured for the editor (the store's ui slice): a screenshot
 *   sticker with a crop draws its capture, once there, in place of its placeholder
 *   (docs/editor.md "Live web crop").
 */
export function editorScene(
  design: DesignDocument,
  weatherPreview: WeatherPreview = 'sample',
  cropPreviews: Readonly<Record<string, string>> = {},
): ResolvedScene {
  const images: Record<string, string> = {};
  for (const sticker of design.graphics_data) {
    const crop = cropPreviewRequest(sticker);
    const src =
      sticker.dynamicStickerType === 'weather'
        ? weatherStickerImage(sticker, weatherPreview)
        : ((crop && cropPreviews[crop.key]) ?? stickerImageUrl(sticker));
    // A GIF is drawn at its saved frame (gif/stickerPlayer.ts), as the render draws it.
    if (src) images[sticker.uuid] = isGifUrl(src) ? gifStickerSrc(src, sticker.gif_frame) : src;
  }
  return resolveScene(design, editorValues(design), images, { glyphs: editorGlyphs });
}
