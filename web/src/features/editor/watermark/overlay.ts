/**
 * The editor's watermark preview (docs/adr/0057-watermark.md "Watermark"): a canvas above the
 * objects that draws the design's watermarks with the render's own code (shared/scene/watermark.ts
 * for the place, shared/scene/draw.ts `watermarkObject` for the drawing), in design px, scaled with
 * the stage by CSS. It takes no pointer events, so the objects below stay editable, and it follows
 * the document (`show_watermark`, the canvas size) and the team's settings.
 */
import { StaticCanvas } from 'fabric';
import { watermarkObject } from '#shared/scene/draw.ts';
import { watermarkLayers, type WatermarkSettings } from '#shared/scene/watermark.ts';
import type { EditorStore } from '../store/index.ts';

/** A mounted overlay: new team settings redraw it; `dispose` frees the canvas. */
export interface WatermarkOverlay {
  setSettings(settings: WatermarkSettings): void;
  dispose(): void;
}

/** The overlay canvas's class (watermark.css: above the objects, no pointer events). */
const WATERMARK_CANVAS_CLASS = 'editor-stage__marks';

/**
 * Draws the watermarks of the store's design on `element` and keeps them in step.
 * @param settings the team's watermark image and whether its plan asks for the product mark.
 */
export function mountWatermarkOverlay(
  element: HTMLCanvasElement,
  store: EditorStore,
  settings: WatermarkSettings,
): WatermarkOverlay {
  element.classList.add(WATERMARK_CANVAS_CLASS);
  element.setAttribute('aria-hidden', 'true');
  const canvas = new StaticCanvas(element, {
    renderOnAddRemove: false,
    enableRetinaScaling: false,
  });
  let current = settings;
  let drawn = '';
  let latest = 0;
  let disposed = false;

  async function draw(): Promise<void> {
    const design = store.getState().design;
    if (!design) return;
    const layers = watermarkLayers(design, current);
    const signature = JSON.stringify([layers, design.canvas_width, design.canvas_height]);
    if (signature === drawn) return;
    drawn = signature;
    const run = ++latest;
    try {
      const objects = await Promise.all(layers.map(watermarkObject));
      if (disposed || run !== latest) return;
      canvas.setDimensions(
        { width: design.canvas_width, height: design.canvas_height },
        { backstoreOnly: true },
      );
      canvas.clear();
      for (const object of objects) canvas.add(object);
      canvas.renderAll();
    } catch (error) {
      if (run === latest) drawn = '';
      console.error('The watermark could not be drawn', error);
    }
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.design !== prev.design) void draw();
  });
  void draw();

  return {
    setSettings(next) {
      current = next;
      void draw();
    },
    dispose() {
      disposed = true;
      unsubscribe();
      void canvas.dispose();
    },
  };
}
