/**
 * Crop mode's rectangle over the canvas (docs/editor.md "Commands": "Crop: start, rectangle moved
 * or scaled, finish or cancel"; docs/editor.md "Editing rules": "crop rectangle starts at 20,20
 * with size 120x120 and stays inside the canvas with about 5 px tolerance"). The rectangle is moved
 * by dragging it and scaled by its corner handle, or from the keyboard: arrows move it,
 * Shift+arrows resize it (10 px with Alt). Its box lives in the store's ui slice (`crop`) in canvas
 * px; Done and Cancel are in the image toolbar.
 */
import { useEffect, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import { clampCropRect, cropArea } from '../document/image.ts';
import type { Box } from '../document/snippets.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';

/** Arrow key → direction. */
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** Where the canvas layers sit in the stage and their size on screen, CSS px. */
interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The crop rectangle over the canvas layers (`layers`: the element the canvases are drawn in;
 * the overlay is placed over it in their common positioned parent).
 */
export function CropOverlay({ layers }: { layers: RefObject<HTMLElement | null> }) {
  const { store } = useEditorContext();
  const crop = useEditor((s) => s.crop);
  const width = useEditor((s) => s.design?.canvas_width ?? 1);
  const height = useEditor((s) => s.design?.canvas_height ?? 1);
  const [frame, setFrame] = useState<Frame | null>(null);
  const cropping = crop !== null;

  useEffect(() => {
    const element = layers.current;
    if (!element || !cropping) return;
    const measure = () =>
      setFrame({
        left: element.offsetLeft,
        top: element.offsetTop,
        width: element.clientWidth,
        height: element.clientHeight,
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [layers, cropping]);

  if (!crop || !frame) return null;
  const scale = frame.width / width || 1;
  const canvas = { width, height };
  const set = (box: Box) => store.getState().setCrop(clampCropRect(box, canvas));

  /** Follows the pointer from a press on the rectangle (move) or its handle (scale). */
  const drag = (event: ReactPointerEvent, mode: 'move' | 'scale') => {
    event.preventDefault();
    event.stopPropagation();
    const start = { x: event.clientX, y: event.clientY, box: crop };
    const onMove = (e: PointerEvent) => {
      const dx = (e.clientX - start.x) / scale;
      const dy = (e.clientY - start.y) / scale;
      const b = start.box;
      set(
        mode === 'move'
          ? { ...b, left: b.left + dx, top: b.top + dy }
          : {
              ...b,
              width: Math.min(b.width + dx, width - b.left),
              height: Math.min(b.height + dy, height - b.top),
            },
      );
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  const area = cropArea(crop, canvas);
  return (
    <div
      className="crop-overlay"
      style={{ left: frame.left, top: frame.top, width: frame.width, height: frame.height }}
    >
      <div
        className="crop-overlay__box"
        role="slider"
        tabIndex={0}
        aria-label="Crop area: arrows move it, Shift and arrows resize it"
        aria-valuetext={`${area.width} by ${area.height} px at ${area.left}, ${area.top}`}
        aria-valuenow={area.width}
        data-testid="crop-box"
        style={{
          left: crop.left * scale,
          top: crop.top * scale,
          width: crop.width * scale,
          height: crop.height * scale,
        }}
        onPointerDown={(e) => drag(e, 'move')}
        onKeyDown={(e) => {
          const arrow = ARROWS[e.key];
          if (!arrow) return;
          e.preventDefault();
          const step = e.altKey ? 10 : 1;
          const [dx, dy] = [arrow[0] * step, arrow[1] * step];
          set(
            e.shiftKey
              ? { ...crop, width: crop.width + dx, height: crop.height + dy }
              : { ...crop, left: crop.left + dx, top: crop.top + dy },
          );
        }}
      >
        <span className="crop-overlay__size">
          {area.width} × {area.height}
        </span>
        <span
          className="crop-overlay__handle"
          aria-hidden="true"
          data-testid="crop-handle"
          onPointerDown={(e) => drag(e, 'scale')}
        />
      </div>
    </div>
  );
}
