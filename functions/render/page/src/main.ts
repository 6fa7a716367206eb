/**
 * The render page bundle: loaded once into the warm Chromium page (docs/adr/0004-render-slice.md
 * "Render slice") and called per request with a resolved scene. It draws only the personalised
 * layers, on a transparent canvas, with the same fabric code as the editor (shared/scene/draw.ts).
 */
import { StaticCanvas } from 'fabric';
import { drawBaseImage, drawScene, type BaseImageLayer } from '../../../../shared/scene/draw.ts';
import { selectDeterministicFilterBackend } from '../../../../shared/scene/filters.ts';
import { fontFamilyList } from '../../../../shared/scene/fonts.ts';
import type { ResolvedScene } from '../../../../shared/scene/resolve.ts';
import { alwaysAvailableFaces } from '../../../../shared/fonts/catalogue.ts';
import { fontFaceChanges, registerFontFaces } from '../../../../shared/fonts/face-set.ts';
import type { FontFaceRule } from '../../../../shared/fonts/types.ts';
import {
  encodePixelRuns,
  pixelRunsBound,
  type DrawnLayer,
} from '../../../../shared/scene/pixel-runs.ts';

/** What a personalised draw hands over: the drawn regions and the page's stage times (ms). */
export interface DrawnScene {
  regions: DrawnLayer[];
  ms: { fonts: number; draw: number; read: number };
}

declare global {
  interface Window {
    /**
     * Draws the scene's personalised layers and hands over the pixels of what was drawn.
     * `faces`: font faces the scene needs beyond the built-in and hosted ones (an uploaded
     * font, a CDN family), registered once per page.
     */
    picsnippetsRender: (
      scene: ResolvedScene,
      faces?: FontFaceRule[],
      density?: number,
    ) => Promise<DrawnScene>;
    /**
     * Draws the static layer (the base photo with its image tools), whole canvas, RGBA, at
     * `density` device pixels per canvas px (`base.src` already holds that many).
     */
    picsnippetsRenderBase: (base: BaseImageLayer, density?: number) => Promise<DrawnLayer>;
    /** Draws each scene and hands over its drawn regions (countdown frames). */
    picsnippetsRenderFrames: (
      scenes: ResolvedScene[],
      faces?: FontFaceRule[],
    ) => Promise<DrawnLayer[][]>;
    picsnippetsReady: boolean;
  }
  interface Uint8Array {
    /** Chromium 140+ (TC39 Uint8Array base64). */
    toBase64?: () => string;
  }
}

// Never attached to the document: an attached canvas is composited into a frame after every
// draw (software GL here), which cost Chromium more CPU than the draw and read-back together;
// a detached one draws the same pixels (docs/performance.md "Render v2: CPU per render, the
// fonts stage, cold start").
const element = document.createElement('canvas');
const canvas = new StaticCanvas(element, {
  enableRetinaScaling: false,
  renderOnAddRemove: false,
  skipOffscreen: false,
});

// The built-in and hosted families, registered once: a face downloads (from the page's own
// origin, browser.ts) only when text needs it, and stays loaded for the page's life.
registerFontFaces(alwaysAvailableFaces());

/**
 * Characters whose faces were loaded (checked or loaded before), by style, weight and family
 * list: the size picks no face, so it is not part of the key. `document.fonts.check` walks every
 * registered face (over a thousand with the fallback stack's unicode-range subsets: ≈ 8 ms per
 * call), so a text whose characters all appeared before in the same key skips it. Faces never
 * unload, so this answers as `check` would; it is emptied when faces are added or removed
 * (`fontFaceChanges`) and when it grows past its bounds.
 */
const loadedChars = new Map<string, Set<string>>();
let loadedCharsAt = -1;
const MAX_LOADED_KEYS = 256;
const MAX_LOADED_CHARS = 20_000;

/** True when every character of `text` is known to have its faces loaded under `key`. */
function knownLoaded(key: string, text: string): boolean {
  const known = loadedChars.get(key);
  if (!known) return false;
  for (const ch of text) if (!known.has(ch)) return false;
  return true;
}

