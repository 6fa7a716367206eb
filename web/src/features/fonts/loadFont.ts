/**
 * Fonts in the editor (issue 7 §3): the same `@font-face` rules the render page registers
 * (shared/fonts/catalogue.ts `resolveFont`, shared/fonts/face-set.ts), so fabric measures and
 * wraps a text snippet with the same files the render URL draws it with.
 *
 * The built-in and hosted families are registered at once (nothing downloads until text needs
 * a face); uploaded fonts and CDN families once the team's list (`GET /getCustomFonts`) and the
 * server's font list (`GET /api/fonts`) are known.
 */
import {
  alwaysAvailableFaces,
  resolveFont,
  type FontResolution,
  type FontSources,
} from '#shared/fonts/catalogue.ts';
import { loadFontFaces, registerFontFaces } from '#shared/fonts/face-set.ts';
import type { CustomFont } from '#shared/fonts/types.ts';
import { useAppStore } from '../../state/store.ts';
import { fetchCustomFonts, fetchFontList } from './api.ts';

/** Spec 000 §8 "Font load failure". */
export const FONT_LOAD_FAILED = "This font couldn't be loaded, please reload page!";

/** A family whose files did not load; `message` is the spec's (spec 000 §8). */
export class FontLoadError extends Error {
  override readonly name = 'FontLoadError';
  constructor(readonly family: string) {
    super(FONT_LOAD_FAILED);
  }
}

let sources: FontSources = {};
let sourcesRequest: Promise<FontSources> | undefined;
let alwaysRegistered = false;

/** Registers the faces of the team's uploaded fonts (nothing downloads until text needs one). */
function registerCustomFaces(from: FontSources): void {
  registerFontFaces((from.custom ?? []).flatMap((f) => resolveFont(f.family, from).faces));
}

/**
 * Registers the built-in and hosted families' faces once (issue 7 §3), and the team's uploaded
 * fonts as soon as their list arrives, so a design that uses one is measured with it.
 */
export function registerAlwaysAvailableFonts(): void {
  if (alwaysRegistered) return;
  alwaysRegistered = true;
  registerFontFaces(alwaysAvailableFaces());
  // Only for a signed-in user: a 401 would open the session-expired dialog.
  if (useAppStore.getState().user) void loadSources().then(registerCustomFaces);
}

/**
 * Tells the loader the team's uploaded fonts and the CDN base (the picker calls it when its
 * lists arrive, and after an upload).
 */
export function setFontSources(next: { custom?: CustomFont[]; cdnUrl?: string | null }): void {
  sources = {
    custom: next.custom ?? sources.custom ?? [],
    cdnUrl: next.cdnUrl === undefined ? sources.cdnUrl : (next.cdnUrl ?? undefined),
  };
  sourcesRequest = Promise.resolve(sources);
  registerCustomFaces(sources);
}

/** Reads the team's fonts and the CDN base once; a failure leaves them empty (logged). */
function loadSources(): Promise<FontSources> {
  sourcesRequest ??= Promise.all([fetchCustomFonts(), fetchFontList()])
    .then(([custom, list]) => {
      sources = { custom, cdnUrl: list.cdnUrl ?? undefined };
      return sources;
    })
    .catch((error: unknown) => {
      console.error('font sources could not be read', error);
      sourcesRequest = undefined;
      return sources;
    });
  return sourcesRequest;
}

/**
 * Makes `family` drawable: registers its `@font-face` rules (built-in alias, hosted, the team's
 * upload or the CDN) and resolves when `document.fonts.load` has the face for `text`.
 * @param text the characters to load faces for (unicode-range subsets), default the name.
 * @returns how the family is drawn; `source: 'fallback'` when the family is unknown or
 *   disabled and the default font (Journal) draws it instead (spec 000 §8).
 * @throws FontLoadError (spec 000 §8 message) when the family's files do not load.
 */
export async function loadFont(family: string, text = family): Promise<FontResolution> {
  registerAlwaysAvailableFonts();
  let resolution = resolveFont(family, sources);
  if (resolution.source === 'fallback') resolution = resolveFont(family, await loadSources());
  if (resolution.faces.length === 0) return resolution; // bundled with the fallback stack
  registerFontFaces(resolution.faces);
  const loaded = await loadFontFaces(resolution.family, text).catch(() => false);
  if (!loaded) throw new FontLoadError(family);
  return resolution;
}
