/**
 * Fonts of a render (docs/fonts.md; docs/adr/0004-render-slice.md "Render slice": "fonts through
 * @font-face", docs/adr/0004-render-slice.md "Render slice", docs/security.md "Sessions and tokens"
 * SSRF rules): which `@font-face` rules a scene's text layers need beyond the ones the warm page
 * registered at start (built-in and hosted families, shared/fonts/catalogue.ts
 * `alwaysAvailableFaces`), and the bytes behind every font URL the page may ask for.
 *
 * The page fetches fonts only from its own origin (browser.ts intercepts every request):
 * - `/files/fonts/hosted/…` and `/files/fonts/custom/…`: objects of the assets bucket under
 *   `files/fonts/`, nothing else of the bucket;
 * - `/cdn-fonts/{id}/{file}`: a fontsource CDN file, fetched by this process from the
 *   configured `FONT_CDN_URL` only, for an id and file name of a fixed shape, through the SSRF
 *   guard (3 s, 8 MB).
 * Bytes are kept in memory (up to 64 MB), so a warm container reads each file once.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import { urlGuard } from '#lib/ssrf.ts';
import { resolveFont } from '#shared/fonts/catalogue.ts';
import type { CustomFont, FontFaceRule } from '#shared/fonts/types.ts';
import { codePointLabel } from '#shared/scene/glyphs.ts';
import type { ResolvedScene } from '#shared/scene/resolve.ts';
import { trimEndChar } from '#shared/strings.ts';

/** How long a team's uploaded-font list is reused, ms. */
const TEAM_FONTS_TTL_MS = 60_000;
/**
 * How long a list without the asked family is trusted, ms: a font uploaded a moment ago (in
 * another Lambda) draws within seconds, and a design naming an unknown family costs at most
 * one read per team in this time.
 */
const TEAM_FONTS_MISS_MS = 3_000;
/** Largest font file the page is given, bytes (uploads are capped at 5 MB). */
const MAX_FONT_FILE_BYTES = 8 * 1024 * 1024;
/** Memory kept for font bytes, bytes. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
/** Time allowed for a CDN font file, ms. */
const CDN_TIMEOUT_MS = 3000;

/** The uploaded fonts of a team (functions/fonts/store.ts in production; injectable in tests). */
export type TeamFontsSource = (teamId: string) => Promise<CustomFont[]>;

const teamFonts = new Map<string, { at: number; fonts: Promise<CustomFont[]> }>();

/** The team's uploaded fonts, read again when stale or when `family` is missing for a while. */
async function cachedTeamFonts(
  teamId: string,
  family: string,
  source: TeamFontsSource,
): Promise<CustomFont[]> {
  const hit = teamFonts.get(teamId);
  if (hit) {
    const age = Date.now() - hit.at;
    const fonts = await hit.fonts;
    const has = fonts.some((f) => f.family.toLowerCase() === family.toLowerCase());
    if (age < (has ? TEAM_FONTS_TTL_MS : TEAM_FONTS_MISS_MS)) return fonts;
  }
  const fonts = source(teamId).catch((error: unknown) => {
    logger.warn('team fonts could not be read', { teamId, error: error as Error });
    teamFonts.delete(teamId);
    return [];
  });
  if (teamFonts.size > 5000) teamFonts.clear();
  teamFonts.set(teamId, { at: Date.now(), fonts });
  return fonts;
}

/**
 * The families among `families` that are the team's uploaded fonts (compared lower-case): the
 * "never tofu" rule leaves their text whole, since what an upload draws is not known here
 * (docs/fonts.md "Never tofu"). Known families (built-in, bundled, hosted) read no list.
 * @returns lower-case family names.
 */
export async function uploadedFamilies(
  families: Iterable<string>,
  teamId: string | undefined,
  source: TeamFontsSource,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (!teamId) return out;
  for (const family of new Set(families)) {
    if (resolveFont(family).source !== 'fallback') continue;
    const custom = await cachedTeamFonts(teamId, family, source);
    if (custom.some((f) => f.family.toLowerCase() === family.trim().toLowerCase())) {
      out.add(family.trim().toLowerCase());
    }
  }
  return out;
}

/** Designs whose left-out characters were logged, with those code points (bounded). */
const loggedUndrawable = new Map<string, Set<number>>();
const MAX_LOGGED_DESIGNS = 2000;

/**
 * Logs the code points a render of `designId` left out because no shipped face draws them
 * (docs/fonts.md "Never tofu"): each once per design in this container, so a mailing of
 * thousands of recipients with one such character logs one line.
 * @returns the code points logged now (those not logged before for the design).
 */
export function logUndrawable(designId: string, codes: Iterable<number>): number[] {
  let seen = loggedUndrawable.get(designId);
  if (!seen) {
    if (loggedUndrawable.size >= MAX_LOGGED_DESIGNS) loggedUndrawable.clear();
    seen = new Set();
    loggedUndrawable.set(designId, seen);
  }
  const fresh = [...new Set(codes)].filter((code) => !seen.has(code)).slice(0, 64);
  if (fresh.length === 0) return fresh;
  for (const code of fresh) seen.add(code);
  logger.warn('characters no shipped font draws were left out of the text', {
    designId,
    codePoints: fresh.map(codePointLabel),
  });
  return fresh;
}