/** Remembers that the faces of every character of `text` are loaded under `key`. */
function rememberLoaded(key: string, text: string): void {
  if (loadedChars.size >= MAX_LOADED_KEYS) loadedChars.clear();
  let known = loadedChars.get(key);
  if (!known || known.size > MAX_LOADED_CHARS) {
    known = new Set();
    loadedChars.set(key, known);
  }
  for (const ch of text) known.add(ch);
}

/** The most faces the family index below holds (the page registers about 1,100). */
const MAX_INDEXED_FACES = 20_000;

/**
 * The document's faces by lower-case family, style and weight, with the face count and the
 * registration counter (face-set.ts) it was built from; rebuilt when either changes.
 */
let faceIndex: { size: number; changes: number; faces: Map<string, FontFace[]> } | undefined;

/** A face's `unicode-range` as [from, to] pairs; undefined when it is the whole range. */
const faceRanges = new WeakMap<FontFace, Array<[number, number]> | undefined>();

/** Parses a CSS `unicode-range` (`U+0-7F, U+4??`); undefined for the default whole range. */
function parseRanges(value: string): Array<[number, number]> | undefined {
  const ranges: Array<[number, number]> = [];
  for (const part of value.split(',')) {
    const match = /^\s*u\+([0-9a-f?]{1,6})(?:-([0-9a-f]{1,6}))?\s*$/i.exec(part);
    if (!match) continue;
    const from = parseInt(match[1]!.replace(/\?/g, '0'), 16);
    const to = parseInt(match[2] ?? match[1]!.replace(/\?/g, 'f'), 16);
    if (from === 0 && to >= 0x10ffff) return undefined;
    ranges.push([from, to]);
  }
  return ranges;
}

/** The faces of `family` registered at exactly `style` and `weight` (CSS weight number). */
function facesOf(family: string, style: string, weight: string): FontFace[] {
  const set = document.fonts as FontFaceSet & { readonly size: number };
  if (faceIndex?.size !== set.size || faceIndex.changes !== fontFaceChanges()) {
    const faces = new Map<string, FontFace[]>();
    let n = 0;
    set.forEach((face) => {
      if (n++ >= MAX_INDEXED_FACES) return;
      const key = `${face.family.replace(/^(["'])(.*)\1$/, '$2').toLowerCase()}|${face.style}|${face.weight}`;
      const list = faces.get(key);
      if (list) list.push(face);
      else faces.set(key, [face]);
    });
    faceIndex = { size: set.size, changes: fontFaceChanges(), faces };
  }
  return faceIndex.faces.get(`${family.toLowerCase()}|${style}|${weight}`) ?? [];
}

/**
 * The characters of `text` that the layer's own family leaves to the rest of its list (each
 * once, whitespace left out), or undefined when that cannot be told from the faces' ranges:
 * the family has no face at exactly this style and weight (the browser then picks a nearer
 * one), or one of them declares no `unicode-range`.
 */
function leftToTheList(
  family: string,
  style: string,
  weight: 'normal' | 'bold',
  text: string,
): string | undefined {
  const faces = facesOf(family, style, weight === 'bold' ? '700' : '400');
  if (faces.length === 0) return undefined;
  const ranges: Array<[number, number]> = [];
  for (const face of faces) {
    if (!faceRanges.has(face)) faceRanges.set(face, parseRanges(face.unicodeRange));
    const own = faceRanges.get(face);
    if (!own) return undefined;
    ranges.push(...own);
  }
  const rest = new Set<string>();
  for (const ch of text) {
    if (/\s/.test(ch)) continue;
    const code = ch.codePointAt(0)!;
    if (!ranges.some(([from, to]) => code >= from && code <= to)) rest.add(ch);
  }
  return [...rest].join('');
}

/**
 * Loads the faces a text layer is drawn with. A character is drawn by the first family of the
 * layer's list (shared/scene/fonts.ts `fontFamilyList`) whose faces' `unicode-range` holds it,
 * so the layer's own family is loaded for the whole text and the whole list only for the
 * characters the own family's ranges leave over: `document.fonts.load` on the whole list would
 * also fetch every later family's subset a character falls in (Noto Sans Arabic, Hebrew, SC,
 * JP and KR all have subsets holding ASCII: 29 files per weight for a Latin name instead of
 * one). The editor loads the same way (web/src/features/editor/canvas/textFonts.ts). When the
 * own family's ranges do not tell (`leftToTheList`), or one of its faces fails to load, the
 * whole list is loaded for the whole text, as before.
 */
