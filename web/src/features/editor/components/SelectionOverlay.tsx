import { useEffect, useState, type RefObject } from 'react';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { estimatedHeight } from '../document/clamps.ts';
import { selectedSnippet } from '../store/selectionSlice.ts';

/** Room the overlay needs above the snippet before it goes below instead, CSS px. */
const OVERLAY_HEIGHT_PX = 44;

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
 * clone, delete, wrap toggle"), floating above the selected snippet on the canvas (below it
 * when there is no room above). Clone copies it (renamed parameters, 'Copy of - ' title);
 * Delete asks first (spec 000 §8 'Delete Text Snippet?'); Wrap switches line wrapping.
 * Positioned from the document (canvas px times the zoom), so it follows a drag as the document
 * changes.
 */
export function SelectionOverlay({ layers }: { layers: RefObject<HTMLElement | null> }) {
  const { store } = useEditorContext();
  const snippet = useEditor(selectedSnippet);
  const canvasWidth = useEditor((s) => s.design?.canvas_width ?? 1);
  const size = useLayerSize(layers);
  const element = layers.current;
  if (!snippet || !element || size.width === 0) return null;
  const scale = size.width / canvasWidth;
  const above = snippet.top * scale >= OVERLAY_HEIGHT_PX;
  const top = above
    ? element.offsetTop + snippet.top * scale - OVERLAY_HEIGHT_PX
    : element.offsetTop + (snippet.top + estimatedHeight(snippet)) * scale + 8;
  const left = element.offsetLeft + Math.max(0, snippet.left * scale);
  const id = snippet.id;
  return (
    <div
      className="selection-overlay"
      role="toolbar"
      aria-label="Selected text snippet"
      style={{ top: Math.max(0, top), left: Math.min(left, element.offsetLeft + size.width - 240) }}
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
