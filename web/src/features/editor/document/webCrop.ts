/**
 * Pure live-crop logic of the editor (docs/editor.md "Live web crop"; docs/web-crops.md): a
 * screenshot sticker's `crop` changed field by field and checked by the shared schema
 * (shared/scene/web-crop.ts `WebCropSchema`, the API's own), and the parameters its URL
 * template names. No fabric, no DOM; test/unit/editor-web-crop.test.ts.
 */
import type { Sticker } from '#shared/design.ts';
import { WEB_CROP_REFRESH_S, WebCropSchema, type WebCrop } from '#shared/scene/web-crop.ts';
import { urlTemplateFields } from '#shared/scene/url-template.ts';
import { patchedSettings } from './patchedSettings.ts';

/** A change of a crop's settings: any of its fields. */
export type WebCropPatch = Partial<WebCrop>;

/** The settings a crop starts from before its selector is typed (the schema's defaults). */
const NEW_CROP: WebCrop = {
  selector: '',
  url_template: null,
  refresh_s: WEB_CROP_REFRESH_S.default,
};

/**
 * The crop after `patch` (`current` null: a new crop from the defaults), or the problems by
 * field (`selector`, `url_template`, `refresh_s`) with the schema's messages
 * (`WEB_CROP_MESSAGES`), so the editor refuses what the API would.
 */
export function patchedCrop(
  current: WebCrop | null,
  patch: WebCropPatch,
): { ok: true; value: WebCrop } | { ok: false; errors: Record<string, string> } {
  return patchedSettings(WebCropSchema, current ?? NEW_CROP, patch);
}

/**
 * The design parameters a URL template adds (docs/web-crops.md "URL templates": "The fields
 * count as the design's parameters"), in order, each once; none for no template.
 */
export const cropParameters = (template: string | null): string[] =>
  template ? urlTemplateFields(template) : [];

/** What the editor asks the server to capture for a crop's preview, and its key in the store. */
export interface CropPreviewRequest {
  /** The page: the sticker's own (its fallback), as the render takes for a recipient without values. */
  url: string;
  selector: string;
  is_mobile: boolean;
  /** The store's key of the capture (`cropPreviews`): device, selector and page. */
  key: string;
}

/**
 * The preview a screenshot sticker's crop asks for (docs/editor.md "Live web crop": the page
 * the render opens for a recipient without values: the sticker's fallback page), or null when
 * it has no crop or no fallback page (a URL template's fields have no values in the editor).
 */
export function cropPreviewRequest(
  sticker: Pick<Sticker, 'crop' | 'dynamicStickerUrl' | 'isMobile'>,
): CropPreviewRequest | null {
  const url = sticker.dynamicStickerUrl.trim();
  if (!sticker.crop || url === '') return null;
  const { selector } = sticker.crop;
  return {
    url,
    selector,
    is_mobile: sticker.isMobile,
    key: `${sticker.isMobile ? 'mobile' : 'desktop'}\n${selector}\n${url}`,
  };
}
