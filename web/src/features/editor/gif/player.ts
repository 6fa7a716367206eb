/**
 * GIF playback of the base photo in the editor (docs/adr/0059-gif-playback.md "GIF playback"): the
 * decoded frames (decoder.ts) drawn, at their own delays, on a canvas laid over the base photo's
 * layer, with the base photo's own placement, filters and enhancements (shared/scene/draw.ts
 * `placeBaseImage`, as the render draws the saved frame). Driven by requestAnimationFrame; it
 * starts paused on the saved frame when the user prefers reduced motion, else playing. Pause and
 * Stop save the frame shown (Stop: the first) as `base_image_gif_frame`; playing saves nothing.
 * Disposing stops the loop.
 */
import { FabricImage, StaticCanvas } from 'fabric';
import { placeBaseImage } from '#shared/scene/draw.ts';
import { baseLayer } from '../canvas/view.ts';
import { basePhotoSrc } from '../preload.ts';
import type { EditorStore } from '../store/index.ts';
import { decodeGif, type GifAnimation } from './decoder.ts';
import {
  createPlayback,
  frameCanvasOf,
  isGifUrl,
  putFrame,
  setPlayer,
  type GifPlayer,
} from './playback.ts';
import { fetchFile } from '../../../api/client.ts';

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
  let animation: GifAnimation | null = null;
  let frameCanvas: HTMLCanvasElement | null = null;
  let drawnSignature = '';
  let shown = 0;

  /** Draws frame `index` with the design's placement and filters. */
  function draw(index: number): void {
    const design = store.getState().design;
    if (!design || !frameCanvas || !animation) return;
    shown = index;
    putFrame(frameCanvas, animation, index);
    canvas.setDimensions(
      { width: design.canvas_width, height: design.canvas_height },
      { backstoreOnly: true },
    );
    placeBaseImage(canvas, baseLayer(design, ''), new FabricImage(frameCanvas));
    drawnSignature = JSON.stringify([baseLayer(design, ''), index]);
  }

  /** Saves the shown frame in the document (undoable), if it changed. */
  function save(frame: number): void {
    const design = store.getState().design;
    if (!design || design.base_image_gif_frame === frame) return;
    store.getState().applyChange({ eventType: 'image.event', label: 'GIF frame' }, (draft) => {
      draft.base_image_gif_frame = frame;
    });
  }

  // Image tools or the canvas size changed: the shown frame is drawn again with them.
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.design === prev.design || !animation || !s.design) return;
    if (JSON.stringify([baseLayer(s.design, ''), shown]) !== drawnSignature) draw(shown);
  });

  const playback = createPlayback(draw, save, () => {
    unsubscribe();
    setPlayer(store, 'photo', undefined, playback.player);
    void canvas.dispose();
  });

  async function load(): Promise<void> {
    const design = store.getState().design;
    const src = design ? basePhotoSrc(design, baseImageUrl) : null;
    if (!design || !isGifUrl(src)) return;
    playback.set({ status: 'loading' });
    let decoded;
    try {
      // The file itself (the browser's cache has it from the photo's load), not a preload's
      // blob: URL, which may be revoked once the photo decoded.
      decoded = decodeGif(await (await fetchFile(src)).arrayBuffer());
    } catch (error) {
      console.error('The GIF could not be decoded', error);
      if (!playback.disposed) playback.set({ status: 'failed' });
      return;
    }
    if (playback.disposed) return;
    animation = decoded;
    frameCanvas = frameCanvasOf(decoded);
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    playback.start(decoded, design.base_image_gif_frame, !still);
  }

  setPlayer(store, 'photo', playback.player);
  void load();
  return playback.player;
}
