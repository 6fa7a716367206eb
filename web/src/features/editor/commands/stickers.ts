/**
 * The sticker commands (docs/editor.md "Architecture" Stickers panel and QR / screenshot toolbar,
 * docs/editor.md "Commands": "Selection overlay", docs/editor.md "Editing rules" QR and fallback
 * rules, docs/editor.md "Constants" placement): add, transform (move, scale, rotate from a canvas
 * gesture), clone, delete, the dynamic sticker's fallback, the QR colour, margin and transparency,
 * the screenshot device, a countdown timer's, a poll's and a weather sticker's settings. All are
 * `stickers.event` entries (docs/editor.md "Commands"). The document changes are the pure
 * operations of document/stickers.ts.
 */
import { castDraft, type Draft } from 'immer';
import type { DesignDocument, Sticker } from '#shared/design.ts';
import type { EditorCommand } from '../commands.ts';
import {
  clonedSticker,
  defaultQrValue,
  dynamicImage,
  fallbackProblem,
  newSticker,
  QR_MARGIN,
  transformedSticker,
  type StickerSource,
} from '../document/stickers.ts';
import type { EditorState, EditorStore } from '../store/index.ts';
import { changeIntent } from './intent.ts';
import { stickerColour, withStickerColour } from '#shared/scene/sticker-filters.ts';
import { patchedCountdown, type CountdownPatch } from '../document/countdown.ts';
import { hasPoll, ONE_POLL_MESSAGE, patchedPoll, type PollPatch } from '../document/poll.ts';
import { pollImage } from '../document/pollPreview.ts';
import { patchedWeather, weatherImage, type WeatherPatch } from '../document/weather.ts';
import { patchedCrop, type WebCropPatch } from '../document/webCrop.ts';

/** The arguments of the sticker commands; `id` is the sticker's uuid. */
export interface StickerCommandArgs {
  addSticker: { source: StickerSource };
  transformSticker: { id: string; left: number; top: number; scale: number; angle: number };
  cloneSticker: { id: string };
  requestDeleteSticker: { id: string };
  deleteSticker: { id: string };
  setStickerFallback: { id: string; value: string };
  setQrColour: { id: string; colour: string };
  setQrMargin: { id: string; margin: number };
  /** `colour` a `#rrggbb` or `#rgb` blended in mode screen (docs/editor.md "Sticker colour"). */
  setStickerColour: { id: string; colour: string };
  clearStickerColour: { id: string };
  setQrTransparent: { id: string; transparent: boolean };
  setScreenshotDevice: { id: string; isMobile: boolean };
  setCountdown: { id: string; patch: CountdownPatch };
  /** `step`: the change is an undo step of its own (an answer moved, added or removed). */
  setPoll: { id: string; patch: PollPatch; step?: boolean };
  setWeather: { id: string; patch: WeatherPatch };
  /** `patch` null: the crop removed (the page's top again); a crop starts with its first field. */
  setWebCrop: { id: string; patch: WebCropPatch | null };
}

type StickerRegistry = { [K in keyof StickerCommandArgs]: EditorCommand<StickerCommandArgs[K]> };

/** Thrown when a fallback value breaks a docs/editor.md "Editing rules" rule; `message` is the spec's text. */
export class FallbackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FallbackError';
  }
}

/**
 * Thrown when a change of a sticker's settings breaks a rule of its shared schema; `errors`
 * holds the messages by field. Each kind has its own class below.
 */
export class SettingsError extends Error {
  constructor(
    readonly errors: Record<string, string>,
    what: string,
  ) {
    super(Object.values(errors)[0] ?? `Invalid ${what} settings`);
  }
}

/** A refused countdown change; `errors` by field (`frames`, `deadline`, `labels.d`, …). */
export class CountdownError extends SettingsError {
  constructor(errors: Record<string, string>) {
    super(errors, 'countdown');
    this.name = 'CountdownError';
  }
}

/** A refused poll change (`POLL_MESSAGES`); `errors` by field (`options`, `options.1.url`, …). */
export class PollError extends SettingsError {
  constructor(errors: Record<string, string>) {
    super(errors, 'poll');
    this.name = 'PollError';
  }
}

