/**
 * The fabric view of the editor (docs/editor.md "Architecture", "The scene is data; fabric is a
 * view"): draws the store's design document with the render page's own code (shared/scene/draw.ts:
 * `drawBaseImage`, `fitTextLayer`, `imageLayer`), and turns fabric's events into commands
 * (commands.ts). It never changes the document itself and never saves fabric's objects.
 *
 * Two stacked layers, as the render service composes them (docs/adr/0004-render-slice.md "Render
 * slice"): a static canvas with the base photo (redrawn only when the image options change), and an
 * interactive canvas with the stickers and text snippets. Both are zoomed to fit the screen;
 * positions stay in the design's canvas px.
 *
 * Drawing is reconciled by object: each snippet or sticker is rebuilt only when what it draws
 * changed, or, for a text, when a face it is drawn with finished loading after it was measured
 * (canvas/textFonts.ts: an uploaded font, a subset fetched for a new character). The base photo
 * is drawn on its own, so the objects never wait for it; images come from the preloads of
 * preload.ts when the editor page started them. While the user drags an object, its moves go to the
 * store at once (one history step for the whole gesture) and the dragged object is left as fabric
 * moves it; it is redrawn from the document when the gesture ends.
 */
import {
  Canvas,
  FabricImage,
  StaticCanvas,
  Textbox,
  cache,
  type FabricObject,
  type TPointerEventInfo,
} from 'fabric';
import {
  drawBaseImage,
  fitTextLayer,
  placeBaseImage,
  imageLayer,
  type BaseImageLayer,
} from '#shared/scene/draw.ts';
import type { ResolvedImageLayer, ResolvedTextLayer } from '#shared/scene/resolve.ts';
import type { DesignDocument } from '#shared/design.ts';
import { runCommand } from '../commands.ts';
import { clampBox, canvasOf } from '../document/snippets.ts';
import { editorScene } from '../document/preview.ts';
import { basePhotoSrc, decodedImage, imageUrl } from '../preload.ts';
import { STICKER_CONTROLS, stickerModified } from './stickers.ts';
import { CONTROL_CORNER_PX, CONTROL_TOUCH_PX } from './controls.ts';
import { mountStickerGifPlayer, stickerImageSrc } from '../gif/stickerPlayer.ts';
import { loadTextFonts, textsToRefresh, type DrawnText } from './textFonts.ts';
import type { EditorStore } from '../store/index.ts';
import type { Selection } from '../store/selectionSlice.ts';

/** The selection frame and handles, in the product's colours. */
const CONTROL_STYLE = {
  borderColor: '#4338ca',
  cornerColor: '#ffffff',
  cornerStrokeColor: '#4338ca',
  cornerStyle: 'circle',
  // docs/editor.md "Deliberate deviations": 16 px to a mouse, the spec's 30 px to a finger.
  cornerSize: CONTROL_CORNER_PX,
  touchCornerSize: CONTROL_TOUCH_PX,
  transparentCorners: false,
  borderScaleFactor: 2,
  padding: 4,
} as const;

/**
 * Draws the objects' canvas's objects (bottom to top) with what lies between them and is no
 * object (canvas/countdown.ts: the timers' digits); `keyOf` names an object `sticker:{uuid}` or
 * `snippet:{id}`, null for none of the document's.
 */
export type ObjectPainter = (
  ctx: CanvasRenderingContext2D,
  objects: FabricObject[],
  keyOf: (object: FabricObject) => string | null,
) => void;

export interface CanvasView {
  /** Zooms both layers: 1 draws a canvas px as one CSS px. */
  setScale(scale: number): void;
  /** Draws the objects through `paint` from now on (null: one after the other, as fabric does). */
  paintObjects(paint: ObjectPainter | null): void;
  /** Draws the objects' canvas again, on the next frame. */
  requestRender(): void;
  /** Stops listening and frees the canvases. */
  dispose(): void;
}

export interface CanvasViewOptions {
  /** A double click on a text snippet: the page moves focus to its text field. */
  onEditText?: (id: string) => void;
}

