/**
 * The node side of the render page's pixel hand-off (shared/scene/pixel-runs.ts).
 */
import { decodePixelRuns, type DrawnLayer } from '#shared/scene/pixel-runs.ts';

/**
 * A drawn region's straight RGBA bytes, `width` × `height` px: its base64 decoded, and pixel
 * runs expanded (the page hands text regions over as runs; the static layer as raw RGBA).
 * @throws Error when the runs are malformed (shared/scene/pixel-runs.ts `decodePixelRuns`).
 */
export function layerPixels(layer: DrawnLayer): Uint8Array {
  const bytes = Buffer.from(layer.rgba, 'base64');
  return layer.encoding === 'runs' ? decodePixelRuns(bytes, layer.width * layer.height) : bytes;
}
