import { useSyncExternalStore } from 'react';
import { useEditorContext } from '../EditorContext.tsx';
import { onPlayers, playerOf, type GifPlayerKind, type GifPlayerState } from './playback.ts';
import './gif.css';

const NONE: GifPlayerState = { status: 'none', frame: 0, frames: 0 };

/** The buttons: their names, the state each one is pressed in, and the player's action. */
const BUTTONS = [
  { label: 'Play', status: 'playing', act: 'play' },
  { label: 'Pause', status: 'paused', act: 'pause' },
  { label: 'Stop', status: 'stopped', act: 'stop' },
] as const;

/** The group's name and what a failure says, by what plays. */
const NAMES = {
  photo: {
    group: 'GIF playback',
    failed: 'The GIF could not be played; its first frame is shown.',
    testId: 'gif-frame',
    caption: null,
  },
  sticker: {
    group: 'Sticker GIF playback',
    failed: 'The GIF sticker could not be played; its saved frame is shown.',
    testId: 'sticker-gif-frame',
    caption: 'GIF sticker',
  },
} as const;

/**
 * Play, Pause and Stop for an animated GIF (docs/adr/0059-gif-playback.md "GIF playback"): the base
 * photo's (`kind` photo, shown only when the photo is a GIF) or the selected sticker's (`kind`
 * sticker, shown only while a GIF sticker is selected; docs/editor.md "Animated GIF stickers").
 * Buttons with their names, reachable by Tab, the pressed state said; the frame shown is announced
 * politely. Pause and Stop save the frame the render draws.
 */
export function GifControls({ kind = 'photo' }: { kind?: GifPlayerKind }) {
  const { store } = useEditorContext();
  const player = useSyncExternalStore(onPlayers, () => playerOf(store, kind));
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
        {NAMES[kind].failed}
      </span>
    );
  return (
    <span className="gif-controls" role="group" aria-label={NAMES[kind].group}>
      {NAMES[kind].caption && (
        <span className="small" aria-hidden="true">
          {NAMES[kind].caption}
        </span>
      )}
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
      <span className="muted small" aria-live="polite" data-testid={NAMES[kind].testId}>
        {state.status === 'playing'
          ? `Playing, ${state.frames} frames`
          : `Frame ${state.frame + 1} of ${state.frames}`}
      </span>
    </span>
  );
}
