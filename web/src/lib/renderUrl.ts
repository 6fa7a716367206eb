/**
 * The SPA's render-URL constants: the demo design and the longest parameter value. The render
 * path itself is built by `renderPath` in shared/render-url.ts, beside the parser the render
 * service reads it with: `/r/{publicId}[.ext]?{param}={value}&…`, served on this origin.
 */

/** The seeded demo design ("Hello {{first_name}}!" on a photo), 1000x625 px JPEG. */
export const DEMO_DESIGN = { publicId: 'demo-welcome.jpg', width: 1000, height: 625 } as const;

/** docs/adr/0004-render-slice.md "Render slice": the render service cuts longer values, so the inputs stop there. */
export const MAX_PARAMETER_LENGTH = 255;
