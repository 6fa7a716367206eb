import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { estimatedHeight } from '../document/clamps.ts';
import { selectedSnippet } from '../store/selectionSlice.ts';
import { overlayPosition } from './selection-placement.ts';

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

/**
 * The selection overlay of a text snippet (spec 000 §4 "Selection overlay: Text snippets:
 * clone, delete, wrap toggle"), floating just above the selected snippet as drawn, that is
 * above the bounding box of its rotated corners (below it when there is no room above), inside
 * the canvas (selection-placement.ts). Clone copies it (renamed parameters, 'Copy of - '
 * title); Delete asks first (spec 000 §8 'Delete Text Snippet?'); Wrap switches line wrapping.
 * Positioned from the document (canvas px times the zoom), so it follows a drag as the document
 * changes.
 */
export function SelectionOverlay({ layers }: { layers: RefObject<HTMLElement | null> }) {
  const { store } = useEditorContext();
  const snippet = useEditor(selectedSnippet);
  const canvasWidth = useEditor((s) => s.design?.canvas_width ?? 1);
  const size = useLayerSize(layers);
  const self = useRef<HTMLDivElement>(null);
  const [own, setOwn] = useState(FIRST_GUESS);
  // Its real size (the labels' font, the Wrap state) once drawn, before the browser paints.
  const shownFor = snippet ? `${snippet.id}:${snippet.textWrap}` : null;
  useLayoutEffect(() => {
    const element = self.current;
    if (element) setOwn((o) => (sameSize(o, element) ? o : sizeOf(element)));
  }, [shownFor, size.width]);
  const element = layers.current;
  if (!snippet || !element || size.width === 0) return null;
  const at = overlayPosition(
    {
      left: snippet.left,
      top: snippet.top,
      width: snippet.width,
      height: estimatedHeight(snippet),
      angle: snippet.angle,
    },
    size.width / canvasWidth,
    size,
    own,
  );
  const id = snippet.id;
  return (
    <div
      className="selection-overlay"
      role="toolbar"
      aria-label="Selected text snippet"
      ref={self}
      style={{ top: element.offsetTop + at.top, left: element.offsetLeft + at.left }}
    >
      <button
        type="button"
        className="selection-overlay__button"
        aria-label="Clone snippet"
        onClick={() => runCommand(store, 'cloneTextSnippet', { id })}
      >
        Clone
      </button>
      <button
        type="button"
        className="selection-overlay__button"
        aria-label="Wrap lines"
        aria-pressed={snippet.textWrap}
        onClick={() => runCommand(store, 'toggleTextWrap', { id })}
      >
        Wrap
      </button>
      <button
        type="button"
        className="selection-overlay__button selection-overlay__button--danger"
        aria-label="Delete snippet"
        onClick={() => store.getState().askConfirm({ kind: 'deleteSnippet', id })}
      >
        Delete
      </button>
    </div>
  );
}

const sizeOf = (element: HTMLElement) => ({
  width: element.offsetWidth,
  height: element.offsetHeight,
});

const sameSize = (size: { width: number; height: number }, element: HTMLElement) =>
  size.width === element.offsetWidth && size.height === element.offsetHeight;
