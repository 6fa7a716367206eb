/**
 * The check an SVG passes before sharp (librsvg) rasterises it for a hosted-image or gravatar
 * sticker (docs/security.md "SVG stickers"). The bytes come from a URL anyone can put in a
 * render URL, so the check is linear by construction: a streaming XML parser (saxes, one pass,
 * no backtracking, no namespace look-ups up the element stack), fed in chunks with a yield to
 * the event loop between them and a deadline, so even a 5 MiB hostile file never holds the
 * process for others.
 *
 * Refused:
 * - XML that is not well formed (an unclosed quote or tag, an undeclared entity);
 * - a DOCTYPE (and with it every `<!ENTITY`) and every processing instruction
 *   (`<?xml-stylesheet href=…?>`); the XML declaration itself is fine;
 * - `<script>` and `<foreignObject>` elements (with any prefix);
 * - an `href` attribute (`href`, `xlink:href`, any prefix) that is not an in-document fragment
 *   (`#id`) or a raster data URL (`data:image/png|jpeg|gif|webp…`): a `data:image/svg+xml` could
 *   hide what this check refuses;
 * - in CSS (un-prefixed attribute values, `<style>` contents as a whole): `url(…)` other than
 *   `#id` or a raster data URL, `@import`, and backslashes (a CSS escape can spell `url(` or
 *   `@import`);
 * - more than {@link SVG_LIMITS}`.maxElements` elements or nesting deeper than `maxDepth`.
 *
 * Tests: test/unit/svg-check.test.ts.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { SaxesParser } from 'saxes';

/** Bounds of the check (docs/security.md "SVG stickers"). */
export const SVG_LIMITS = {
  /** Elements in one file: an icon has tens to a few thousand. */
  maxElements: 100_000,
  /** Element nesting: librsvg recurses per level. */
  maxDepth: 256,
  /** UTF-16 code units parsed between two yields to the event loop (≈1–5 ms of work). */
  chunkChars: 64 * 1024,
} as const;

/** Elements that run script or embed another document. */
const REFUSED_ELEMENTS = new Set(['script', 'foreignobject']);

/** Thrown inside parser handlers to stop the parse at the first refusal. */
class Refused extends Error {}

/** The part of a qualified name after its prefix, lower-cased: `xlink:HREF` → `href`. */
const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** `data:image/…` of a raster type: nothing inside it is parsed as a document. */
const isRasterDataUrl = (ref: string): boolean =>
  ref.startsWith('data:image/') && !ref.startsWith('data:image/svg');

/** Whether a reference stays inside the file: `#id` or a raster data URL. */
function isLocalRef(raw: string): boolean {
  const ref = raw.trim().toLowerCase();
  return ref.startsWith('#') || isRasterDataUrl(ref);
}

const CSS_SPACE = new Set([' ', '\t', '\n', '\r', '\f']);

/**
 * Why a piece of CSS (a style attribute, a presentation attribute, a `<style>` text) reaches
 * outside the file, or null. One pass: `url(` positions are found with `indexOf`, and the
 * spaces skipped after one cannot hold the next.
 */
export function cssRefusal(css: string): string | null {
  const text = css.toLowerCase();
  if (text.includes('\\')) return 'a CSS escape';
  if (text.includes('@import')) return 'a CSS @import';
  for (let at = text.indexOf('url('); at >= 0; at = text.indexOf('url(', at + 4)) {
    let i = at + 4;
    while (i < text.length && CSS_SPACE.has(text[i]!)) i++;
    if (text[i] === '"' || text[i] === "'") i++;
    if (!(text.startsWith('#', i) || isRasterDataUrl(text.slice(i, i + 16)))) {
      return 'a CSS url() outside the file';
    }
  }
  return null;
}

/** Options of {@link svgRefusal}. */
export interface SvgCheckOptions {
  /** `performance.now()` time (ms) after which the check gives up and refuses. */
  deadline?: number;
}

/**
 * Why an SVG may not be rasterised, or null when it is self-contained (the rules above).
 * Linear in the file's length; yields to the event loop every
 * {@link SVG_LIMITS}`.chunkChars` code units.
 * @param svg the file decoded as UTF-8.
 * @returns a short reason (for logs; never the file's content), or null.
 */
export async function svgRefusal(
  svg: string,
  options: SvgCheckOptions = {},
): Promise<string | null> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  let depth = 0;
  let elements = 0;
  /** Depth of the open `<style>` element, 0 outside one; its text is gathered whole. */
  let styleDepth = 0;
  let styleText = '';
  const refuse = (reason: string): never => {
    throw new Refused(reason);
  };
  parser.on('error', (error) => refuse(`not well-formed XML (${error.message.split('\n')[0]})`));
  parser.on('doctype', () => refuse('a DOCTYPE'));
  parser.on('processinginstruction', () => refuse('a processing instruction'));
  parser.on('opentagstart', (tag) => {
    elements += 1;
    depth += 1;
    if (elements > SVG_LIMITS.maxElements) refuse(`over ${SVG_LIMITS.maxElements} elements`);
    if (depth > SVG_LIMITS.maxDepth) refuse(`nested over ${SVG_LIMITS.maxDepth} deep`);
    const local = localName(tag.name);
    if (REFUSED_ELEMENTS.has(local)) refuse(`a <${local}> element`);
    if (local === 'style' && styleDepth === 0) {
      styleDepth = depth;
      styleText = '';
    }
  });
  parser.on('attribute', ({ name, value }) => {
    if (localName(name) === 'href') {
      if (!isLocalRef(value)) refuse('an href outside the file');
    } else if (!name.includes(':')) {
      // Prefixed attributes other than href (inkscape:, sodipodi:, xml:) are not CSS.
      const css = cssRefusal(value);
      if (css) refuse(css);
    }
  });
  const styleContent = (text: string) => {
    if (styleDepth > 0) styleText += text;
  };
  parser.on('text', styleContent);
  parser.on('cdata', styleContent);
  parser.on('closetag', () => {
    if (depth === styleDepth) {
      styleDepth = 0;
      const css = cssRefusal(styleText);
      styleText = '';
      if (css) refuse(css);
    }
    depth -= 1;
  });
  try {
    for (let at = 0; at < svg.length; at += SVG_LIMITS.chunkChars) {
      parser.write(svg.slice(at, at + SVG_LIMITS.chunkChars));
      if (options.deadline !== undefined && performance.now() > options.deadline) {
        return 'over the time budget';
      }
      await yieldToLoop();
    }
    parser.close();
    return null;
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
}
