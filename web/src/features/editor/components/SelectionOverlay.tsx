import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { selectedSnippet, selectedSticker } from '../store/selectionSlice.ts';
import {
  overlayActions,
  overlayBox,
  overlaySide,
  type OverlayAction,
  type OverlayTarget,
} from './selectionActions.ts';
import { OVERLAY_GAP_PX, overlayPosition } from './selectionPlacement.ts';

/** The overlay's size before it is first measured, CSS px (three buttons). */
const FIRST_GUESS = { width: 240, height: 42 };

/** The canvas layers' size on screen, CSS px, following resizes (the canvas is zoomed to fit). */
function useLayerSize(layers: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = layers.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [layers]);
  return size;
}

/** What a sticker is called in the overlay's label. */
const STICKER_NAME: Record<string, string> = {
  qrCode: 'QR code',
  gravatar: 'Gravatar',
  hostedImage: 'Hosted image',
  screenShot: 'Screenshot',
};

/** The overlay's accessible name: which object it acts on. */
function overlayLabel(target: OverlayTarget): string {
  if (target.kind === 'snippet') return 'Selected text snippet';
  const { stickerType, dynamicStickerType } = target.sticker;
  if (stickerType !== 'dynamicSticker') return 'Selected sticker';
  return `Selected ${STICKER_NAME[dynamicStickerType ?? ''] ?? 'dynamic sticker'}`;
}

/** The selected text snippet or sticker, or null. */
function useOverlayTarget(): OverlayTarget | null {
  const snippet = useEditor(selectedSnippet);
  const sticker = useEditor(selectedSticker);
  if (snippet) return { kind: 'snippet', snippet };
  if (sticker) return { kind: 'sticker', sticker };
  return null;
}

/**
 * The selection overlay (docs/editor.md "Commands": "Selection overlay: Text snippets: clone,
 * delete, wrap toggle. Regular stickers: clone and delete. Dynamic stickers: delete only."; the
 * controls per object in selectionActions.ts), floating next to the selected object as drawn, that
 * is next to the bounding box of its rotated corners, inside the canvas (selectionPlacement.ts):
 * above a snippet (below when there is no room); on the side of a sticker away from its rotation
 * handle. Clone copies it (a snippet with renamed parameters and a 'Copy of - ' title); Delete asks
 * first (docs/editor.md "Messages" 'Delete Text Snippet?', 'Delete Sticker?'); Wrap switches a
 * snippet's line wrapping. Positioned from the document (canvas px times the zoom), so it follows a
 * drag as the document changes.
 */
export function SelectionOverlay({ layers }: { layers: RefObject<HTMLElement | null> }) {
  const { store } = useEditorContext();
  const target = useOverlayTarget();
  const canvasWidth = useEditor((s) => s.design?.canvas_width ?? 1);
  const size = useLayerSize(layers);
  const self = useRef<HTMLDivElement>(null);
  const [own, setOwn] = useState(FIRST_GUESS);
  // Its real size (the labels' font, the Wrap state, the controls) once drawn, before paint.
  const shownFor =
    target?.kind === 'snippet'
      ? `snippet:${target.snippet.id}:${target.snippet.textWrap}`
      : target
        ? `sticker:${target.sticker.uuid}`
        : null;
  useLayoutEffect(() => {
    const element = self.current;
    if (element) setOwn((o) => (sameSize(o, element) ? o : sizeOf(element)));
  }, [shownFor, size.width]);
  const element = layers.current;
  if (!target || !element || size.width === 0) return null;
  const at = overlayPosition(
    overlayBox(target),
    size.width / canvasWidth,
    size,
    own,
    OVERLAY_GAP_PX,
    overlaySide(target),
  );
  const actions = overlayActions(target);
  const snippet = target.kind === 'snippet' ? target.snippet : null;
  const id = target.kind === 'snippet' ? target.snippet.id : target.sticker.uuid;
  const noun = snippet ? 'snippet' : 'sticker';
  /** What each control reads and runs (the same commands as the shortcuts and panels). */
  const controlOf = (action: OverlayAction): Omit<OverlayButtonProps, 'key'> => {
    if (action === 'clone')
      return {
        label: `Clone ${noun}`,
        text: 'Clone',
        run: () =>
          snippet
            ? runCommand(store, 'cloneTextSnippet', { id })
            : runCommand(store, 'cloneSticker', { id }),
      };
    if (action === 'wrap')
      return {
        label: 'Wrap lines',
        text: 'Wrap',
        pressed: snippet?.textWrap ?? false,
        run: () => runCommand(store, 'toggleTextWrap', { id }),
      };
    return {
      label: `Delete ${noun}`,
      text: 'Delete',
      danger: true,
      run: () =>
        snippet
          ? store.getState().askConfirm({ kind: 'deleteSnippet', id })
          : runCommand(store, 'requestDeleteSticker', { id }),
    };
  };
  return (
    <div
      className="selection-overlay"
      role="toolbar"
      aria-label={overlayLabel(target)}
      ref={self}
      style={{ top: element.offsetTop + at.top, left: element.offsetLeft + at.left }}
    >
      {actions.map((action) => (
        <OverlayButton key={action} {...controlOf(action)} />
      ))}
    </div>
  );
}

/** One control of the overlay: its accessible name, its text, what it runs. */
interface OverlayButtonProps {
  label: string;
  text: string;
  run: () => void;
  /** Makes it a toggle (`aria-pressed`). */
  pressed?: boolean;
  danger?: boolean;
}

function OverlayButton({ label, text, run, pressed, danger = false }: OverlayButtonProps) {
  return (
    <button
      type="button"
      className={`selection-overlay__button${danger ? ' selection-overlay__button--danger' : ''}`}
      aria-label={label}
      aria-pressed={pressed}
      onClick={run}
    >
      {text}
    </button>
  );
}

const sizeOf = (element: HTMLElement) => ({
  width: element.offsetWidth,
  height: element.offsetHeight,
});

const sameSize = (size: { width: number; height: number }, element: HTMLElement) =>
  size.width === element.offsetWidth && size.height === element.offsetHeight;
