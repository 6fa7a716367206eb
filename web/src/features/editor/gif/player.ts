/**
 * GIF playback of the base photo in the editor (docs/decisions.md "GIF playback"): the decoded
 * frames (decoder.ts) drawn, at their own delays, on a canvas laid over the base photo's layer,
 * with the base photo's own placement, filters and enhancements (shared/scene/draw.ts
 * `placeBaseImage`, as the render draws the saved frame). Driven by requestAnimationFrame; it
 * starts paused on the saved frame when the user prefers reduced motion, else playing. Pause
 * and Stop save the frame shown (Stop: the first) as `base_image_gif_frame`; playing saves
 * nothing. Disposing stops the loop.
 */
import { FabricImage, StaticCanvas } from 'fabric';
import { placeBaseImage } from '#shared/scene/draw.ts';
import { baseLayer } from '../canvas/view.ts';
import { basePhotoSrc } from '../preload.ts';
import type { EditorStore } from '../store/index.ts';
import { decodeGif, type GifAnimation } from './decoder.ts';
import { fetchFile } from '../../../api/client.ts';

/** What the controls show: no GIF, loading, or the playback state and frame. */
export interface GifPlayerState {
  status: 'none' | 'loading' | 'playing' | 'paused' | 'stopped' | 'failed';
  frame: number;
  frames: number;
}

export interface GifPlayer {
  getState(): GifPlayerState;
  subscribe(listener: () => void): () => void;
  play(): void;
  pause(): void;
  stop(): void;
  dispose(): void;
}

/** Players by editor store: the canvas stage makes one, the toolbar's controls find it. */
const players = new WeakMap<EditorStore, GifPlayer>();
const waiting = new Set<() => void>();

/** The player of an editor's store, once its canvas mounted one. */
export const playerOf = (store: EditorStore): GifPlayer | undefined => players.get(store);

/** Calls `listener` when a player is mounted or disposed (the controls re-read `playerOf`). */
export function onPlayers(listener: () => void): () => void {
  waiting.add(listener);
  return () => waiting.delete(listener);
}

const isGifUrl = (src: string | null): src is string =>
  src !== null && /\.gif(?:$|[?#])/i.test(src);

/**
 * Mounts playback on `element` (a canvas over the base photo's, under the objects) when the
 * design's base photo is a GIF.
 * @param baseImageUrl the design answer's base photo URL (canvas/view.ts takes the same).
 */
export function mountGifPlayer(
  element: HTMLCanvasElement,
  store: EditorStore,
  baseImageUrl: string | null,
): GifPlayer {
  element.classList.add('editor-stage__gif');
  element.setAttribute('aria-hidden', 'true');
  const canvas = new StaticCanvas(element, {
    renderOnAddRemove: false,
    enableRetinaScaling: false,
  });
  const listeners = new Set<() => void>();
  let state: GifPlayerState = { status: 'none', frame: 0, frames: 0 };
  let animation: GifAnimation | null = null;
  let frameCanvas: HTMLCanvasElement | null = null;
  let raf = 0;
  let shownAt = 0;
  let disposed = false;
  let drawnSignature = '';

  const set = (next: Partial<GifPlayerState>) => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  /** Draws frame `index` with the design's placement and filters. */
  function draw(index: number): void {
    const design = store.getState().design;
    if (!design || !animation || !frameCanvas) return;
    const frame = animation.frames[index]!;
    const ctx = frameCanvas.getContext('2d')!;
    ctx.putImageData(new ImageData(new Uint8ClampedArray(frame.rgba), animation.width), 0, 0);
    canvas.setDimensions(
      { width: design.canvas_width, height: design.canvas_height },
      { backstoreOnly: true },
    );
    placeBaseImage(canvas, baseLayer(design, ''), new FabricImage(frameCanvas));
    drawnSignature = JSON.stringify([baseLayer(design, ''), index]);
  }

  function tick(now: number): void {
    if (disposed || state.status !== 'playing' || !animation) return;
    const frame = animation.frames[state.frame]!;
    if (now - shownAt >= frame.delayMs) {
      const next = (state.frame + 1) % animation.frames.length;
      shownAt = now;
      draw(next);
      set({ frame: next });
    }
    raf = requestAnimationFrame(tick);
  }

  /** Saves the shown frame in the document (undoable), if it changed. */
  function saveFrame(frame: number): void {
    const design = store.getState().design;
    if (!design || design.base_image_gif_frame === frame) return;
    store.getState().applyChange({ eventType: 'image.event', label: 'GIF frame' }, (draft) => {
      draft.base_image_gif_frame = frame;
    });
  }

  async function load(): Promise<void> {
    const design = store.getState().design;
    const src = design ? basePhotoSrc(design, baseImageUrl) : null;
    if (!design || !isGifUrl(src)) return;
    set({ status: 'loading' });
    try {
      // The file itself (the browser's cache has it from the photo's load), not a preload's
      // blob: URL, which may be revoked once the photo decoded.
      const bytes = await (await fetchFile(src)).arrayBuffer();
      animation = decodeGif(bytes);
    } catch (error) {
      console.error('The GIF could not be decoded', error);
      if (!disposed) set({ status: 'failed' });
      return;
    }
    if (disposed) return;
    frameCanvas = document.createElement('canvas');
    frameCanvas.width = animation.width;
    frameCanvas.height = animation.height;
    const saved = Math.min(design.base_image_gif_frame, animation.frames.length - 1);
    draw(saved);
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    set({ frame: saved, frames: animation.frames.length, status: 'paused' });
    if (!still && animation.frames.length > 1) player.play();
  }

  // Image tools or the canvas size changed: the shown frame is drawn again with them.
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.design === prev.design || !animation || !s.design) return;
    if (JSON.stringify([baseLayer(s.design, ''), state.frame]) !== drawnSignature)
      draw(state.frame);
  });

  const player: GifPlayer = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    play() {
      if (!animation || state.status === 'playing') return;
      shownAt = performance.now();
      set({ status: 'playing' });
      raf = requestAnimationFrame(tick);
    },
    pause() {
      if (!animation) return;
      cancelAnimationFrame(raf);
      set({ status: 'paused' });
      saveFrame(state.frame);
    },
    stop() {
      if (!animation) return;
      cancelAnimationFrame(raf);
      draw(0);
      set({ status: 'stopped', frame: 0 });
      saveFrame(0);
    },
    dispose() {
      disposed = true;
      cancelAnimationFrame(raf);
      unsubscribe();
      listeners.clear();
      if (players.get(store) === player) players.delete(store);
      for (const l of waiting) l();
      void canvas.dispose();
    },
  };
  players.set(store, player);
  for (const l of waiting) l();
  void load();
  return player;
}
