/**
 * Render URL parsing, shared by the render service and the export screen (docs/export.md "What
 * Generate writes"; docs/adr/0004-render-slice.md "Render slice"):
 * `/r/{publicId}[/{cacheId}][/pdf]` with an optional density (`@2x`, `@3x`; docs/export.md
 * "Density") and an optional `.jpg`, `.jpeg`, `.png`, `.pdf`, `.gif`, `.webp` or `.avif` extension
 * on the last segment, then the query string. WebP and AVIF are for web pages and video players
 * (docs/export.md "Image formats"), named by the extension only, never chosen from an `Accept`
 * header.
 */

export type RenderFormat = 'jpeg' | 'png' | 'pdf' | 'webp' | 'avif';

/** Pixel densities a render URL may ask for (docs/export.md "Density"): 1× is the canvas size. */
export const RENDER_DENSITIES = [1, 2, 3] as const;
export type RenderDensity = (typeof RENDER_DENSITIES)[number];

export interface RenderPath {
  publicId: string;
  cacheId?: string;
  /** From the `/pdf` segment or an extension; undefined = the design's default (JPEG). */
  format?: RenderFormat;
  /**
   * From `@2x` or `@3x` at the end of the last segment, before the extension (docs/export.md
   * "Density"); absent for 1× (`@1x` reads as 1× too, and is left out).
   */
  density?: 2 | 3;
}

/** `{segment}@{n}x`: the density suffix of a path segment. */
const DENSITY_SUFFIX = /^([^@]+)@([123])x$/;

const EXTENSIONS: Record<string, RenderFormat> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  pdf: 'pdf',
  webp: 'webp',
  avif: 'avif',
};

/** Parses a render path; `undefined` when it is not one (wrong prefix, empty or odd segments). */
export function parseRenderPath(path: string): RenderPath | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  if (segments[0] !== 'r' || segments.length < 2 || segments.length > 4) return undefined;
  const rest = segments.slice(1);
  let format: RenderFormat | undefined;
  const last = rest[rest.length - 1]!;
  const ext = /^(.+)\.(jpe?g|png|pdf|gif|webp|avif)$/i.exec(last);
  if (ext) {
    rest[rest.length - 1] = ext[1]!;
    // `.gif` names a countdown design's animated GIF, which is its default format already
    // (docs/adr/0058-countdown-timers.md "Countdown timers"); a design without a timer draws its
    // own default.
    format = EXTENSIONS[ext[2]!.toLowerCase()];
  }
  let density: RenderDensity = 1;
  const dense = DENSITY_SUFFIX.exec(rest[rest.length - 1]!);
  if (dense) {
    rest[rest.length - 1] = dense[1]!;
    density = Number(dense[2]) as RenderDensity;
  }
  if (rest[rest.length - 1] === 'pdf' && rest.length > 1) {
    rest.pop();
    format = 'pdf';
  }
  if (rest.length > 2) return undefined;
  const [publicId, cacheId] = rest;
  if (!publicId || !/^[A-Za-z0-9_-]{1,64}$/.test(publicId)) return undefined;
  if (cacheId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(cacheId)) return undefined;
  return {
    publicId,
    ...(cacheId ? { cacheId } : {}),
    ...(format ? { format } : {}),
    ...(density !== 1 ? { density } : {}),
  };
}

/**
 * A render path with the density asked for (docs/export.md "Density"): `@2x` or `@3x` put
 * before the extension of the last segment (`/r/k3f9a2/v7.jpg` → `/r/k3f9a2/v7@2x.jpg`), or at
 * its end without one; the `/pdf` segment form becomes the `.pdf` extension
 * (`/r/k3f9a2/v7/pdf` → `/r/k3f9a2/v7@2x.pdf`). A query string is kept. 1× gives the path
 * unchanged; so does a path that already names a density.
 */
export function densePath(path: string, density: RenderDensity): string {
  if (density === 1) return path;
  const q = path.indexOf('?');
  let bare = q < 0 ? path : path.slice(0, q);
  const query = q < 0 ? '' : path.slice(q);
  if (/@[123]x(?:\.\w+)?$/.test(bare)) return path;
  let ext = '';
  if (bare.endsWith('/pdf')) {
    bare = bare.slice(0, -'/pdf'.length);
    ext = '.pdf';
  } else {
    const slash = bare.lastIndexOf('/');
    const dot = bare.lastIndexOf('.');
    if (dot > slash) {
      ext = bare.slice(dot);
      bare = bare.slice(0, dot);
    }
  }
  return `${bare}@${density}x${ext}${query}`;
}

/**
 * The render path for a design and its parameter values, as the SPA hands it out, e.g.
 * `renderPath('demo-welcome.jpg', { first_name: 'Zoë' })` →
 * `/r/demo-welcome.jpg?first_name=Zo%C3%AB`. Keys and values are percent-encoded (a space is `%20`,
 * never `+`), in the order given, so {@link parseRenderPath} and {@link parseRenderQuery} read back
 * what was built (test/unit/render-url.test.ts).
 * @param publicId the design's public id, with an extension for a format (`.png`, `.pdf`).
 */
export function renderPath(publicId: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return `/r/${encodeURIComponent(publicId)}${query ? `?${query}` : ''}`;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Decodes one query component tolerantly: `+` is a space; a bad `%` escape stays literal. */
export function decodeComponent(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * Parses a raw query string as e-mail platforms send it (test/unit/render-url.test.ts): `+` may
 * stand for a space, a stray `&` inside a value splits it (a segment without `=` is glued back onto
 * the previous value), malformed escapes never throw. Later duplicates win, as in most platforms.
 * @param known the design's parameter names: a bare segment that is one of them (decoded,
 *   trimmed) is that parameter with an empty value, not part of the previous value; the CDN
 *   writes an empty value that way (docs/adr/0054-signed-render-urls.md "Signed render URLs").
 */
export function parseRenderQuery(
  rawQuery: string,
  known: ReadonlySet<string> = NO_NAMES,
): Record<string, string> {
  // No prototype: a parameter named `__proto__` is just a name.
  const out = Object.create(null) as Record<string, string>;
  let previous: string | undefined;
  for (const segment of rawQuery.replace(/^\?/, '').split('&')) {
    const eq = segment.indexOf('=');
    const bare = eq < 0 && known.size > 0 ? decodeComponent(segment).trim() : '';
    if (bare !== '' && known.has(bare)) {
      out[bare] = '';
      previous = bare;
      continue;
    }
    if (eq <= 0) {
      if (previous !== undefined && segment !== '' && eq !== 0)
        out[previous] += `&${decodeComponent(segment)}`;
      continue;
    }
    const name = decodeComponent(segment.slice(0, eq)).trim();
    if (name === '') continue;
    out[name] = decodeComponent(segment.slice(eq + 1));
    previous = name;
  }
  return out;
}
