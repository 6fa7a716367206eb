/**
 * The format stage of the render service: which format and density a request is drawn at
 * (docs/export.md "Density"; docs/animated-designs.md). The path's extension, else a GIF for a
 * timer design or a `.gif` of a design drawing GIF files, else the design's format; a timer
 * design, and an animated design's GIF (which the renderer plays at 1×), at 1× whatever the
 * path asks, under the 1× cache key.
 */
import type { DesignDocument } from '#shared/design.ts';
import { densityFits } from '#shared/render-limits.ts';
import type { RenderDensity, RenderPath } from '#shared/render-url.ts';
import { hasGifSource } from './animated-gif.ts';
import { timerStickers } from './countdown-gif.ts';
import type { RenderFormat } from './renderer.ts';

/**
 * `X-Render-Reason` of a dense URL (`@2x`, `@3x`) whose design is too large at that density
 * (shared/render-limits.ts `MAX_DENSE_PIXELS`); `over-budget` names a dense image past its byte
 * budget (encode.ts `encodeStill`). Both answer the fallback, uncached (docs/export.md "Density").
 */
export const DENSITY_REFUSAL = 'too-many-pixels';

/**
 * The format and density of a request for `doc` (the design as its rule shows it), and whether
 * it has timers.
 * @param rawPath the request's path as written (`.gif` is read from it).
 * @throws Error (cause {@link DENSITY_REFUSAL}) when the design has too many pixels at that
 *   density (shared/render-limits.ts `densityFits`).
 */
export function drawingOf(
  path: RenderPath,
  rawPath: string,
  doc: DesignDocument,
): { format: RenderFormat; density: RenderDensity; timed: boolean } {
  const timed = timerStickers(doc).length > 0;
  // `.gif` of a design drawing GIF files answers its animation (docs/animated-designs.md).
  const animated = /\.gif$/i.test(rawPath) && hasGifSource(doc);
  const format: RenderFormat = path.format ?? (timed || animated ? 'gif' : doc.render_format);
  const density: RenderDensity =
    timed || (format === 'gif' && hasGifSource(doc)) ? 1 : (path.density ?? 1);
  if (!densityFits(doc.canvas_width, doc.canvas_height, density))
    throw Object.assign(new Error(`too many pixels at ${density}x`), {
      cause: DENSITY_REFUSAL,
    });
  return { format, density, timed };
}