/** A refused weather sticker change; `errors` by field (`fallback_text`, `unit`, …). */
export class WeatherError extends SettingsError {
  constructor(errors: Record<string, string>) {
    super(errors, 'weather');
    this.name = 'WeatherError';
  }
}

/** A refused live-crop change (`WEB_CROP_MESSAGES`); `errors` by field (`selector`, …). */
export class WebCropError extends SettingsError {
  constructor(errors: Record<string, string>) {
    super(errors, 'live crop');
    this.name = 'WebCropError';
  }
}

const hasDesign = (s: EditorState) => s.design !== null;

/** The draft's sticker of `uuid`; throws when it is gone (a command on a stale id). */
function draftSticker(draft: Draft<DesignDocument>, uuid: string): Draft<Sticker> {
  const sticker = draft.graphics_data.find((s) => s.uuid === uuid);
  if (!sticker) throw new Error(`No sticker ${uuid}`);
  return sticker;
}

/**
 * Changes one sticker by a pure function of it and refreshes a dynamic sticker's image (the QR
 * code redrawn with its new colour, margin or value) in the same history entry.
 */
function changeSticker(
  store: EditorStore,
  command: Pick<EditorCommand<never>, 'name' | 'label' | 'history'>,
  id: string,
  change: (sticker: Sticker) => Sticker,
): void {
  const state = store.getState();
  const current = state.design?.graphics_data.find((s) => s.uuid === id);
  if (!current) return;
  let next = change(current);
  if (next.stickerType === 'dynamicSticker')
    next = { ...next, ...dynamicImage(next, defaultQrValue()) };
  state.applyChange(changeIntent(command, `${command.name}:${id}`), (draft) => {
    const sticker = draftSticker(draft, id);
    for (const key of Object.keys(next) as (keyof Sticker)[])
      if (current[key] !== next[key]) (sticker as Record<string, unknown>)[key] = next[key];
  });
}

/**
 * A picked colour, lower-cased, or null when it is not `#rgb` / `#rrggbb` (docs/editor.md
 * "Editing rules": "Hex colour must be 2, 3 or 6 characters": the picker gives #rrggbb).
 */
const pickedHex = (colour: string): string | null =>
  /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(colour) ? colour.toLowerCase() : null;

const stickerOf = (s: EditorState, id: string) =>
  s.design?.graphics_data.find((t) => t.uuid === id);