/** `snippet:{id}` or `sticker:{uuid}`: one key per drawn object. */
const keyOf = (s: Selection) => `${s.kind}:${s.id}`;

/** What is drawn for an object: when this changes, the object is rebuilt. */
interface Drawn {
  object: FabricObject;
  signature: string;
}

/** The base photo's drawing input for a design (also gif/player.ts's, for a GIF's frames). */
export function baseLayer(design: DesignDocument, src: string): BaseImageLayer {
  return {
    src,
    width: design.canvas_width,
    height: design.canvas_height,
    angle: design.image_angle,
    flipX: design.flip_x,
    flipY: design.flip_y,
    filters: design.filters,
    enhance: design.enhance,
    legacyWidth: design.legacy_base_image_width,
  };
}

/**
 * Runs `once` one call at a time: a call while it runs makes it run again once it finished
 * (as does `once` answering true: what it drew is already stale), so the last state always
 * wins and two draws never interleave.
 */
function coalesced(once: () => Promise<boolean>, stopped: () => boolean): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        if (await once()) again = true;
      } while (again && !stopped());
    })().finally(() => {
      running = null;
    });
    return running;
  };
}

/**
 * Mounts the view on two canvas elements (the base layer below, the objects above).
 * @param baseImageUrl where the browser loads the base photo from (null: white canvas).
 */
