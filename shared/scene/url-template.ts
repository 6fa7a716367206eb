/**
 * The merge fields of a live web crop's URL template (shared/scene/web-crop.ts;
 * docs/web-crops.md "URL templates"), apart so that scene resolution can count them as the
 * design's parameters without importing the crop's schemas.
 */

/** `{{ name }}` in a URL template; names as parameters' (docs/editor.md "Editing rules"). */
export const URL_TEMPLATE_FIELD = /\{\{\s*([A-Za-z0-9_-]+)\s*\}\}/g;

/** The merge fields a URL template names, in order, each once. */
export function urlTemplateFields(template: string): string[] {
  return [...new Set([...template.matchAll(URL_TEMPLATE_FIELD)].map((m) => m[1]!))];
}
