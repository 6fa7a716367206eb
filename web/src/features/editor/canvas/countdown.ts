/**
 * The live preview of countdown timers in the editor (docs/editor.md "Countdown timer"): each
 * timer's text layers at this second, from the shared layout the render's GIF frames are drawn
 * with (shared/scene/countdown.ts `countdownLayers`) and the one text drawing path
 * (shared/scene/draw.ts `fitTextLayer`), so the editor shows the digits the render shows.
 *
 * They are drawn on their own canvas over the objects (and under the watermarks), as the render
 * draws timers over every other layer, unrotated; it takes no pointer events (the sticker's own
 * dashed box under it is what is picked and moved). It redraws when the document changes and
 * once a second, on the second, and stops when disposed (the editor unmounts).
 */
import { StaticCanvas } from 'fabric';
import { countdownLayers, type CountdownBox } from '#shared/scene/countdown.ts';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { fitTextLayer } from '#shared/scene/draw.ts';
import { resolveDynamicStickers, stickerBox } from '#shared/scene/resolve.ts';
import type { ResolvedTextLayer } from '#shared/scene/resolve.ts';
import { previewSecondsLeft } from '../document/countdown.ts';
import { editorValues } from '../document/preview.ts';
import type { EditorStore } from '../store/index.ts';
import { loadTextFonts } from './textFonts.ts';

/** A timer sticker's box for the layout, as the render computes it (countdown-gif.ts). */
const boxOf = (s: Sticker): CountdownBox => ({ id: s.uuid, ...stickerBox(s), scale: s.scaleY });

/**
 * The text layers of every timer of `design` at `nowMs` (pure; exported for the unit test).
 * @param openedMs when the editor opened: an evergreen timer without a start counts from it.
 */
export function timerLayers(
  design: DesignDocument,
  nowMs: number,
  openedMs: number,
): ResolvedTextLayer[] {
  const starts = new Map(
    resolveDynamicStickers(design, editorValues(design))
      .filter((d) => d.type === 'countdown')
      .map((d) => [d.id, d.value]),
  );
  return design.graphics_data.flatMap((s) =>
    s.dynamicStickerType === 'countdown' && s.countdown
      ? countdownLayers(
          s.countdown,
          boxOf(s),
          previewSecondsLeft(s.countdown, nowMs, starts.get(s.uuid) ?? '', openedMs),
        )
      : [],
  );
}

/** The overlay canvas's class (countdown.css: stretched over the stage, no pointer events). */
const TIMER_CANVAS_CLASS = 'editor-stage__timers';

/** Stops the ticking and frees the canvas. */
export type StopPreview = () => void;

/**
 * Starts the ticking preview on `element` (a canvas over the objects) for the store's design.
 * @param now the clock, ms since the epoch (the store's `env.now`).
 */
export function mountCountdownPreview(
  element: HTMLCanvasElement,
  store: EditorStore,
  now: () => number = () => Date.now(),
): StopPreview {
  element.classList.add(TIMER_CANVAS_CLASS);
  element.setAttribute('aria-hidden', 'true');
  const canvas = new StaticCanvas(element, {
    renderOnAddRemove: false,
    enableRetinaScaling: false,
  });
  const openedMs = now();
  let signature = '';
  let stopped = false;
  let drawing = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Draws the timers as they are now, one draw at a time (the newest state wins). */
  async function draw(): Promise<void> {
    if (drawing) {
      again = true;
      return;
    }
    drawing = true;
    try {
      do {
        again = false;
        const design = store.getState().design;
        if (!design) continue;
        const layers = timerLayers(design, now(), openedMs);
        const next = JSON.stringify([layers, design.canvas_width, design.canvas_height]);
        if (next === signature) continue;
        await Promise.all(layers.map((l) => loadTextFonts(l).catch(() => undefined)));
        if (stopped) return;
        canvas.setDimensions(
          { width: design.canvas_width, height: design.canvas_height },
          { backstoreOnly: true },
        );
        canvas.clear();
        for (const l of layers)
          canvas.add(fitTextLayer(l, design.canvas_width, design.canvas_height));
        canvas.renderAll();
        signature = next;
      } while (again && !stopped);
    } catch (error) {
      signature = '';
      console.error('The countdown timer could not be drawn', error);
    } finally {
      drawing = false;
    }
  }

  const tick = () => {
    if (stopped) return;
    void draw();
    // On the next second, as the render counts whole seconds.
    timer = setTimeout(tick, 1000 - (now() % 1000) + 5);
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.design !== prev.design) void draw();
  });
  tick();

  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    void canvas.dispose();
  };
}