async function loadLayerFaces(
  family: string,
  style: 'normal' | 'italic',
  weight: 'normal' | 'bold',
  text: string,
): Promise<void> {
  const spec = `${style} ${weight} 16px ${fontFamilyList(family)}`;
  const rest = leftToTheList(family, style, weight, text);
  if (rest !== undefined) {
    const own = `${style} ${weight} 16px "${family.replace(/["\\]/g, '')}"`;
    const faces = await document.fonts.load(own, text).catch(() => undefined);
    if (faces?.every((f) => f.status === 'loaded')) {
      if (rest !== '') await document.fonts.load(spec, rest).catch(() => []);
      return;
    }
  }
  if (!document.fonts.check(spec, text)) await document.fonts.load(spec, text).catch(() => []);
}

/**
 * Loads the font faces (and the unicode-range subsets) the layers need before drawing
 * (`loadLayerFaces`); a layer whose characters were all loaded before under the same style,
 * weight and family list (`knownLoaded`) costs no font work. A face that failed to load stays
 * failed (FontFace status `error` is final), so a repeated `load` would not change what is
 * drawn.
 */
async function loadFonts(scene: ResolvedScene): Promise<void> {
  if (loadedCharsAt !== fontFaceChanges()) {
    loadedChars.clear();
    loadedCharsAt = fontFaceChanges();
  }
  await Promise.all(
    scene.texts
      .filter((t) => t.text.trim() !== '')
      .map(async (t) => {
        const families = fontFamilyList(t.fontFamily);
        const key = `${t.fontStyle} ${t.fontWeight} ${families}`;
        if (knownLoaded(key, t.text)) return;
        await loadLayerFaces(t.fontFamily, t.fontStyle, t.fontWeight, t.text);
        rememberLoaded(key, t.text);
      }),
  );
}

const context = canvas.getContext();

/** Base64 of bytes: the native encoder where the browser has it, else btoa over chunks. */
function toBase64(bytes: Uint8Array): string {
  if (typeof bytes.toBase64 === 'function') return bytes.toBase64();
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

let runBuffer = new Uint8Array(0);

/**
 * The page's one buffer for pixel runs, grown to the worst case of `pixels` when it is smaller:
 * the runs are turned into base64 before the next region is read.
 */
function runScratch(pixels: number): Uint8Array {
  if (runBuffer.length < pixelRunsBound(pixels)) runBuffer = new Uint8Array(pixelRunsBound(pixels));
  return runBuffer;
}

/**
 * Reads a rectangle and cuts it down to the pixels that hold ink (alpha > 0): a centred line in
 * a 900 px wide snippet box hands over only its own width. Returns null for a blank rectangle.
 */
function cropToInk(x: number, y: number, width: number, height: number): DrawnLayer | null {
  const data = context.getImageData(x, y, width, height).data;
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let row = 0; row < height; row++) {
    const base = row * width * 4;
    let first = -1;
    for (let col = 0; col < width; col++) {
      if (data[base + col * 4 + 3] !== 0) {
        first = col;
        break;
      }
    }
    if (first < 0) continue;
    let last = first;
    for (let col = width - 1; col > first; col--) {
      if (data[base + col * 4 + 3] !== 0) {
        last = col;
        break;
      }
    }
    if (row < top) top = row;
    bottom = row;
    if (first < left) left = first;
    if (last > right) right = last;
  }
  if (bottom < 0) return null;
  const w = right - left + 1;
  const h = bottom - top + 1;
  const out = new Uint8Array(w * h * 4);
  for (let row = 0; row < h; row++) {
    const from = ((top + row) * width + left) * 4;
    out.set(data.subarray(from, from + w * 4), row * w * 4);
  }
  // Pixel runs: about 40 % of the raw bytes through base64 and the protocol (pixel-runs.ts).
  return {
    left: x + left,
    top: y + top,
    width: w,
    height: h,
    rgba: toBase64(encodePixelRuns(out, runScratch(w * h))),
    encoding: 'runs',
  };
}

