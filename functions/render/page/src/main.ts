/**
 * The render page bundle: loaded once into the warm Chromium page (DESIGN.md §5) and called per
 * request with a resolved scene. It draws only the personalised layers, on a transparent canvas,
 * with the same fabric code as the editor (shared/scene/draw.ts).
 */
import { StaticCanvas } from 'fabric';
import { drawBaseImage, drawScene, type BaseImageLayer } from '../../../../shared/scene/draw.ts';
import { selectDeterministicFilterBackend } from '../../../../shared/scene/filters.ts';
import { fontFamilyList } from '../../../../shared/scene/fonts.ts';
import type { ResolvedScene } from '../../../../shared/scene/resolve.ts';

/**
 * The drawn region of the personalised layers: straight (not premultiplied) RGBA pixels of the
 * rectangle `left, top, width, height` (canvas px), base64-encoded; `null` when nothing is drawn.
 */
export interface DrawnLayer {
  left: number;
  top: number;
  width: number;
  height: number;
  rgba: string;
}

declare global {
  interface Window {
    /** Draws the scene's personalised layers and hands over the pixels of what was drawn. */
    picsnippetsRender: (scene: ResolvedScene) => Promise<DrawnLayer | null>;
    /** Draws the static layer (the base photo with its image tools), whole canvas, RGBA. */
    picsnippetsRenderBase: (base: BaseImageLayer) => Promise<DrawnLayer>;
    picsnippetsReady: boolean;
  }
  interface Uint8Array {
    /** Chromium 140+ (TC39 Uint8Array base64). */
    toBase64?: () => string;
  }
}

const element = document.createElement('canvas');
document.body.appendChild(element);
const canvas = new StaticCanvas(element, {
  enableRetinaScaling: false,
  renderOnAddRemove: false,
  skipOffscreen: false,
});

/** Loads the font faces (and the unicode-range subsets) the layers need before drawing. */
async function loadFonts(scene: ResolvedScene): Promise<void> {
  await Promise.all(
    scene.texts
      .filter((t) => t.text.trim() !== '')
      .map((t) =>
        document.fonts
          .load(
            `${t.fontStyle} ${t.fontWeight} ${Math.round(t.fontSize)}px ${fontFamilyList(t.fontFamily)}`,
            t.text,
          )
          .catch(() => []),
      ),
  );
}

const context = canvas.getContext();

/** Base64 of bytes: the native encoder where the browser has it, else btoa over chunks. */
function toBase64(bytes: Uint8Array): string {
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Draws, then reads back only the bounding box of what was drawn (plus 2 px for antialiasing
 * and outlines), so the hand-off is small and no image encoder runs in the browser (issue:
 * render §5). sharp composes these pixels over the static layer.
 */
window.picsnippetsRender = async (scene) => {
  await loadFonts(scene);
  if (canvas.width !== scene.width || canvas.height !== scene.height) {
    canvas.setDimensions({ width: scene.width, height: scene.height });
  }
  await drawScene(canvas, scene);
  const objects = canvas.getObjects();
  if (objects.length === 0) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const o of objects) {
    const r = o.getBoundingRect();
    const pad = 2 + (o.strokeWidth ?? 0);
    x0 = Math.min(x0, r.left - pad);
    y0 = Math.min(y0, r.top - pad);
    x1 = Math.max(x1, r.left + r.width + pad);
    y1 = Math.max(y1, r.top + r.height + pad);
  }
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const width = Math.min(scene.width, Math.ceil(x1)) - left;
  const height = Math.min(scene.height, Math.ceil(y1)) - top;
  if (width <= 0 || height <= 0) return null;
  const pixels = context.getImageData(left, top, width, height).data;
  return { left, top, width, height, rgba: toBase64(new Uint8Array(pixels.buffer)) };
};
/** The static layer, drawn once per design version; the caller keeps it (renderer.ts). */
window.picsnippetsRenderBase = async (base) => {
  canvas.setDimensions({ width: base.width, height: base.height });
  await drawBaseImage(canvas, base);
  const pixels = context.getImageData(0, 0, base.width, base.height).data;
  canvas.clear();
  return {
    left: 0,
    top: 0,
    width: base.width,
    height: base.height,
    rgba: toBase64(new Uint8Array(pixels.buffer)),
  };
};

selectDeterministicFilterBackend();
window.picsnippetsReady = true;
