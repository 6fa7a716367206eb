/**
 * Watermarks: where a team's watermark and the product mark go on a design, the same numbers for
 * the editor's preview and the render (docs/adr/0057-watermark.md "Watermark"). Pure: the fabric
 * drawing is shared/scene/draw.ts `watermarkObject`, used by the editor and the render page alike.
 *
 * - The team's watermark (its logo, set in team settings) shows on the designs that switch it on
 *   (`show_watermark`): its top-left corner at 10,10 px, drawn at a quarter of the image's own
 *   size, at half opacity; cut down (aspect kept) to fit inside the canvas less 10 px a side.
 * - The product mark shows on every design of a team whose plan asks for it (shared/billing.ts
 *   `planProductWatermark`): on a canvas 1000 px wide or more, a 160 x 40 px badge whose left
 *   edge is 180 px from the canvas's right edge and whose bottom edge is 20 px from its bottom;
 *   on a narrower canvas all of it (size and margins) scales with the canvas's width, down to
 *   0.4 of it; a canvas too low for it gets it scaled down further, keeping its margins.
 */

/** The team watermark's rule (docs/adr/0057-watermark.md "Watermark"): place px, scale, opacity 0–1. */
export const TEAM_WATERMARK = { left: 10, top: 10, scale: 0.25, opacity: 0.5 } as const;

/** The product mark's rule (docs/adr/0057-watermark.md "Watermark"): size and margins px, opacity 0–1. */
export const PRODUCT_MARK = {
  width: 160,
  height: 40,
  fromRight: 180,
  fromBottom: 20,
  opacity: 0.9,
  /** The canvas width at and above which the mark has its full size, px. */
  fullSizeFrom: 1000,
  /** The smallest share of its full size the canvas's width scales it to. */
  minScale: 0.4,
} as const;

/**
 * The product mark, an SVG of 160 x 40 px drawn with paths only (no text, so no font decides its
 * look): the product's icon and the word "picsnippets" on a dark pill.
 */
export const PRODUCT_MARK_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">',
  '<rect width="160" height="40" rx="20" fill="#111827" fill-opacity="0.78"/>',
  '<g transform="translate(6 4)">',
  '<rect width="32" height="32" rx="8" fill="#4f46e5"/>',
  '<circle cx="22.5" cy="9.5" r="3" fill="#fcd34d"/>',
  '<path d="M3 25 11 14.5l5.5 7 3-3.5L29 25v1a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4Z" fill="#a5b4fc"/>',
  '</g>',
  '<path fill="none" stroke="#ffffff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" d="',
  'M44 14V31M44 20a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0M56.2 16V26M56.2 11.6v0.1',
  'M67.4 16.2A5.5 5.5 0 1 0 67.4 23.8M77.6 15.6C75.6 13.6 70.6 14.2 70.6 17C70.6 20.2 78.1 19.4',
  ' 78.1 22.8C78.1 26.4 72.6 26.6 70.6 24.4M81.3 26V14M81.3 18.5C81.3 13.6 89.3 13.6 89.3 18.5V26',
  'M92.5 16V26M92.5 11.6v0.1M95.7 14V31M95.7 20a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0M107.9 14V31',
  'M107.9 20a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0 -9 0M120.1 20H129.1C129.1 13.8 120.1 13.8 120.1 20',
  'C120.1 26.2 127.7 26.6 129.1 23.8M133.8 10.5V23.5C133.8 26 136.3 26.5 138.3 25.5M132.3 14.5H138.3',
  'M148.5 15.6C146.5 13.6 141.5 14.2 141.5 17C141.5 20.2 149 19.4 149 22.8C149 26.4 143.5 26.6 141.5 24.4',
  '"/></svg>',
].join('');

