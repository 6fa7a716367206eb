/**
 * The render page bundle: loaded once into the warm Chromium page (DESIGN.md §5) and called per
 * request with a resolved scene. It draws only the personalised layers, on a transparent canvas,
 * with the same fabric code as the editor (shared/scene/draw.ts).
 */
import { StaticCanvas } from 'fabric';
import { drawTextLayers } from '../../../../shared/scene/draw.ts';
import { fontFamilyList } from '../../../../shared/scene/fonts.ts';
import type { ResolvedScene } from '../../../../shared/scene/resolve.ts';

declare global {
  interface Window {
    /** Draws the scene's layers; resolves to a PNG data URL of the canvas (width x height px). */
    picsnippetsRender: (scene: ResolvedScene) => Promise<string>;
    picsnippetsReady: boolean;
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

window.picsnippetsRender = async (scene) => {
  await loadFonts(scene);
  canvas.setDimensions({ width: scene.width, height: scene.height });
  drawTextLayers(canvas, scene);
  return canvas.getElement().toDataURL('image/png');
};
window.picsnippetsReady = true;
