/**
 * Animated GIF stickers in the editor (docs/editor.md "Animated GIF stickers"): a sticker whose
 * image is a GIF is drawn at its saved frame (`gif_frame`, absent = the first), as the render
 * draws it, and the selected one gets Play, Pause and Stop (playback.ts, the base photo's loop):
 * its frames, decoded by decoder.ts, are put on a canvas that becomes the sticker's fabric
 * element, so the sticker's placement, scale and angle stay the view's. Pause saves the frame
 * shown, Stop the first, as undoable changes; leaving the sticker shows its saved frame again.
 */
import type { FabricImage } from 'fabric';
import type { EditorStore } from '../store/index.ts';
import { fetchFile } from '../../../api/client.ts';
import { stickerImageUrl } from '../document/preview.ts';
import { decodeGif, type GifAnimation } from './decoder.ts';
import {
  createPlayback,
  FRAME_SUFFIX,
  frameCanvasOf,
  isGifUrl,
  putFrame,
  setPlayer,
  type Playback,
} from './playback.ts';

/** Decoded GIFs by URL; a few only (each may hold up to 100 MB of frames). */
const animations = new Map<string, Promise<GifAnimation>>();
const MAX_ANIMATIONS = 3;

/** The decoded frames of the GIF at `url`, once per URL while cached. */
function animationOf(url: string): Promise<GifAnimation> {
  let cached = animations.get(url);
  if (!cached) {
    cached = fetchFile(url)
      .then((res) => res.arrayBuffer())
      .then((bytes) => decodeGif(bytes));
    cached.catch(() => animations.delete(url));
    if (animations.size >= MAX_ANIMATIONS) animations.delete(animations.keys().next().value!);
    animations.set(url, cached);
  }
  return cached;
}

/**
 * Where the view loads a sticker's image from: for a GIF sticker's scene source
 * ({@link gifStickerSrc}), a PNG data URL of its saved frame (past the last: the last);
 * anything else, or a GIF that does not decode, through `load` as before.
 * @param load the view's loader (preload.ts `imageUrl`).
 */
export async function stickerImageSrc(
  src: string,
  load: (src: string) => Promise<string>,
): Promise<string> {
  const match = FRAME_SUFFIX.exec(src);
  if (!match) return load(src);
  const url = src.slice(0, match.index);
  try {
    const animation = await animationOf(url);
    const canvas = frameCanvasOf(animation);
    putFrame(canvas, animation, Number(match[1]));
    return canvas.toDataURL('image/png');
  } catch (error) {
    console.error('The GIF sticker could not be decoded', error);
    return load(url);
  }
}

/** What the sticker player needs of the canvas view (canvas/view.ts). */
export interface StickerObjects {
  /** The drawn image of sticker `id`, if drawn. */
  stickerImage(id: string): FabricImage | undefined;
  /** Redraws the objects' canvas. */
  render(): void;
}

/**
 * Gives the selected GIF sticker a player (`playerOf(store, 'sticker')`), made when it is
 * selected and disposed when another object (or none) is.
 * @returns a function that stops watching and disposes the current player.
 */
export function mountStickerGifPlayer(store: EditorStore, view: StickerObjects): () => void {
  let current: { id: string; url: string; playback: Playback; sync(): void } | null = null;

  function open(id: string, url: string): void {
    let animation: GifAnimation | null = null;
    let canvas: HTMLCanvasElement | null = null;
    const savedFrame = () =>
      store.getState().design?.graphics_data.find((s) => s.uuid === id)?.gif_frame ?? 0;
    const draw = (index: number) => {
      const image = view.stickerImage(id);
      if (!animation || !canvas || !image) return;
      putFrame(canvas, animation, index);
      if (image.getElement() !== canvas) image.setElement(canvas);
      view.render();
    };
    const save = (frame: number) => {
      if (savedFrame() === frame) return;
      store.getState().applyChange({ eventType: 'stickers.event', label: 'GIF frame' }, (draft) => {
        const sticker = draft.graphics_data.find((s) => s.uuid === id);
        if (sticker) sticker.gif_frame = frame;
      });
    };
    const playback = createPlayback(draw, save, () => {
      // The sticker shows its saved frame again, as the render draws it.
      if (animation && canvas) draw(savedFrame());
      setPlayer(store, 'sticker', undefined, playback.player);
    });
    // An undo or redo of the frame: a paused player shows the frame the document now saves.
    const sync = () => {
      const { status, frame } = playback.player.getState();
      if (animation && status !== 'playing' && status !== 'loading' && frame !== savedFrame())
        playback.start(animation, savedFrame(), false);
    };
    current = { id, url, playback, sync };
    setPlayer(store, 'sticker', playback.player);
    playback.set({ status: 'loading' });
    animationOf(url).then(
      (decoded) => {
        if (playback.disposed) return;
        animation = decoded;
        canvas = frameCanvasOf(decoded);
        playback.start(decoded, savedFrame(), false);
      },
      (error: unknown) => {
        console.error('The GIF sticker could not be decoded', error);
        if (!playback.disposed) playback.set({ status: 'failed' });
      },
    );
  }

  function follow(): void {
    const { selection, design } = store.getState();
    const sticker =
      selection?.kind === 'sticker'
        ? design?.graphics_data.find((s) => s.uuid === selection.id)
        : undefined;
    const url = sticker ? stickerImageUrl(sticker) : null;
    const src = isGifUrl(url) ? url : '';
    if (current && current.id === sticker?.uuid && current.url === src) return current.sync();
    current?.playback.player.dispose();
    current = null;
    if (sticker && src) open(sticker.uuid, src);
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.selection !== prev.selection || s.design !== prev.design) follow();
  });
  follow();
  return () => {
    unsubscribe();
    current?.playback.player.dispose();
    current = null;
  };
}
