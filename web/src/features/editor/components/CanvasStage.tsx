import { useEffect, useRef, type CSSProperties } from 'react';
import { mountCanvasView } from '../canvas/view.ts';
import { CropOverlay } from './CropOverlay.tsx';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { SelectionOverlay } from './SelectionOverlay.tsx';
import { SNIPPET_TEXT_FIELD_ID } from './SnippetTextField.tsx';
import { mountWatermarkOverlay, type WatermarkOverlay } from '../watermark/overlay.ts';
import { useWatermarkSettings } from '../watermark/useWatermarkSettings.ts';
import { mountGifPlayer } from '../gif/player.ts';
import { mountCountdownPreview } from '../canvas/countdown.ts';
import '../countdown.css';

/**
 * The design's canvas at its own size (docs/adr/0014-the-design-document-versions-and-restore.md
 * "The design document: versions and restore" `canvas_width`, `canvas_height`), scaled down to fit
 * its room (never scaled up): the stage's own box, measured, which the editor's layout sizes to
 * what the window leaves beside the panels and the settings (docs/editor.md "Layout"), so a
 * toolbar or a sheet that opens shrinks the canvas instead of pushing it out of view. The fabric view
 * (canvas/view.ts) draws into two canvas elements made here, outside React's tree.
 */
export function CanvasStage({ baseImageUrl }: { baseImageUrl: string | null }) {
  const { store } = useEditorContext();
  const width = useEditor((s) => s.design?.canvas_width ?? 0);
  const height = useEditor((s) => s.design?.canvas_height ?? 0);
  const frame = useRef<HTMLDivElement>(null);
  const layers = useRef<HTMLDivElement>(null);
  const { settings: watermarks } = useWatermarkSettings();
  const overlay = useRef<WatermarkOverlay | null>(null);

  useEffect(() => {
    const host = layers.current;
    const outer = frame.current;
    if (!host || !outer) return;
    const base = document.createElement('canvas');
    base.className = 'editor-stage__base';
    const objects = document.createElement('canvas');
    // The watermarks over everything (watermark/overlay.ts), as the render draws them.
    const marks = document.createElement('canvas');
    // An animated GIF photo's frames, over the photo and under the objects (gif/player.ts).
    const frames = document.createElement('canvas');
    host.append(base, frames, objects, marks);
    const view = mountCanvasView({ base, objects }, store, baseImageUrl, {
      onEditText: () => document.getElementById(SNIPPET_TEXT_FIELD_ID)?.focus(),
    });
    overlay.current = mountWatermarkOverlay(marks, store, { team: null, productMark: false });
    const gif = mountGifPlayer(frames, store, baseImageUrl);
    // Countdown timers, ticking, between the objects where the render draws them.
    const stopTimers = mountCountdownPreview(view, store, store.getState().env.now);
    const fit = () => {
      const design = store.getState().design;
      if (!design) return;
      const room = { width: outer.clientWidth, height: outer.clientHeight };
      // Not laid out (a page without styles, as in component tests): the design's own size.
      const laidOut = room.width > 0 && room.height > 0;
      const scale = laidOut
        ? Math.min(1, room.width / design.canvas_width, room.height / design.canvas_height)
        : 1;
      host.style.width = `${Math.floor(design.canvas_width * scale)}px`;
      host.style.height = `${Math.floor(design.canvas_height * scale)}px`;
      view.setScale(scale);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(outer);
    const unsubscribe = store.subscribe((s, prev) => {
      if (
        s.design?.canvas_width !== prev.design?.canvas_width ||
        s.design?.canvas_height !== prev.design?.canvas_height
      )
        fit();
    });
    return () => {
      unsubscribe();
      observer.disconnect();
      stopTimers();
      view.dispose();
      overlay.current?.dispose();
      overlay.current = null;
      gif.dispose();
      host.replaceChildren();
    };
  }, [store, baseImageUrl]);
  // After the mount above (and again after a remount): the team's watermark settings.
  useEffect(() => overlay.current?.setSettings(watermarks), [watermarks, store, baseImageUrl]);

  return (
    <div
      className="editor-stage"
      // Its height for its width (../layout.css sizes a one-column stage by it).
      style={{ '--canvas-aspect': width > 0 ? height / width : 0.6 } as CSSProperties}
    >
      <div className="editor-stage__room" ref={frame}>
        <div
          className="editor-stage__layers"
          ref={layers}
          role="img"
          aria-label={`The design, ${width} by ${height} px. Select a text snippet to move it with the arrow keys or edit it in the Snippets panel.`}
          data-testid="editor-canvas"
          data-canvas-width={width}
        />
        <CropOverlay layers={layers} />
        <SelectionOverlay layers={layers} />
      </div>
    </div>
  );
}