/** Merges overlapping rectangles, so no pixel is handed over (and composed) twice. */
export function mergeRects(rects: Rect[]): Rect[] {
  const out = rects.map((r) => ({ ...r }));
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!;
        const b = out[j]!;
        if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) {
          out[i] = {
            x0: Math.min(a.x0, b.x0),
            y0: Math.min(a.y0, b.y0),
            x1: Math.max(a.x1, b.x1),
            y1: Math.max(a.y1, b.y1),
          };
          out.splice(j, 1);
          merged = true;
          break;
        }
      }
    }
  }
  return out;
}

/**
 * Sizes the page's canvas to `width` × `height` canvas px at `density` device px per canvas px
 * (docs/export.md "Density"): the canvas element is `density` times larger and fabric's zoom
 * draws the scene's canvas px onto it, so text and vector shapes are drawn at that density,
 * never scaled up afterwards. At 1× (every 1× render) nothing changes once sized.
 */
function sizeCanvas(width: number, height: number, density: number): void {
  if (canvas.width !== width * density || canvas.height !== height * density) {
    canvas.setDimensions({ width: width * density, height: height * density });
  }
  if (canvas.getZoom() !== density) canvas.setViewportTransform([density, 0, 0, density, 0, 0]);
}

/** Draws a scene on the page's canvas, sized to it at `density`. */
async function drawOnCanvas(scene: ResolvedScene, density = 1): Promise<void> {
  sizeCanvas(scene.width, scene.height, density);
  await drawScene(canvas, scene);
}

/**
 * Reads back only the rectangles where something was drawn (each object's box plus 2 px and its
 * outline, overlapping boxes merged), in device px: the boxes, in canvas px, times `density`.
 */
function readRegions(scene: ResolvedScene, density = 1): DrawnLayer[] {
  const rects = mergeRects(
    canvas.getObjects().map((o) => {
      const r = o.getBoundingRect();
      const pad = 2 + (o.strokeWidth ?? 0);
      return {
        x0: Math.max(0, Math.floor((r.left - pad) * density)),
        y0: Math.max(0, Math.floor((r.top - pad) * density)),
        x1: Math.min(scene.width * density, Math.ceil((r.left + r.width + pad) * density)),
        y1: Math.min(scene.height * density, Math.ceil((r.top + r.height + pad) * density)),
      };
    }),
  ).filter((r) => r.x1 > r.x0 && r.y1 > r.y0);
  return rects
    .map((r) => cropToInk(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0))
    .filter((r) => r !== null);
}

/**
 * Draws, then reads back only the rectangles where something was drawn (`readRegions`), so the
 * hand-off is small and no image encoder runs in the browser (docs/adr/0004-render-slice.md "Render
 * slice"). sharp composes them over the static layer. `ms` reports the page's own stages for
 * the Server-Timing header.
 */
window.picsnippetsRender = async (scene, faces = [], density = 1) => {
  const t0 = performance.now();
  registerFontFaces(faces);
  await loadFonts(scene);
  const t1 = performance.now();
  await drawOnCanvas(scene, density);
  const t2 = performance.now();
  const regions = readRegions(scene, density);
  const t3 = performance.now();
  return { regions, ms: { fonts: t1 - t0, draw: t2 - t1, read: t3 - t2 } };
};

/**
 * Draws each scene in turn (a countdown timer's frames: only the timer's text layers) and hands
 * over each one's drawn regions, in one call (docs/adr/0058-countdown-timers.md "Countdown
 * timers").
 */
window.picsnippetsRenderFrames = async (scenes, faces = []) => {
  registerFontFaces(faces);
  const frames: DrawnLayer[][] = [];
  for (const scene of scenes) {
    await loadFonts(scene);
    await drawOnCanvas(scene);
    frames.push(readRegions(scene));
  }
  canvas.clear();
  return frames;
};

/** The static layer, drawn once per design version; the caller keeps it (renderer.ts). */
window.picsnippetsRenderBase = async (base, density = 1) => {
  sizeCanvas(base.width, base.height, density);
  await drawBaseImage(canvas, base);
  const width = base.width * density;
  const height = base.height * density;
  const pixels = context.getImageData(0, 0, width, height).data;
  canvas.clear();
  return {
    left: 0,
    top: 0,
    width,
    height,
    rgba: toBase64(new Uint8Array(pixels.buffer)),
  };
};

selectDeterministicFilterBackend();
window.picsnippetsReady = true;