/**
 * The family an uploaded font is registered under in the shared warm page: the team's id
 * hashed in front of the name, so two teams' fonts of one name never meet.
 */
export const customFaceFamily = (teamId: string, family: string): string =>
  `t${createHash('sha256').update(teamId).digest('hex').slice(0, 12)} ${family}`;

/** The page-side URL of a CDN face: `/cdn-fonts/{id}/{subset}-{weight}-{style}.woff2`. */
function cdnPath(url: string): string {
  const match = /\/([a-z0-9-]+)@latest\/([a-z0-9-]+\.woff2)$/.exec(url);
  return match ? `/cdn-fonts/${match[1]}/${match[2]}` : url;
}

/**
 * The faces a scene needs beyond the always-registered ones, and the scene with uploaded
 * families renamed to their per-team face family. Known families (built-in, bundled, hosted)
 * cost nothing here; the team's font list is read only for a family not known otherwise.
 * @param teamId the design's team; without it uploaded fonts are not looked up.
 */
export async function sceneFonts(
  scene: ResolvedScene,
  teamId: string | undefined,
  source: TeamFontsSource,
): Promise<{ scene: ResolvedScene; faces: FontFaceRule[] }> {
  const cdnUrl = config().FONT_CDN_URL;
  const faces: FontFaceRule[] = [];
  const renamed = new Map<string, string>();
  for (const family of new Set(scene.texts.map((t) => t.fontFamily))) {
    if (resolveFont(family).source !== 'fallback') continue; // registered at page start
    const custom = teamId ? await cachedTeamFonts(teamId, family, source) : [];
    const resolved = resolveFont(family, { custom, cdnUrl });
    if (resolved.source === 'custom' && teamId) {
      const as = customFaceFamily(teamId, resolved.family);
      renamed.set(family, as);
      faces.push(...resolved.faces.map((f) => ({ ...f, family: as })));
    } else if (resolved.source === 'cdn') {
      faces.push(...resolved.faces.map((f) => ({ ...f, url: cdnPath(f.url) })));
    }
  }
  if (renamed.size === 0) return { scene, faces };
  return {
    scene: {
      ...scene,
      texts: scene.texts.map((t) =>
        renamed.has(t.fontFamily) ? { ...t, fontFamily: renamed.get(t.fontFamily)! } : t,
      ),
    },
    faces,
  };
}

const bytesCache = new Map<string, Promise<Buffer | undefined>>();
let cachedBytes = 0;

function remember(
  key: string,
  load: () => Promise<Buffer | undefined>,
): Promise<Buffer | undefined> {
  let hit = bytesCache.get(key);
  if (!hit) {
    hit = load().then(
      (bytes) => {
        if (!bytes) bytesCache.delete(key);
        else {
          cachedBytes += bytes.length;
          if (cachedBytes > MAX_CACHED_BYTES) {
            bytesCache.clear();
            cachedBytes = 0;
          }
        }
        return bytes;
      },
      (error: unknown) => {
        bytesCache.delete(key);
        logger.warn('font file could not be read', { key, error: error as Error });
        return undefined;
      },
    );
    bytesCache.set(key, hit);
  }
  return hit;
}

async function fromBucket(key: string): Promise<Buffer | undefined> {
  try {
    const object = await s3Client().send(
      new GetObjectCommand({ Bucket: config().ASSETS_BUCKET, Key: key }),
    );
    if ((object.ContentLength ?? 0) > MAX_FONT_FILE_BYTES) return undefined;
    return Buffer.from(await object.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/**
 * A CDN font file, through the SSRF guard like every fetch of the render function
 * (docs/adr/0004-render-slice.md "Render slice"): the
 * base is configuration, but the id comes from a design, so the address is still checked, redirects
 * are checked afresh, and time and bytes are capped.
 * @throws UrlRefused when the guard refuses (logged and answered as missing by `remember`).
 */
async function fromCdn(id: string, file: string): Promise<Buffer | undefined> {
  const base = config().FONT_CDN_URL;
  if (!base) return undefined;
  const res = await urlGuard.fetch(`${trimEndChar(base, '/')}/${id}@latest/${file}`, {
    timeoutMs: CDN_TIMEOUT_MS,
    maxBytes: MAX_FONT_FILE_BYTES,
    accept: 'font/woff2',
  });
  return res.status === 200 ? res.body : undefined;
}

/**
 * The bytes behind a font path the render page asked for, or undefined when the path is not a
 * font path (the caller answers 404) or the file does not exist.
 * @param pathname the request's decoded path on the page's origin.
 */
export function fontFile(pathname: string): Promise<Buffer | undefined> | undefined {
  const bucket = /^\/(files\/fonts\/(?:hosted|custom)\/[A-Za-z0-9._@-]+\/[A-Za-z0-9._-]+)$/.exec(
    pathname,
  );
  if (bucket && !bucket[1]!.includes('..')) {
    return remember(bucket[1]!, () => fromBucket(bucket[1]!));
  }
  const cdn = /^\/cdn-fonts\/([a-z0-9-]{1,80})\/((?:latin|latin-ext)-400-normal\.woff2)$/.exec(
    pathname,
  );
  if (cdn) return remember(`cdn:${cdn[1]}/${cdn[2]}`, () => fromCdn(cdn[1]!, cdn[2]!));
  return undefined;
}
