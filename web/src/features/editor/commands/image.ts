/**
 * The image toolbar's commands (docs/editor.md "Architecture": "Image toolbar", docs/editor.md
 * "Commands": "Editor changes", "History event types", "Crop"): filters, enhance, rotate, flip, the
 * size counters, the unit, the crop and a new base photo. Each is one named command with its
 * history intent (commands.ts); the document changes are the pure operations of document/image.ts.
 *
 * **Enhance** (docs/editor.md "Commands": "Enhance change: undo snapshot after 400 ms, server save
 * after 1000 ms"): the changes of an enhance burst join one history entry, which is closed once 400
 * ms pass without another enhance change; the server sync saves 1000 ms after the last change
 * (sync.ts).
 */
import { castDraft } from 'immer';
import {
  ENHANCE_RANGES,
  FILTER_NAMES,
  type EnhanceName,
  type FilterName,
} from '#shared/effects.ts';
import type { DesignDocument } from '#shared/design.ts';
import type { EditorCommand } from '../commands.ts';
import {
  canvasSizeFor,
  croppedDocument,
  rotatedQuarter,
  withBaseImage,
  withCanvasSize,
  type BaseImageRef,
} from '../document/image.ts';
import type { Box } from '../document/snippets.ts';
import type { SizeUnit } from '../document/units.ts';
import type { ChangeIntent } from '../store/designSlice.ts';
import type { EditorState, EditorStore } from '../store/index.ts';
import { withoutStaleSelection } from '../store/selectionSlice.ts';
import { changeIntent } from './intent.ts';

/** Quiet time that closes an enhance history entry, ms (docs/editor.md "Commands"). */
export const ENHANCE_SNAPSHOT_MS = 400;

/** The arguments of the image commands. */
export interface ImageCommandArgs {
  toggleFilter: { name: FilterName };
  setEnhance: { name: EnhanceName; value: number };
  rotateImage: void;
  flipImage: { axis: 'x' | 'y' };
  resizeCanvas: { changed: 'width' | 'height'; value: number; locked: boolean };
  setSizeOption: { unit: SizeUnit };
  cropImage: { rect: Box; image: BaseImageRef };
  replaceBaseImage: { image: BaseImageRef };
}

type ImageRegistry = { [K in keyof ImageCommandArgs]: EditorCommand<ImageCommandArgs[K]> };

const hasDesign = (s: EditorState) => s.design !== null;

/**
 * Changes the document by a pure operation (document/image.ts): the fields the operation
 * changed are put in place (field-level patches), and a selection whose object is gone is
 * dropped.
 */
export function applyDocument(
  store: EditorStore,
  intent: ChangeIntent,
  operation: (design: DesignDocument) => DesignDocument,
): void {
  const state = store.getState();
  const before = state.design;
  if (!before) return;
  const next = operation(before);
  state.applyChange(intent, (draft) => {
    for (const key of Object.keys(next) as (keyof DesignDocument)[]) {
      if (before[key] !== next[key]) (draft as Record<string, unknown>)[key] = castDraft(next[key]);
    }
  });
  const after = store.getState();
  if (after.design && after.selection !== withoutStaleSelection(after.selection, after.design))
    after.deselect();
}

/** The open enhance burst of each store: its closing timer. */
const enhanceBursts = new WeakMap<EditorStore, ReturnType<typeof setTimeout>>();

/** An enhancement value inside its range (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore"), rounded to what the slider steps. */
export function enhanceValue(name: EnhanceName, value: number): number {
  const [min, max] = ENHANCE_RANGES[name];
  const clamped = Math.min(max, Math.max(min, Number.isFinite(value) ? value : 0));
  return Math.round(clamped * 10000) / 10000;
}

export const IMAGE_COMMANDS: ImageRegistry = {
  toggleFilter: {
    name: 'toggleFilter',
    label: 'Filter',
    shortcuts: [],
    history: { kind: 'step', eventType: 'filter.event' },
    enabled: hasDesign,
    perform(store, { name }) {
      if (!(FILTER_NAMES as readonly string[]).includes(name)) return;
      store.getState().applyChange(changeIntent(this), (draft) => {
        if (draft.filters[name]) delete draft.filters[name];
        else draft.filters[name] = true;
      });
    },
  },
  setEnhance: {
    name: 'setEnhance',
    label: 'Enhance',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'enhance.event' },
    enabled: hasDesign,
    perform(store, { name, value }) {
      if (!(name in ENHANCE_RANGES)) return;
      const state = store.getState();
      const open = enhanceBursts.get(store);
      if (open === undefined) state.beginGesture();
      else clearTimeout(open);
      const next = enhanceValue(name, value);
      state.applyChange(changeIntent(this, `enhance`), (draft) => {
        if (next === 0) delete draft.enhance[name];
        else draft.enhance[name] = next;
      });
      enhanceBursts.set(
        store,
        setTimeout(() => {
          enhanceBursts.delete(store);
          store.getState().endGesture();
        }, ENHANCE_SNAPSHOT_MS),
      );
    },
  },
  rotateImage: {
    name: 'rotateImage',
    label: 'Rotate',
    shortcuts: [],
    history: { kind: 'step', eventType: 'rotate.event' },
    enabled: hasDesign,
    perform(store) {
      applyDocument(store, changeIntent(this), (d) => rotatedQuarter(d));
    },
  },
  flipImage: {
    name: 'flipImage',
    label: 'Flip',
    shortcuts: [],
    history: { kind: 'step', eventType: 'rotate.event' },
    enabled: hasDesign,
    perform(store, { axis }) {
      store.getState().applyChange(changeIntent(this), (draft) => {
        if (axis === 'x') draft.flip_x = !draft.flip_x;
        else draft.flip_y = !draft.flip_y;
      });
    },
  },
  resizeCanvas: {
    name: 'resizeCanvas',
    label: 'Image size',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'imageSize.event' },
    enabled: hasDesign,
    perform(store, { changed, value, locked }) {
      const design = store.getState().design;
      if (!design) return;
      const size = canvasSizeFor(design, changed, value, locked);
      applyDocument(store, changeIntent(this), (d) => withCanvasSize(d, size));
    },
  },
  setSizeOption: {
    name: 'setSizeOption',
    label: 'Unit',
    shortcuts: [],
    history: { kind: 'step', eventType: 'sizeOption.event' },
    enabled: hasDesign,
    perform(store, { unit }) {
      store.getState().applyChange(changeIntent(this), (draft) => {
        draft.size_option = unit;
      });
    },
  },
  cropImage: {
    name: 'cropImage',
    label: 'Crop',
    shortcuts: [],
    history: { kind: 'step', eventType: 'crop.event' },
    enabled: hasDesign,
    perform(store, { rect, image }) {
      applyDocument(store, changeIntent(this), (d) => croppedDocument(d, rect, image));
    },
  },
  replaceBaseImage: {
    name: 'replaceBaseImage',
    label: 'Use image',
    shortcuts: [],
    history: { kind: 'step', eventType: 'image.event' },
    enabled: hasDesign,
    perform(store, { image }) {
      applyDocument(store, changeIntent(this), (d) => withBaseImage(d, image));
    },
  },
};
