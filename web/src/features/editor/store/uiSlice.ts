/**
 * The ui slice: the open side panel (docs/editor.md "Architecture": "four floating side panels, one
 * open at a time"), the pending confirmation (docs/editor.md "Messages"), the add-snippet cooldown
 * (docs/editor.md "Commands"), a notice for the user, the weather stickers' preview
 * (docs/editor.md "Weather") and the live crops' captures (docs/editor.md "Live web crop"). View
 * state only: never in the history.
 */
import type { Box } from '../document/snippets.ts';
import type { EditorSlice } from './types.ts';

/**
 * What the canvas draws the weather stickers with (docs/editor.md "Weather"): the sample report,
 * or no weather known (their fallback text). View state: the document never holds it.
 */
export type WeatherPreview = 'sample' | 'unknown';

/** The side panels (docs/editor.md "Architecture"). */
export const PANELS = ['templates', 'images', 'snippets', 'stickers', 'rules', 'data'] as const;
export type PanelName = (typeof PANELS)[number];

/** A confirmation the user must answer (docs/editor.md "Messages": "Confirmations"). */
export type ConfirmRequest =
  { kind: 'deleteSnippet'; id: string } | { kind: 'deleteSticker'; id: string };

/**
 * A message for the user: info after a 409 re-apply or a repeated parameter, error after a
 * refused change. `snippetIds`: text snippets the Snippets list highlights while it shows.
 */
export interface EditorNotice {
  tone: 'info' | 'error';
  text: string;
  snippetIds?: readonly string[];
}

export interface UiSlice {
  panel: PanelName | null;
  /** Opens a panel (closing the open one); the open panel's name closes it. */
  togglePanel(panel: PanelName): void;
  confirm: ConfirmRequest | null;
  askConfirm(request: ConfirmRequest): void;
  closeConfirm(): void;
  /** True for 1 s after a snippet was added (docs/editor.md "Commands": "Search/add"). */
  addSnippetBlocked: boolean;
  setAddSnippetBlocked(blocked: boolean): void;
  notice: EditorNotice | null;
  showNotice(notice: EditorNotice | null): void;
  /** Crop mode's rectangle in canvas px (docs/editor.md "Commands": "Crop"), or null outside crop mode. */
  crop: Box | null;
  setCrop(crop: Box | null): void;
  /**
   * A title typed into the title field and not saved yet (it saves on blur): the save indicator
   * must not say "Saved" meanwhile (docs/editor.md "Server sync").
   */
  titleUnsaved: boolean;
  setTitleUnsaved(unsaved: boolean): void;
  /** The weather stickers' preview on the canvas; `sample` when the editor opens. */
  weatherPreview: WeatherPreview;
  setWeatherPreview(preview: WeatherPreview): void;
  /**
   * Live crops captured for the canvas (docs/editor.md "Live web crop"), PNG data URLs by
   * document/webCrop.ts `cropPreviewRequest` key; `MAX_CROP_PREVIEWS` are kept: past them the
   * oldest goes, one of those not in `drawn` (the open design's crops) first.
   */
  cropPreviews: Readonly<Record<string, string>>;
  setCropPreview(key: string, image: string, drawn?: ReadonlySet<string>): void;
  /**
   * Why a live crop could not be captured (the server's message), by the same key as
   * `cropPreviews`; only crops of the open design (cropCaptures.ts forgets the others).
   */
  cropFailures: Readonly<Record<string, string>>;
  setCropFailures(failures: Readonly<Record<string, string>>): void;
}

/** Crop captures the editor keeps for its canvas (docs/web-crops.md "In the editor"). */
export const MAX_CROP_PREVIEWS = 20;

export const createUiSlice: EditorSlice<UiSlice> = (set) => ({
  panel: 'snippets',
  togglePanel: (panel) => set((s) => ({ panel: s.panel === panel ? null : panel })),
  confirm: null,
  askConfirm: (confirm) => set({ confirm }),
  closeConfirm: () => set({ confirm: null }),
  addSnippetBlocked: false,
  setAddSnippetBlocked: (addSnippetBlocked) => set({ addSnippetBlocked }),
  notice: null,
  showNotice: (notice) => set({ notice }),
  crop: null,
  setCrop: (crop) => set({ crop }),
  titleUnsaved: false,
  setTitleUnsaved: (titleUnsaved) => set({ titleUnsaved }),
  weatherPreview: 'sample',
  setWeatherPreview: (weatherPreview) => set({ weatherPreview }),
  cropPreviews: {},
  setCropPreview: (key, image, drawn = new Set()) =>
    set((s) => {
      const rest = Object.entries(s.cropPreviews).filter(([k]) => k !== key);
      // Past the bound the oldest go, those the design does not draw before those it does.
      const over = rest.length - (MAX_CROP_PREVIEWS - 1);
      const dropped = new Set(
        [...rest.filter(([k]) => !drawn.has(k)), ...rest.filter(([k]) => drawn.has(k))]
          .slice(0, Math.max(0, over))
          .map(([k]) => k),
      );
      return {
        cropPreviews: Object.fromEntries([...rest.filter(([k]) => !dropped.has(k)), [key, image]]),
      };
    }),
  cropFailures: {},
  setCropFailures: (cropFailures) => set({ cropFailures }),
});
