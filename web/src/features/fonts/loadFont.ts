/**
 * Fonts in the editor (docs/fonts.md): the same `@font-face` rules the render page registers
 * (shared/fonts/catalogue.ts `resolveFont`, shared/fonts/face-set.ts), so fabric measures and
 * wraps a text snippet with the same files the render URL draws it with.
 *
 * A family's faces are registered when it is first loaded (nothing downloads until text needs a
 * face); uploaded fonts and CDN families once the team's list (`GET /getCustomFonts`) and the
 * server's font list (`GET /api/fonts`) are known. The catalogue module (the hosted families'
 * faces and the 1,950-family web-font list, ≈ 110 kB minified) is a chunk of its own, imported
 * on first use, so the editor's chunk does not carry it (docs/performance.md "Editor").
 */
import type * as CatalogueModule from '#shared/fonts/catalogue.ts';
import type { FontResolution, FontSources } from '#shared/fonts/catalogue.ts';
import { loadFontFaces, registerFontFaces, unregisterFontFaces } from '#shared/fonts/face-set.ts';
import type { CustomFont, FontFaceRule } from '#shared/fonts/types.ts';
import { fetchCustomFonts, fetchFontList } from './api.ts';

/** docs/editor.md "Messages": "Font load failure". */
export const FONT_LOAD_FAILED = "This font couldn't be loaded, please reload page!";

/** A family whose files did not load; `message` is the spec's (docs/editor.md "Messages"). */
export class FontLoadError extends Error {
  override readonly name = 'FontLoadError';
  constructor(readonly family: string) {
    super(FONT_LOAD_FAILED);
  }
}

type Catalogue = typeof CatalogueModule;

let sources: FontSources = {};
let sourcesRequest: Promise<FontSources> | undefined;
let catalogueModule: Promise<Catalogue> | undefined;
/** The team whose uploads `sources` holds (undefined until the first design names one). */
let fontTeam: string | undefined;
/** The uploaded fonts' rules registered in this document for `fontTeam`. */
let customRules: FontFaceRule[] = [];

/**
 * Told the team's uploaded fonts each time they become known (`custom`), and `null` when the
 * current team changed and the previous team's are forgotten.
 */
export type UploadedFontsListener = (custom: readonly CustomFont[] | null) => void;
const listeners = new Set<UploadedFontsListener>();

/**
 * Calls `listener` whenever the team's uploaded fonts become known (the picker's list, an
 * upload, the loader's own read) or are forgotten on a team switch (`null`). The editor's
 * bold/italic rule (commands/uploadedFonts.ts) listens, so a font uploaded while the editor is
 * open counts as uploaded at once (docs/fonts.md "Uploads").
 * @returns a function that stops the calls.
 */
export function onUploadedFonts(listener: UploadedFontsListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const tell = (custom: readonly CustomFont[] | null) => listeners.forEach((l) => l(custom));

/**
 * Whether `family` is one of the team's uploaded fonts, as far as their list is known: the
 * "never tofu" rule leaves such a text whole (shared/scene/glyphs.ts; docs/fonts.md).
 */
export function isUploadedFamily(family: string): boolean {
  const key = family.trim().toLowerCase();
  return (sources.custom ?? []).some((f) => f.family.toLowerCase() === key);
}

/**
 * Scopes the team's fonts to `teamId`, the team of the design being opened. When it differs from
 * the team of the fonts known so far (a team switch in the settings, without a page load), the
 * previous team's uploaded faces leave the document, its lists are forgotten (read again on
 * first need) and the listeners are told (`null`), so one team's uploads never draw or count as
 * uploads in another team's design.
 */
export function setFontTeam(teamId: string): void {
  if (fontTeam === teamId) return;
  const previous = fontTeam;
  fontTeam = teamId;
  if (previous === undefined) return;
  unregisterFontFaces(customRules);
  customRules = [];
  sources = {};
  sourcesRequest = undefined;
  tell(null);
}

/**
 * The catalogue module (`resolveFont` and its data), imported once. The editor page calls it as
 * its chunk loads, so the import overlaps the design request.
 * @throws the import's error when the chunk cannot be fetched (the next call tries again).
 */
export function loadCatalogue(): Promise<Catalogue> {
  catalogueModule ??= import('#shared/fonts/catalogue.ts').catch((error: unknown) => {
    catalogueModule = undefined;
    throw error;
  });
  return catalogueModule;
}

/** Registers the faces of the team's uploaded fonts (nothing downloads until text needs one). */
async function registerCustomFaces(from: FontSources): Promise<void> {
  const { resolveFont } = await loadCatalogue();
  if (from !== sources) return; // the team changed meanwhile
  registerCustomRules((from.custom ?? []).flatMap((f) => resolveFont(f.family, from).faces));
}

/** Registers uploaded fonts' rules, kept so that a team switch can take them out again. */
function registerCustomRules(rules: readonly FontFaceRule[]): void {
  registerFontFaces(rules);
  customRules.push(...rules);
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
  tell(sources.custom ?? []);
  registerCustomFaces(sources).catch((error: unknown) =>
    console.error('the uploaded fonts could not be registered', error),
  );
}

/** Reads the team's fonts and the CDN base once; a failure leaves them empty (logged). */
function loadSources(): Promise<FontSources> {
  const team = fontTeam;
  const request = (sourcesRequest ??= Promise.all([fetchCustomFonts(), fetchFontList()])
    .then(([custom, list]) => {
      if (team !== fontTeam) return sources; // answered for the previous team
      sources = { custom, cdnUrl: list.cdnUrl ?? undefined };
      tell(custom);
      return sources;
    })
    .catch((error: unknown) => {
      console.error('font sources could not be read', error);
      if (sourcesRequest === request) sourcesRequest = undefined;
      return sources;
    }));
  return request;
}

/**
 * Registers `family`'s `@font-face` rules (built-in alias, hosted, the team's upload or the CDN)
 * without loading any: the browser fetches a face when text needs it. The team's uploads and the
 * CDN base are read (once) only for a family the catalogue does not know.
 * @returns how the family is drawn; `source: 'fallback'` when the family is unknown or
 *   disabled and the default font (Journal) draws it instead (docs/editor.md "Messages").
 * @throws the import's error when the catalogue chunk cannot be fetched.
 */
export async function registerFont(family: string): Promise<FontResolution> {
  const { resolveFont } = await loadCatalogue();
  let resolution = resolveFont(family, sources);
  if (resolution.source === 'fallback') resolution = resolveFont(family, await loadSources());
  if (resolution.source === 'custom') registerCustomRules(resolution.faces);
  else registerFontFaces(resolution.faces);
  return resolution;
}

/**
 * Makes `family` drawable: registers its faces ({@link registerFont}) and resolves when
 * `document.fonts.load` has the regular face for `text`.
 * @param text the characters to load faces for (unicode-range subsets), default the name.
 * @returns how the family is drawn, as {@link registerFont}.
 * @throws FontLoadError (docs/editor.md "Messages" message) when the family's files do not load; the
 *   import's error when the catalogue chunk cannot be fetched.
 */
export async function loadFont(family: string, text = family): Promise<FontResolution> {
  const resolution = await registerFont(family);
  if (resolution.faces.length === 0) return resolution; // bundled with the fallback stack
  const loaded = await loadFontFaces(resolution.family, text).catch(() => false);
  if (!loaded) throw new FontLoadError(family);
  return resolution;
}
