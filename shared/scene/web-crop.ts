/**
 * Live web crops (docs/web-crops.md): a screenshot sticker that shows one element of a web page
 * (a CSS selector), taken for each recipient from a URL template whose merge fields fill fixed
 * parts of the URL only, refreshed at an interval. Pure and shared: the design API and the editor
 * check the settings with these schemas, the render expands the template
 * (test/unit/web-crop.test.ts).
 */
import { z } from 'zod';
import { cutValue, isUnfilledMergeTag } from './resolve.ts';
import { URL_TEMPLATE_FIELD as FIELD } from './url-template.ts';

/** How long a crop is kept before the page is taken again, s (docs/web-crops.md "Refresh"). */
export const WEB_CROP_REFRESH_S = { default: 3600, min: 60, max: 86_400 } as const;
/** The longest selector and URL template, characters. */
export const MAX_CROP_SELECTOR = 200;
export const MAX_CROP_URL_TEMPLATE = 2048;

/** The settings' messages (docs/web-crops.md "Settings"). */
export const WEB_CROP_MESSAGES = {
  selector: `The selector needs 1 to ${MAX_CROP_SELECTOR} characters, without line breaks.`,
  template:
    'The URL template must be an http(s) URL whose merge fields come after the address of the site, such as https://shop.example/p/{{sku}}.',
  refresh: `The refresh must be ${WEB_CROP_REFRESH_S.min} to ${WEB_CROP_REFRESH_S.max} seconds.`,
} as const;

/**
 * Whether a URL template is acceptable: an http(s) URL once its fields are filled, whose scheme,
 * host and port are written out (no field before the path), so a recipient's value can choose
 * the page but never the site (docs/web-crops.md "URL templates").
 */
export function isUrlTemplate(template: string): boolean {
  if (template.length > MAX_CROP_URL_TEMPLATE) return false;
  const origin = /^(https?:\/\/[^/?#]*)/i.exec(template)?.[1];
  if (!origin || origin.includes('{') || origin.includes('}')) return false;
  try {
    const url = new URL(template.replace(FIELD, 'x'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The settings of a live web crop on a screenshot sticker:
 * - `selector`: the CSS selector of the element to show (the first match);
 * - `url_template`: the page per recipient, e.g. `https://shop.example/p/{{sku}}`; null: the
 *   sticker's own value (its parameter's URL, else its fallback);
 * - `refresh_s`: how long one crop of a URL is kept, 60 s to a day.
 */
export const WebCropSchema = z.object({
  selector: z
    .string()
    .trim()
    .min(1, WEB_CROP_MESSAGES.selector)
    .max(MAX_CROP_SELECTOR, WEB_CROP_MESSAGES.selector)
    .refine((s) => !/[\r\n\0]/.test(s), WEB_CROP_MESSAGES.selector),
  url_template: z
    .string()
    .trim()
    .refine(isUrlTemplate, WEB_CROP_MESSAGES.template)
    .nullable()
    .default(null),
  refresh_s: z
    .number()
    .int(WEB_CROP_MESSAGES.refresh)
    .min(WEB_CROP_REFRESH_S.min, WEB_CROP_MESSAGES.refresh)
    .max(WEB_CROP_REFRESH_S.max, WEB_CROP_MESSAGES.refresh)
    .default(WEB_CROP_REFRESH_S.default),
});
export type WebCrop = z.output<typeof WebCropSchema>;

/**
 * A `.` or `..` path segment as URL parsers read one (`%2e` is a dot there too), linear: a
 * segment they remove or walk up with (test/unit/web-crop.test.ts).
 */
export const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The path segments of an http(s) URL or template: after the site's address, before the query
 * or fragment, split at `/` and `\` (a backslash is a slash in http(s) URLs).
 */
const pathSegments = (url: string): string[] =>
  url
    .replace(/^https?:\/\/[^/?#\\]*/i, '')
    .split(/[?#]/, 1)[0]!
    .split(/[/\\]/);

/**
 * The page of a URL template for a recipient: each `{{name}}` replaced by the recipient's value,
 * trimmed, cut to 255 characters and percent-encoded as one URL component (a `/`, `?` or `#` in
 * a value stays inside its part). Undefined when a field has no usable value (missing, empty, an
 * unfilled merge tag), or when the values make a `.` or `..` segment of the path that the
 * template does not have (the browser would drop it, or the segment before it, leaving the
 * template's path): the sticker then uses its own value (docs/web-crops.md "URL templates";
 * test/unit/web-crop.test.ts).
 */
export function expandUrlTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
): string | undefined {
  let missing = false;
  const url = template.replace(FIELD, (_m, name: string) => {
    const value = cutValue(values[name] ?? '').trim();
    if (value === '' || isUnfilledMergeTag(value)) {
      missing = true;
      return '';
    }
    return encodeURIComponent(value);
  });
  if (missing) return undefined;
  // Values hold no separator once encoded, so the segments line up with the template's.
  const own = pathSegments(template.replace(FIELD, 'x'));
  const made = pathSegments(url);
  return made.some((s, i) => DOT_SEGMENT.test(s) && !DOT_SEGMENT.test(own[i] ?? ''))
    ? undefined
    : url;
}
