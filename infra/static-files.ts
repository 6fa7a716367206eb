/**
 * How the built SPA's files are served: their content types and caching, shared by the local
 * gateway (infra/local/gateway.ts) and the deploy's upload (infra/deploy/upload-web.ts), so the
 * local stack and AWS serve the same headers.
 */

/** Content type by file extension; anything else is `application/octet-stream`. */
export const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * The Cache-Control of a built file: Vite's hashed `assets/…` files never change under their
 * name (a year, immutable); everything else (index.html, favicon) is revalidated on each load.
 * @param key the path inside the build, without a leading `/` (`assets/index-3f2a.js`).
 */
export function staticCacheControl(key: string): string {
  return key.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}
