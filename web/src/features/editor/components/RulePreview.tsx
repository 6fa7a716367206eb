/**
 * The rules panel's preview (docs/rules.md "Preview"): the editor's current document, saved or
 * not, as a picked rule shows it. The rule is applied with the render's own `applyRuleVariant`
 * (shared/scene/rules.ts) and drawn with the render's drawing code (shared/scene/draw.ts), as
 * the canvas draws the design, so the preview and the render URL agree.
 */
import { StaticCanvas } from 'fabric';
import { useEffect, useRef, useState } from 'react';
import type { DesignDocument } from '#shared/design.ts';
import { drawBaseImage, drawScene } from '#shared/scene/draw.ts';
import { applyRuleVariant, type Rule } from '#shared/scene/rules.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { baseLayer } from '../canvas/view.ts';
import { loadTextFonts } from '../canvas/textFonts.ts';
import { editorScene } from '../document/preview.ts';
import { useEditor } from '../EditorContext.tsx';
import { basePhotoSrc, imageUrl } from '../preload.ts';

/** The preview's widest drawing, px: the panel shows it smaller. */
const PREVIEW_MAX_WIDTH_PX = 600;
/** The pause after the last change before the preview is drawn again, ms. */
const PREVIEW_DEBOUNCE_MS = 250;

/**
 * Draws `design` as `rule` shows it (undefined: the default), scaled to at most
 * `PREVIEW_MAX_WIDTH_PX` wide: the base photo on white, then the stickers and texts the variant
 * keeps, with their fonts loaded first.
 * @param answerUrl the editor's URL of the design's own photo (used when the key has none).
 * @returns a new canvas element with the whole drawing.
 * @throws Error when the photo or a layer cannot be drawn.
 */
export async function drawRulePreview(
  design: DesignDocument,
  rule: Rule | undefined,
  answerUrl: string | null,
): Promise<HTMLCanvasElement> {
  const shown = applyRuleVariant(design, rule);
  const { canvas_width: width, canvas_height: height } = shown;
  const scale = Math.min(1, PREVIEW_MAX_WIDTH_PX / width);
  const layer = new StaticCanvas(document.createElement('canvas'), {
    enableRetinaScaling: false,
    renderOnAddRemove: false,
    skipOffscreen: false,
  });
  try {
    layer.setDimensions({ width, height });
    const scene = editorScene(shown);
    const src = basePhotoSrc(shown, answerUrl);
    const out = document.createElement('canvas');
    out.width = Math.max(1, Math.round(width * scale));
    out.height = Math.max(1, Math.round(height * scale));
    const ctx = out.getContext('2d')!;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, out.width, out.height);
    if (src) {
      await drawBaseImage(layer, baseLayer(shown, await imageUrl(src)));
      layer.renderAll();
      ctx.drawImage(layer.getElement(), 0, 0, out.width, out.height);
    }
    await Promise.all(scene.texts.map((text) => loadTextFonts(text)));
    await drawScene(layer, scene);
    ctx.drawImage(layer.getElement(), 0, 0, out.width, out.height);
    return out;
  } finally {
    void layer.dispose();
  }
}

/**
 * The preview of the current document as `rule` shows it, redrawn 250 ms after the document
 * or the pick changes; while it draws it says so, and a failed drawing says that instead of
 * showing a broken picture.
 * @param label what the picture shows, for its accessible name.
 */
export function RulePreview({ rule, label }: { rule: Rule | undefined; label: string }) {
  const design = useEditor((s) => s.design);
  const answerUrl = useEditor((s) => s.meta?.baseImageUrl ?? null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  // Until the first drawing the canvas is empty: it stays hidden, the status shows instead.
  const [drawnOnce, setDrawnOnce] = useState(false);
  useEffect(() => {
    const target = canvas.current;
    if (!design || !target) return;
    let current = true;
    setState('drawing');
    const timer = setTimeout(() => {
      drawRulePreview(design, rule, answerUrl).then(
        (out) => {
          // Only the latest drawing is shown, and only once whole.
          if (!current) return;
          target.width = out.width;
          target.height = out.height;
          target.getContext('2d')!.drawImage(out, 0, 0);
          setState('drawn');
          setDrawnOnce(true);
        },
        (error: unknown) => {
          if (!current) return;
          console.error('The rule preview could not be drawn', error);
          setState('failed');
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [design, rule, answerUrl]);
  return (
    <div className="rules-panel__preview-frame" aria-busy={state === 'drawing'}>
      <canvas
        ref={canvas}
        className="rules-panel__preview"
        role="img"
        aria-label={label}
        data-state={state}
        hidden={state === 'failed' || !drawnOnce}
      />
      {state === 'drawing' && (
        <p
          className={`muted small${drawnOnce ? ' rules-panel__preview-status' : ''}`}
          role="status"
        >
          <Spinner /> Drawing the preview…
        </p>
      )}
      {state === 'failed' && (
        <p className="field__error small" role="alert">
          The preview could not be drawn. Change something or pick the rule again to retry.
        </p>
      )}
    </div>
  );
}
