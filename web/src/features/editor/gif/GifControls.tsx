import { useSyncExternalStore } from 'react';
import { useEditorContext } from '../EditorContext.tsx';
import { onPlayers, playerOf, type GifPlayerState } from './player.ts';
import './gif.css';

const NONE: GifPlayerState = { status: 'none', frame: 0, frames: 0 };

/**
 * Play, Pause and Stop for an animated GIF base photo (docs/decisions.md "GIF playback"),
 * shown only when the photo is a GIF. Buttons with their names, reachable by Tab, the pressed state said; the frame shown is
 * announced politely. Pause and Stop save the frame the render draws.
 */
export function GifControls() {
  const { store } = useEditorContext();
  const player = useSyncExternalStore(onPlayers, () => playerOf(store));
  const state = useSyncExternalStore(
    (listener) => player?.subscribe(listener) ?? (() => undefined),
    () => player?.getState() ?? NONE,
  );
  if (!player || state.status === 'none') return null;
  if (state.status === 'loading')
    return (
      <span className="gif-controls muted small" role="status">
        Loading the GIF…
      </span>
    );
  if (state.status === 'failed')
    return (
      <span className="gif-controls small" role="status">
        The GIF could not be played; its first frame is shown.
      </span>
    );
  return (
    <span className="gif-controls" role="group" aria-label="GIF playback">
      <button
        type="button"
        className="button button--small button--secondary"
        aria-pressed={state.status === 'playing'}
        onClick={() => player.play()}
      >
        Play
      </button>
      <button
        type="button"
        className="button button--small button--secondary"
        aria-pressed={state.status === 'paused'}
        onClick={() => player.pause()}
      >
        Pause
      </button>
      <button
        type="button"
        className="button button--small button--secondary"
        aria-pressed={state.status === 'stopped'}
        onClick={() => player.stop()}
      >
        Stop
      </button>
      <span className="muted small" aria-live="polite" data-testid="gif-frame">
        {state.status === 'playing'
          ? `Playing, ${state.frames} frames`
          : `Frame ${state.frame + 1} of ${state.frames}`}
      </span>
    </span>
  );
}
