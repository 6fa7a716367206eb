import { useSyncExternalStore } from 'react';
import { useEditorContext } from '../EditorContext.tsx';
import { onPlayers, playerOf, type GifPlayerState } from './player.ts';
import './gif.css';

const NONE: GifPlayerState = { status: 'none', frame: 0, frames: 0 };

/** The buttons: their names, the state each one is pressed in, and the player's action. */
const BUTTONS = [
  { label: 'Play', status: 'playing', act: 'play' },
  { label: 'Pause', status: 'paused', act: 'pause' },
  { label: 'Stop', status: 'stopped', act: 'stop' },
] as const;

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
      {BUTTONS.map(({ label, status, act }) => (
        <button
          key={label}
          type="button"
          className="button button--small button--secondary"
          aria-pressed={state.status === status}
          onClick={() => player[act]()}
        >
          {label}
        </button>
      ))}
      <span className="muted small" aria-live="polite" data-testid="gif-frame">
        {state.status === 'playing'
          ? `Playing, ${state.frames} frames`
          : `Frame ${state.frame + 1} of ${state.frames}`}
      </span>
    </span>
  );
}