export const STICKER_COMMANDS: StickerRegistry = {
  addSticker: {
    name: 'addSticker',
    label: 'Add sticker',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    // One poll per design (docs/polls.md "One poll per design").
    refusal: (s, { source }) =>
      source.kind === 'dynamic' && source.dynamicType === 'poll' && s.design && hasPoll(s.design)
        ? ONE_POLL_MESSAGE
        : null,
    perform(store, { source }) {
      const state = store.getState();
      const sticker = newSticker(
        state.design!,
        source,
        state.env.newId(),
        defaultQrValue(),
        state.env.now(),
      );
      state.applyChange(changeIntent(this), (draft) => {
        draft.graphics_data.push(castDraft(sticker));
      });
      state.select({ kind: 'sticker', id: sticker.uuid });
    },
  },
  transformSticker: {
    name: 'transformSticker',
    label: 'Move sticker',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, ...next }) {
      const design = store.getState().design;
      if (!design) return;
      const canvas = { width: design.canvas_width, height: design.canvas_height };
      changeSticker(store, this, id, (s) => transformedSticker(s, next, canvas));
    },
  },
  cloneSticker: {
    name: 'cloneSticker',
    label: 'Clone sticker',
    shortcuts: [],
    // docs/editor.md "Commands": "Regular stickers: clone and delete. Dynamic stickers: delete
    // only."
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id }) {
      const state = store.getState();
      const sticker = stickerOf(state, id);
      if (!sticker || sticker.stickerType === 'dynamicSticker' || !state.design) return;
      const canvas = { width: state.design.canvas_width, height: state.design.canvas_height };
      const copy = clonedSticker(sticker, state.env.newId(), canvas);
      state.applyChange(changeIntent(this), (draft) => {
        const index = draft.graphics_data.findIndex((s) => s.uuid === id);
        draft.graphics_data.splice(index + 1, 0, castDraft(copy));
      });
      state.select({ kind: 'sticker', id: copy.uuid });
    },
  },
  requestDeleteSticker: {
    name: 'requestDeleteSticker',
    label: 'Delete sticker',
    shortcuts: [],
    history: { kind: 'none' },
    enabled: hasDesign,
    // docs/editor.md "Messages": "Confirmations": 'Delete Sticker?'.
    perform: (store, { id }) => store.getState().askConfirm({ kind: 'deleteSticker', id }),
  },
  deleteSticker: {
    name: 'deleteSticker',
    label: 'Delete sticker',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id }) {
      const state = store.getState();
      if (!stickerOf(state, id)) return;
      state.applyChange(changeIntent(this), (draft) => {
        draft.graphics_data = draft.graphics_data.filter((s) => s.uuid !== id);
      });
      if (state.selection?.id === id) state.deselect();
    },
  },
  setStickerFallback: {
    name: 'setStickerFallback',
    label: 'Fallback value',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    /** @throws FallbackError with the docs/editor.md "Editing rules" message; nothing changes then. */
    perform(store, { id, value }) {
      const sticker = stickerOf(store.getState(), id);
      if (!sticker) return;
      const problem = fallbackProblem(sticker.dynamicStickerType, value);
      if (problem) throw new FallbackError(problem);
      changeSticker(store, this, id, (s) => ({ ...s, dynamicStickerUrl: value }));
    },
  },
  setQrColour: {
    name: 'setQrColour',
    label: 'QR colour',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, colour }) {
      const qrCodeColor = pickedHex(colour);
      if (qrCodeColor) changeSticker(store, this, id, (s) => ({ ...s, qrCodeColor }));
    },
  },
  setStickerColour: {
    name: 'setStickerColour',
    label: 'Sticker colour',
    shortcuts: [],
    // A drag in the picker is one gesture; typed or picked changes within a second merge.
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, colour }) {
      const hex = pickedHex(colour);
      if (hex)
        changeSticker(store, this, id, (s) => ({
          ...s,
          filters: withStickerColour(s.filters, hex),
        }));
    },
  },
  clearStickerColour: {
    name: 'clearStickerColour',
    label: 'No sticker colour',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id }) {
      const sticker = stickerOf(store.getState(), id);
      if (!sticker || stickerColour(sticker.filters) === null) return;
      changeSticker(store, this, id, (s) => ({
        ...s,
        filters: withStickerColour(s.filters, null),
      }));
    },
  },
  setQrMargin: {
    name: 'setQrMargin',
    label: 'QR margin',
    shortcuts: [],
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, margin }) {
      if (!Number.isFinite(margin)) return;
      // docs/editor.md "Editing rules": "QR margin 0 to 20".
      const marginSize = Math.min(QR_MARGIN.max, Math.max(QR_MARGIN.min, Math.round(margin)));
      changeSticker(store, this, id, (s) => ({ ...s, marginSize }));
    },
  },
  setQrTransparent: {
    name: 'setQrTransparent',
    label: 'QR transparency',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, transparent }) {
      changeSticker(store, this, id, (s) => ({ ...s, isTransparent: transparent }));
    },
  },
  setScreenshotDevice: {
    name: 'setScreenshotDevice',
    label: 'Screenshot device',
    shortcuts: [],
    history: { kind: 'step', eventType: 'stickers.event' },
    enabled: hasDesign,
    perform(store, { id, isMobile }) {
      changeSticker(store, this, id, (s) =>
        s.dynamicStickerType === 'screenShot' ? { ...s, isMobile } : s,
      );
    },
  },
  setCountdown: {
    name: 'setCountdown',
    label: 'Countdown timer',
    shortcuts: [],
    // Typing in one field is one step; each other field is its own (mergeKey below).
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    /**
     * Changes a countdown timer's settings (docs/editor.md "Countdown timer").
     * @throws CountdownError with the shared schema's messages; nothing changes then.
     */
    perform(store, { id, patch }) {
      const sticker = stickerOf(store.getState(), id);
      if (!sticker?.countdown) return;
      const next = patchedCountdown(sticker.countdown, patch);
      if (!next.ok) throw new CountdownError(next.errors);
      const state = store.getState();
      const key = `${this.name}:${id}:${Object.keys(patch).sort().join(',')}`;
      state.applyChange(changeIntent(this, key), (draft) => {
        draftSticker(draft, id).countdown = castDraft(next.countdown);
      });
    },
  },
  setPoll: {
    name: 'setPoll',
    label: 'Poll',
    shortcuts: [],
    // Typing in one field is one step; each other field is its own (mergeKey below).
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    /**
     * Changes a poll's settings (docs/editor.md "Poll").
     * @throws PollError with the shared schema's messages; nothing changes then.
     */
    perform(store, { id, patch, step }) {
      const sticker = stickerOf(store.getState(), id);
      if (!sticker?.poll) return;
      const next = patchedPoll(sticker.poll, patch);
      if (!next.ok) throw new PollError(next.errors);
      const state = store.getState();
      const key = `${this.name}:${id}:${Object.keys(patch).sort().join(',')}`;
      const intent = changeIntent(this, key);
      state.applyChange(step ? { ...intent, mergeKey: null } : intent, (draft) => {
        const drawn = draftSticker(draft, id);
        drawn.poll = castDraft(next.poll);
        drawn.dynamicStickerNewUrl = pollImage(next.poll);
      });
    },
  },
  setWeather: {
    name: 'setWeather',
    label: 'Weather',
    shortcuts: [],
    // Typing in one field is one step; each other field is its own (mergeKey below).
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    /**
     * Changes a weather sticker's settings (docs/editor.md "Weather").
     * @throws WeatherError with the shared schema's messages; nothing changes then.
     */
    perform(store, { id, patch }) {
      const sticker = stickerOf(store.getState(), id);
      if (!sticker?.weather) return;
      const next = patchedWeather(sticker.weather, patch);
      if (!next.ok) throw new WeatherError(next.errors);
      const state = store.getState();
      const key = `${this.name}:${id}:${Object.keys(patch).sort().join(',')}`;
      state.applyChange(changeIntent(this, key), (draft) => {
        const drawn = draftSticker(draft, id);
        drawn.weather = castDraft(next.weather);
        drawn.dynamicStickerNewUrl = weatherImage(next.weather);
      });
    },
  },
  setWebCrop: {
    name: 'setWebCrop',
    label: 'Live crop',
    shortcuts: [],
    // Typing in one field is one step; each other field is its own (the key below).
    history: { kind: 'merge', eventType: 'stickers.event' },
    enabled: hasDesign,
    /**
     * Changes a screenshot sticker's live crop (docs/editor.md "Live web crop"), or removes it.
     * @throws WebCropError with the shared schema's messages; nothing changes then.
     */
    perform(store, { id, patch }) {
      const sticker = stickerOf(store.getState(), id);
      if (sticker?.dynamicStickerType !== 'screenShot') return;
      let crop = null;
      if (patch) {
        const next = patchedCrop(sticker.crop, patch);
        if (!next.ok) throw new WebCropError(next.errors);
        crop = next.value;
      }
      const state = store.getState();
      const intent = changeIntent(this, `${this.name}:${id}:${Object.keys(patch ?? {}).sort()}`);
      const image = dynamicImage({ ...sticker, crop }, defaultQrValue());
      // Switching the crop off is a step of its own; typing in a field merges.
      state.applyChange(patch ? intent : { ...intent, mergeKey: null }, (draft) => {
        const drawn = draftSticker(draft, id);
        drawn.crop = castDraft(crop);
        drawn.dynamicStickerNewUrl = image.dynamicStickerNewUrl;
      });
    },
  },
};
