/**
 * The playback loop of an animated GIF, shared by the base photo's player (player.ts) and a
 * selected GIF sticker's (stickerPlayer.ts; docs/editor.md "Animated GIF stickers"): frames at
 * their own delays by requestAnimationFrame; Pause saves the frame shown, Stop the first; playing
 * saves nothing. What a frame is drawn on and where it is saved is the caller's.
 */
import type { EditorStore } from '../store/index.ts';
import type { GifAnimation } from './decoder.ts';

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

/** Which GIF a player plays: the base photo, or the selected sticker. */
export type GifPlayerKind = 'photo' | 'sticker';

/** Players by editor store and kind: the canvas stage makes them, the toolbar's controls find them. */
const players = new WeakMap<EditorStore, Partial<Record<GifPlayerKind, GifPlayer>>>();
const waiting = new Set<() => void>();

/** The player of an editor's store, once its canvas mounted one. */
export const playerOf = (
  store: EditorStore,
  kind: GifPlayerKind = 'photo',
): GifPlayer | undefined => players.get(store)?.[kind];

/** Calls `listener` when a player is mounted or disposed (the controls re-read `playerOf`). */
export function onPlayers(listener: () => void): () => void {
  waiting.add(listener);
  return () => waiting.delete(listener);
}

/** Makes `player` the store's player of `kind` (undefined: none), and tells the controls. */
export function setPlayer(
  store: EditorStore,
  kind: GifPlayerKind,
  player: GifPlayer | undefined,
  only?: GifPlayer,
): void {
  const current = players.get(store) ?? {};
  if (only && current[kind] !== only) return;
  players.set(store, { ...current, [kind]: player });
  for (const l of waiting) l();
}

/** A URL whose path ends in `.gif`. */
export const isGifUrl = (src: string | null | undefined): src is string =>
  typeof src === 'string' && /\.gif(?:$|[?#])/i.test(src);

/** The suffix the editor's scene gives a GIF sticker's image: the frame it draws. */
export const FRAME_SUFFIX = /#gif-frame=(\d{1,3})$/;

/** A GIF sticker's image as the editor's scene lists it: its URL and saved frame. */
export const gifStickerSrc = (url: string, frame: number | undefined): string =>
  `${url}#gif-frame=${frame ?? 0}`;

/** A canvas of the animation's size, for {@link putFrame}. */
export function frameCanvasOf(animation: GifAnimation): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = animation.width;
  canvas.height = animation.height;
  return canvas;
}

/** Puts frame `index` of `animation` on `canvas` (made by {@link frameCanvasOf}). */
export function putFrame(canvas: HTMLCanvasElement, animation: GifAnimation, index: number): void {
  const frame = animation.frames[Math.min(index, animation.frames.length - 1)]!;
  const pixels = new ImageData(new Uint8ClampedArray(frame.rgba), animation.width);
  canvas.getContext('2d')!.putImageData(pixels, 0, 0);
}

/** The loop's controls besides the player's: its state, the animation and disposal. */
export interface Playback {
  player: GifPlayer;
  set(next: Partial<GifPlayerState>): void;
  /** Shows `animation` paused on frame `saved` (cut to its last), then plays if `autoplay`. */
  start(animation: GifAnimation, saved: number, autoplay: boolean): void;
  readonly disposed: boolean;
}

/**
 * A playback loop.
 * @param draw draws frame `index` (0-based) of the started animation.
 * @param save saves the frame shown in the document (an undoable change), if it changed.
 * @param onDispose frees what the caller holds; the loop is already stopped.
 */
export function createPlayback(
  draw: (index: number) => void,
  save: (frame: number) => void,
  onDispose: () => void,
): Playback {
  const listeners = new Set<() => void>();
  let state: GifPlayerState = { status: 'none', frame: 0, frames: 0 };
  let animation: GifAnimation | null = null;
  let raf = 0;
  let shownAt = 0;
  let disposed = false;

  const set = (next: Partial<GifPlayerState>) => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

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
      save(state.frame);
    },
    stop() {
      if (!animation) return;
      cancelAnimationFrame(raf);
      draw(0);
      set({ status: 'stopped', frame: 0 });
      save(0);
    },
    dispose() {
      disposed = true;
      cancelAnimationFrame(raf);
      listeners.clear();
      onDispose();
    },
  };
  return {
    player,
    set,
    start(next, saved, autoplay) {
      animation = next;
      const frame = Math.min(saved, next.frames.length - 1);
      draw(frame);
      set({ frame, frames: next.frames.length, status: 'paused' });
      if (autoplay && next.frames.length > 1) player.play();
    },
    get disposed() {
      return disposed;
    },
  };
}