export function mountCanvasView(
  elements: { base: HTMLCanvasElement; objects: HTMLCanvasElement },
  store: EditorStore,
  baseImageUrl: string | null,
  options: CanvasViewOptions = {},
): CanvasView {
  const base = new StaticCanvas(elements.base, { renderOnAddRemove: false });
  const canvas = new Canvas(elements.objects, {
    selection: false,
    preserveObjectStacking: true,
    uniformScaling: true,
    renderOnAddRemove: false,
    backgroundColor: '',
  });
  let scale = 1;
  let disposed = false;
  const drawn = new Map<string, Drawn>();
  const targets = new WeakMap<FabricObject, Selection>();
  /** The object being dragged, moved or scaled: left alone by the reconcile until release. */
  let transforming: string | null = null;
  /** True while the view changes fabric's selection itself: its events are not the user's. */
  let applying = false;
  let baseSignature = '';
  let painter: ObjectPainter | null = null;
  // fabric draws the objects one after the other; a painter draws layers between them too.
  const renderObjects = canvas._renderObjects.bind(canvas);
  const objectKey = (object: FabricObject) => {
    const target = targets.get(object);
    return target ? keyOf(target) : null;
  };
  canvas._renderObjects = (ctx, objects) =>
    painter ? painter(ctx, objects, objectKey) : renderObjects(ctx, objects);

  const fit = () => {
    const design = store.getState().design;
    if (!design) return;
    const size = { width: design.canvas_width * scale, height: design.canvas_height * scale };
    for (const c of [base, canvas]) {
      c.setDimensions(size);
      c.setZoom(scale);
    }
    base.requestRenderAll();
    canvas.requestRenderAll();
  };

  /** Draws the base photo of the current document when its drawing input changed. */
  async function drawBaseOnce(): Promise<boolean> {
    const design = store.getState().design;
    if (!design) return false;
    const src = basePhotoSrc(design, baseImageUrl);
    const layer = baseLayer(design, src ?? '');
    const signature = JSON.stringify(layer);
    if (signature === baseSignature) return false;
    baseSignature = signature;
    if (!src) {
      base.clear();
      base.backgroundColor = '#ffffff';
      base.requestRenderAll();
      return false;
    }
    try {
      // Decoded while the design loaded: drawn now, before the texts are built, instead of
      // after a load that waits for the main thread (docs/performance.md "Editor").
      const ready = decodedImage(src);
      if (ready) placeBaseImage(base, layer, new FabricImage(ready));
      else await drawBaseImage(base, { ...layer, src: await imageUrl(src) });
    } catch (error) {
      baseSignature = '';
      console.error('The base photo could not be drawn', error);
    }
    return false;
  }
  const drawBase = coalesced(drawBaseOnce, () => disposed);

  /** The layer each drawn text box was fitted from, to lay it out again while its width drags. */
  const textLayers = new WeakMap<Textbox, ResolvedTextLayer>();

  /** Builds the fabric object of a text layer: the render's fit, made editable on the canvas. */
  function textObject(layer: ResolvedTextLayer, design: DesignDocument): FabricObject {
    const box = fitTextLayer(layer, design.canvas_width, design.canvas_height);
    textLayers.set(box, layer);
    box.set({
      ...CONTROL_STYLE,
      editable: false,
      lockScalingFlip: true,
      lockSkewingX: true,
      lockSkewingY: true,
      lockRotation: true,
      hoverCursor: 'move',
    });
    box.setControlsVisibility({ mt: false, mb: false, mtr: false });
    return box;
  }

  /** Builds a sticker's object: moved, scaled by its corners and rotated (docs/editor.md "Editing rules"). */
  async function stickerObject(layer: ResolvedImageLayer): Promise<FabricObject> {
    const image = await imageLayer({ ...layer, src: await stickerImageSrc(layer.src, imageUrl) });
    image.set({ ...CONTROL_STYLE, ...STICKER_CONTROLS, hoverCursor: 'move' });
    image.setControlsVisibility({ mt: false, mb: false, ml: false, mr: false });
    return image;
  }

  /** Puts `object` in place of the drawn object of `key` (or at `index`), keeping the selection. */
  function place(key: string, target: Selection, object: FabricObject, index: number): void {
    const old = drawn.get(key)?.object;
    const wasActive = old !== undefined && canvas.getActiveObject() === old;
    if (old) canvas.remove(old);
    canvas.insertAt(Math.min(index, canvas.getObjects().length), object);
    targets.set(object, target);
    if (wasActive) canvas.setActiveObject(object);
  }

  /**
   * Brings the objects in step with the document (see the module comment); true when the
   * document changed meanwhile, so it must run again.
   */
  async function reconcileOnce(): Promise<boolean> {
    const design = store.getState().design;
    if (!design) return false;
    const { weatherPreview, cropPreviews } = store.getState();
    const scene = editorScene(design, weatherPreview, cropPreviews);
    const wanted: { target: Selection; signature: string; build: () => Promise<FabricObject> }[] = [
      ...scene.images.map((layer) => ({
        target: { kind: 'sticker', id: layer.id } as const,
        signature: JSON.stringify(layer),
        build: () => stickerObject(layer),
      })),
      ...scene.texts.map((layer) => ({
        target: { kind: 'snippet', id: layer.id } as const,
        signature: JSON.stringify([layer, design.canvas_width, design.canvas_height]),
        build: async () => {
          // Measured only once the faces it is drawn with are there.
          await loadTextFonts(layer);
          return textObject(layer, design);
        },
      })),
    ];
    const built = await Promise.all(
      wanted.map(async (w) => {
        const key = keyOf(w.target);
        const current = drawn.get(key);
        if (key === transforming && current) return null; // the user is moving it
        if (current?.signature === w.signature) return null;
        try {
          return await w.build();
        } catch (error) {
          console.error(`The ${w.target.kind} ${w.target.id} could not be drawn`, error);
          return null;
        }
      }),
    );
    if (disposed) return false;
    if (store.getState().design !== design) return true;
    applying = true;
    try {
      const keep = new Set(wanted.map((w) => keyOf(w.target)));
      for (const [key, entry] of drawn) {
        if (keep.has(key)) continue;
        canvas.remove(entry.object);
        drawn.delete(key);
      }
      wanted.forEach((w, index) => {
        const object = built[index];
        const key = keyOf(w.target);
        if (object) {
          place(key, w.target, object, index);
          drawn.set(key, { object, signature: w.signature });
        } else if (drawn.has(key)) {
          canvas.moveObjectTo(drawn.get(key)!.object, index);
        }
      });
      syncSelection();
    } finally {
      applying = false;
    }
    canvas.requestRenderAll();
    return false;
  }
  const reconcile = coalesced(reconcileOnce, () => disposed);

  /**
   * A face finished loading after texts were measured with another (docs/fonts.md: a team's
   * uploaded font once its list arrived): those texts forget fabric's cached glyph widths for
   * their family list and are built again.
   */
  const onFontsLoaded = (event: FontFaceSetLoadEvent) => {
    const texts: DrawnText[] = [];
    for (const [key, entry] of drawn) {
      if (entry.object instanceof Textbox) {
        texts.push({ key, fontFamily: entry.object.fontFamily, text: entry.object.text });
      }
    }
    const stale = textsToRefresh(texts, event.fontfaces);
    if (stale.length === 0) return;
    for (const key of stale) {
      const entry = drawn.get(key)!;
      cache.clearFontCache((entry.object as Textbox).fontFamily);
      entry.signature = '';
    }
    void reconcile();
  };
  document.fonts.addEventListener('loadingdone', onFontsLoaded);

  /** Shows the store's selection on the canvas. */
  function syncSelection(): void {
    const selection = store.getState().selection;
    const object = selection ? drawn.get(keyOf(selection))?.object : undefined;
    const active = canvas.getActiveObject();
    if (object === active) return;
    const was = applying;
    applying = true;
    if (object) canvas.setActiveObject(object);
    else canvas.discardActiveObject();
    applying = was;
    canvas.requestRenderAll();
  }

  // ---- fabric events → commands ------------------------------------------------------------

  const targetOf = (object: FabricObject | undefined) =>
    object ? (targets.get(object) ?? null) : null;

  canvas.on('selection:created', ({ selected }) => {
    const target = targetOf(selected[0]);
    if (!applying && target) runCommand(store, 'select', target);
  });
  canvas.on('selection:updated', ({ selected }) => {
    const target = targetOf(selected[0]);
    if (!applying && target) runCommand(store, 'select', target);
  });
  canvas.on('selection:cleared', () => {
    if (!applying) runCommand(store, 'deselect');
  });

  canvas.on('mouse:down', ({ target }: TPointerEventInfo) => {
    const selection = targetOf(target);
    if (!selection) return;
    transforming = keyOf(selection);
    // A drag is one undo step (history.ts gestures).
    store.getState().beginGesture();
  });

  const release = () => {
    if (transforming === null) return;
    transforming = null;
    store.getState().endGesture();
    void reconcile();
  };
  canvas.on('mouse:up', release);

  /** The object's box kept 5 px inside the canvas (docs/editor.md "Editing rules"), the same rule as the store's. */
  const clampObject = (object: FabricObject) => {
    const design = store.getState().design;
    if (!design) return;
    const { left, top } = clampBox(
      {
        left: object.left,
        top: object.top,
        width: object.getScaledWidth(),
        height: object.getScaledHeight(),
      },
      canvasOf(design),
    );
    object.set({ left, top });
    object.setCoords();
  };

  canvas.on('object:moving', ({ target }) => {
    const selection = targetOf(target);
    if (!selection) return;
    clampObject(target);
    runCommand(store, 'moveObject', {
      target: selection,
      left: target.left,
      top: target.top,
      ...(selection.kind === 'snippet' ? { height: target.height } : {}),
    });
  });

  /** The last transform of each object that stayed inside the canvas, to revert to. */
  const lastInside = new WeakMap<FabricObject, Record<string, number>>();
  const insideCanvas = (object: FabricObject) => {
    const design = store.getState().design;
    if (!design) return true;
    const r = object.getBoundingRect();
    const m = 5 - 0.5;
    return (
      r.left >= m &&
      r.top >= m &&
      r.left + r.width <= design.canvas_width - m &&
      r.top + r.height <= design.canvas_height - m
    );
  };
  /** docs/editor.md "Editing rules": "a scale that would leave the canvas is reverted". */
  const keepInside = ({ target }: { target: FabricObject }) => {
    if (insideCanvas(target)) {
      const { left, top, scaleX, scaleY, width } = target;
      lastInside.set(target, { left, top, scaleX, scaleY, width });
      return;
    }
    const last = lastInside.get(target);
    if (last) {
      target.set(last);
      target.setCoords();
    }
  };
  /**
   * While a side handle drags a text box's width, its value is laid out again for that width
   * (docs/editor.md "Text fitting"): lines broken for a narrow box join as it widens, as they
   * will when the gesture ends and the box is drawn again from the document. Narrowing stops,
   * as before, at the widest line fabric measures (docs/editor.md "Editing rules").
   */
  const relayout = ({ target }: { target: FabricObject }) => {
    const layer = target instanceof Textbox ? textLayers.get(target) : undefined;
    const design = store.getState().design;
    if (!layer || !design) return;
    const fitted = fitTextLayer(
      { ...layer, left: target.left, width: target.width },
      design.canvas_width,
      design.canvas_height,
    );
    // The top is the document's: fabric keeps the side's middle fixed as the height changes.
    target.set({ text: fitted.text, fontSize: fitted.fontSize, top: fitted.top });
    target.setCoords();
  };
  canvas.on('object:scaling', keepInside);
  canvas.on('object:resizing', relayout);
  canvas.on('object:resizing', keepInside);

  canvas.on('object:modified', ({ target, action }) => {
    const selection = targetOf(target);
    if (selection?.kind === 'sticker' && action && action !== 'drag') {
      stickerModified(store, selection.id, target);
      return;
    }
    if (selection?.kind !== 'snippet' || !action || action === 'drag') return;
    const snippet = store.getState().design?.text_snippets.find((s) => s.id === selection.id);
    if (!snippet) return;
    // Corners scale the font size with the box; the side handles change the width only.
    const ratio = target.scaleY;
    runCommand(store, 'resizeTextSnippet', {
      id: snippet.id,
      left: target.left,
      top: target.top,
      width: target.width * target.scaleX,
      fontSize: snippet.fontSize * ratio,
      // docs/editor.md "Editing rules": "Text width cannot shrink below the widest line".
      minWidth: target instanceof Textbox ? target.dynamicMinWidth * target.scaleX : 0,
    });
  });

  canvas.on('mouse:dblclick', ({ target }) => {
    const selection = targetOf(target);
    if (selection?.kind === 'snippet') options.onEditText?.(selection.id);
  });

  // ---- store → view -------------------------------------------------------------------------

  const unsubscribe = store.subscribe((s, prev) => {
    // The weather stickers' preview (docs/editor.md "Weather") changes their images.
    // So do the live crops' captures (docs/editor.md "Live web crop").
    if (s.weatherPreview !== prev.weatherPreview || s.cropPreviews !== prev.cropPreviews)
      void reconcile();
    if (s.design !== prev.design) {
      if (
        s.design &&
        prev.design &&
        (s.design.canvas_width !== prev.design.canvas_width ||
          s.design.canvas_height !== prev.design.canvas_height)
      )
        fit();
      void drawBase();
      void reconcile();
    } else if (s.selection !== prev.selection) syncSelection();
  });

  fit();
  void drawBase();
  void reconcile();
  // The selected GIF sticker's Play, Pause and Stop (gif/stickerPlayer.ts).
  const stopGifSticker = mountStickerGifPlayer(store, {
    stickerImage: (id) => drawn.get(`sticker:${id}`)?.object as FabricImage | undefined,
    render: () => canvas.requestRenderAll(),
  });

  return {
    setScale(next) {
      if (next === scale || !(next > 0)) return;
      scale = next;
      fit();
    },
    paintObjects(paint) {
      painter = paint;
    },
    requestRender() {
      if (!disposed) canvas.requestRenderAll();
    },
    dispose() {
      disposed = true;
      stopGifSticker();
      unsubscribe();
      document.fonts.removeEventListener('loadingdone', onFontsLoaded);
      void canvas.dispose();
      void base.dispose();
    },
  };
}