/** The product mark as a data URL both sides draw (no fetch, the same bytes everywhere). */
export const PRODUCT_MARK_SRC = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(PRODUCT_MARK_SVG)}`;

/** A team's watermark image as stored (functions/teams/watermark.ts): its URL and size in px. */
export interface TeamWatermarkImage {
  /** Same-origin `/files/watermarks/…png` (a new URL for every upload). */
  url: string;
  width: number;
  height: number;
}

/**
 * The watermark of a team record (functions/lib/db/entities.ts Team `watermarkUrl`,
 * `watermarkWidth`, `watermarkHeight`), or null when it has none or a part is missing.
 */
export function teamWatermark(team: {
  watermarkUrl?: string | undefined;
  watermarkWidth?: number | undefined;
  watermarkHeight?: number | undefined;
}): TeamWatermarkImage | null {
  const { watermarkUrl: url, watermarkWidth: width, watermarkHeight: height } = team;
  return url && width && height ? { url, width, height } : null;
}

/** A watermark ready to draw: the image, its box on the canvas in px, and its opacity 0–1. */
export interface WatermarkLayer {
  kind: 'team' | 'product';
  src: string;
  left: number;
  top: number;
  width: number;
  height: number;
  opacity: number;
}

type Size = { width: number; height: number };

/**
 * The team watermark's box: at {@link TEAM_WATERMARK} 10,10 px, a quarter of the image's size
 * (whole px, at least 1), scaled down to fit in the canvas less 10 px on every side.
 * @param image the watermark's own size, px.
 * @param canvas the design's canvas, px.
 */
export function teamWatermarkBox(image: Size, canvas: Size): Omit<WatermarkLayer, 'kind' | 'src'> {
  const { left, top, scale, opacity } = TEAM_WATERMARK;
  const roomW = Math.max(1, canvas.width - 2 * left);
  const roomH = Math.max(1, canvas.height - 2 * top);
  const w = Math.max(1, image.width) * scale;
  const h = Math.max(1, image.height) * scale;
  const fit = Math.min(1, roomW / w, roomH / h);
  return {
    left,
    top,
    width: Math.max(1, Math.round(w * fit)),
    height: Math.max(1, Math.round(h * fit)),
    opacity,
  };
}

/**
 * The product mark's box ({@link PRODUCT_MARK}; docs/adr/0057-watermark.md "Watermark"): on a
 * canvas at least 1000 px wide, 160 x 40 px, its left edge 180 px from the right edge and its
 * bottom edge 20 px from the bottom. On a narrower canvas the size and both margins are multiplied
 * by width / 1000, but by no less than 0.4 (a 500 px canvas: 80 x 20 px, 10 px margins; 300 px and
 * under: 64 x 16, 8 px margins), so the mark takes the same share of a small canvas as of a large
 * one while staying readable. A canvas with too little room for that (less than twice the margins
 * beside it) gets it scaled down further (whole px, at least 1), inside the canvas.
 * @param canvas the design's canvas, px.
 */
export function productMarkBox(canvas: Size): Omit<WatermarkLayer, 'kind' | 'src'> {
  const { fromRight, opacity, fullSizeFrom, minScale } = PRODUCT_MARK;
  const scale = Math.min(1, Math.max(minScale, canvas.width / fullSizeFrom));
  const width = PRODUCT_MARK.width * scale;
  const height = PRODUCT_MARK.height * scale;
  const fromBottom = Math.round(PRODUCT_MARK.fromBottom * scale);
  const margin = Math.round((fromRight - PRODUCT_MARK.width) * scale);
  const fit = Math.min(
    1,
    Math.max(0, canvas.width - 2 * margin) / width,
    Math.max(0, canvas.height - 2 * fromBottom) / height,
  );
  const w = Math.max(1, Math.round(width * fit));
  const h = Math.max(1, Math.round(height * fit));
  return {
    left: Math.max(0, canvas.width - margin - w),
    top: Math.max(0, canvas.height - fromBottom - h),
    width: w,
    height: h,
    opacity,
  };
}

/** What decides a design's watermarks beyond its canvas: the team's image and its plan. */
export interface WatermarkSettings {
  /** The team's watermark, or null when it has none. */
  team: TeamWatermarkImage | null;
  /** The team's plan asks for the product mark (shared/billing.ts `planProductWatermark`). */
  productMark: boolean;
}

/**
 * The watermarks drawn over a design, bottom to top: the team's (when the design shows it and
 * the team has one), then the product mark (when the plan asks for it).
 * @param design the design's `show_watermark` and canvas size, px.
 * @param teamSrc where this side loads the team's image from (the editor: its URL; the render:
 *   a data URL of the stored bytes).
 */
export function watermarkLayers(
  design: { show_watermark: boolean; canvas_width: number; canvas_height: number },
  settings: WatermarkSettings,
  teamSrc: string | null = settings.team?.url ?? null,
): WatermarkLayer[] {
  const canvas = { width: design.canvas_width, height: design.canvas_height };
  const layers: WatermarkLayer[] = [];
  if (design.show_watermark && settings.team && teamSrc) {
    layers.push({ kind: 'team', src: teamSrc, ...teamWatermarkBox(settings.team, canvas) });
  }
  if (settings.productMark) {
    layers.push({ kind: 'product', src: PRODUCT_MARK_SRC, ...productMarkBox(canvas) });
  }
  return layers;
}

/**
 * The watermark part of the render cache key (functions/render/cache-key.ts `renderCacheKey`):
 * what changes the drawn watermarks beyond the design version. The team image's URL is new on
 * every upload, so it names the image's version; its placement follows from it and the canvas.
 * A design that does not show the team's watermark ignores it (its renders stay cached).
 */
export function watermarkCacheComponent(
  design: { show_watermark: boolean },
  settings: WatermarkSettings,
): string {
  const team = design.show_watermark && settings.team ? settings.team.url : '-';
  // `mark2`: the mark scales with the canvas (renders with the fixed 160 x 40 mark are redrawn).
  return `${team}|${settings.productMark ? 'mark2' : '-'}`;
}
