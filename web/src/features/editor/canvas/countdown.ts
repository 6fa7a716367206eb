/**
 * The live preview of countdown timers in the editor (docs/editor.md "Countdown timer"): each
 * timer's text layers at this second, from the shared layout the render's GIF frames are drawn
 * with (shared/scene/countdown.ts `countdownLayers`) and the one text drawing path
 * (shared/scene/draw.ts `fitTextLayer`), so the editor shows the digits the render shows.
 *
 * They are drawn on the objects' canvas, between its objects where the render draws them
 * (shared/scene/bands.ts `sceneBands`: a sticker over a timer stays over its digits, the texts
 * lie over every timer; the watermarks' own canvas is over all), unrotated, and are no objects:
 * nothing picks them (the sticker's own dashed box under them is what is picked and moved), and
 * the document and its undo history never hold them. They are rebuilt when the document changes
 * and once a second, on the second, and stop when disposed (the editor unmounts).
 *
 * A poll's and a weather sticker's texts (docs/editor.md "Poll", "Weather") are drawn here too,
 * over every object, as the render draws them with the design's texts
 * (functions/render/renderer.ts); their bars, panel and icon are the sticker's own image
 * (document/pollPreview.ts, document/weather.ts).
 */
import type { Textbox } from 'fabric';
import { countdownLayers, type CountdownBox } from '#shared/scene/countdown.ts';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import { sceneBands, timerStickers } from '#shared/scene/bands.ts';
import { fitTextLayer } from '#shared/scene/draw.ts';
import { resolveDynamicStickers, stickerBox } from '#shared/scene/resolve.ts';
import type { ResolvedScene, ResolvedTextLayer } from '#shared/scene/resolve.ts';
import { previewSecondsLeft } from '../document/countdown.ts';
import { pollTextLayers } from '../document/pollPreview.ts';
import { weatherTextLayers } from '../document/weather.ts';
import { editorScene, editorValues } from '../document/preview.ts';
import type { EditorStore } from '../store/index.ts';
import { loadTextFonts } from './textFonts.ts';
import type { CanvasView } from './view.ts';

/** A timer sticker's box for the layout, as the render computes it (countdown-gif.ts). */
const boxOf = (s: Sticker): CountdownBox => ({ id: s.uuid, ...stickerBox(s), scale: s.scaleY });

/**
 * The text layers of each timer of `design` at `nowMs`, one list per timer in z-order (pure).
 * @param openedMs when the editor opened: an evergreen timer without a start counts from it.
 */
export function timerLayerGroups(
  design: DesignDocument,
  nowMs: number,
  openedMs: number,
): ResolvedTextLayer[][] {
  const timers = timerStickers(design);
  if (timers.length === 0) return [];
  const starts = new Map(
    resolveDynamicStickers(design, editorValues(design))
      .filter((d) => d.type === 'countdown')
      .map((d) => [d.id, d.value]),
  );
  return timers.map((s) =>
    countdownLayers(
      s.countdown,
      boxOf(s),
      previewSecondsLeft(s.countdown, nowMs, starts.get(s.uuid) ?? '', openedMs),
    ),
  );
}

/** The text layers of every timer of `design` at `nowMs` (pure; `timerLayerGroups` flattened). */
export const timerLayers = (
  design: DesignDocument,
  nowMs: number,
  openedMs: number,
): ResolvedTextLayer[] => timerLayerGroups(design, nowMs, openedMs).flat();

/** One step of drawing the objects' canvas: its object at `index`, or timer `index`'s digits. */
export type StackStep = { kind: 'object' | 'timer'; index: number };

/**
 * The order the objects' canvas draws its objects and the timers in, bottom to top, by the
 * render's rule (shared/scene/bands.ts `sceneBands` over the scene the editor draws): timer j
 * goes over every object of bands 0…j and under the rest. Pure.
 * @param objectKeys the canvas's objects, bottom to top, each as `sticker:{uuid}` or
 *   `snippet:{id}` (canvas/view.ts), or null for one that is neither (drawn in the last band).
 * @returns every object once and every timer once (test/unit/editor-timer-order.test.ts).
 */
export function stackOrder(scene: ResolvedScene[], objectKeys: (string | null)[]): StackStep[] {
  const bandOf = new Map<string, number>();
  scene.forEach((band, b) => {
    for (const image of band.images) bandOf.set(`sticker:${image.id}`, b);
    for (const text of band.texts) bandOf.set(`snippet:${text.id}`, b);
  });
  const last = scene.length - 1;
  const steps: StackStep[] = [];
  let next = 0;
  objectKeys.forEach((key, index) => {
    const band = (key === null ? undefined : bandOf.get(key)) ?? last;
    for (; next < band; next++) steps.push({ kind: 'timer', index: next });
    steps.push({ kind: 'object', index });
  });
  for (; next < last; next++) steps.push({ kind: 'timer', index: next });
  return steps;
}

/** The objects' canvas as the preview needs it. */
export type TimerHost = Pick<CanvasView, 'paintObjects' | 'requestRender'>;

/** Stops the ticking and lets the canvas draw its objects alone again. */
export type StopPreview = () => void;

/**
 * Starts the ticking preview on the objects' canvas for the store's design.
 * @param now the clock, ms since the epoch (the store's `env.now`).
 */
export function mountCountdownPreview(
  host: TimerHost,
  store: EditorStore,
  now: () => number = () => Date.now(),
): StopPreview {
  const openedMs = now();
  let signature = '';
  let stopped = false;
  let drawing = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Each timer's text objects, and the bands they are stacked by, as last built. */
  let timers: Textbox[][] = [];
  /** The poll's and the weather stickers' texts, over every object. */
  let polls: Textbox[] = [];
  let bands: ResolvedScene[] = [];
  let bandsOf: DesignDocument | null = null;

  host.paintObjects((ctx, objects, keyOf) => {
    if (timers.length === 0) for (const object of objects) object.render(ctx);
    else
      for (const step of stackOrder(bands, objects.map(keyOf))) {
        if (step.kind === 'object') objects[step.index]!.render(ctx);
        else for (const text of timers[step.index] ?? []) text.render(ctx);
      }
    for (const text of polls) text.render(ctx);
  });

  /** Builds the timers as they are now, one build at a time (the newest state wins). */
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
        const groups = timerLayerGroups(design, now(), openedMs);
        const pollTexts = [
          ...pollTextLayers(design),
          ...weatherTextLayers(design, store.getState().weatherPreview),
        ];
        const next = JSON.stringify([groups, pollTexts, design.canvas_width, design.canvas_height]);
        if (bandsOf !== design && groups.length > 0) {
          bands = sceneBands(design, editorScene(design));
          bandsOf = design;
          host.requestRender();
        }
        if (next === signature) continue;
        await Promise.all(
          [...groups.flat(), ...pollTexts].map((l) => loadTextFonts(l).catch(() => undefined)),
        );
        if (stopped) return;
        const fit = (l: ResolvedTextLayer) =>
          fitTextLayer(l, design.canvas_width, design.canvas_height);
        timers = groups.map((layers) => layers.map(fit));
        polls = pollTexts.map(fit);
        signature = next;
        host.requestRender();
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
    if (s.design !== prev.design || s.weatherPreview !== prev.weatherPreview) void draw();
  });
  tick();

  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    host.paintObjects(null);
    host.requestRender();
  };
}
