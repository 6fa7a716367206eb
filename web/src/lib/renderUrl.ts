/**
 * Render URLs as the export screen hands them out (DESIGN.md §5):
 * `/r/{publicId}[.ext]?{param}={value}&…`, served on this origin.
 *
 * TODO: replace with the shared render-URL builder (DESIGN.md §2, `shared/`) when it lands, so
 * the SPA, the export screen and the render service agree on one encoding.
 */

/** The seeded demo design ("Hello {{first_name}}!" on a photo), 1000x625 px JPEG. */
export const DEMO_DESIGN = { publicId: 'demo-welcome.jpg', width: 1000, height: 625 } as const;

/** DESIGN.md §5: the render service cuts longer values, so the inputs stop there. */
export const MAX_PARAMETER_LENGTH = 255;

/**
 * The render path for a design and its parameter values, e.g.
 * `renderPath('demo-welcome.jpg', { first_name: 'Zoë' })` → `/r/demo-welcome.jpg?first_name=Zo%C3%AB`.
 * Keys and values are percent-encoded (a space is `%20`, never `+`), in the order given.
 */
export function renderPath(publicId: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `/r/${encodeURIComponent(publicId)}${query ? `?${query}` : ''}`;
}
