/**
 * Copies the API reference viewer (`@scalar/api-reference`'s standalone browser bundle) from the
 * installed package to web/public/vendor/scalar-api-reference.js, which the SPA serves and
 * `GET /api/docs` loads (functions/system/docs-page.ts). The SPA's Vite config does it before
 * every build and dev start (web/vite.config.ts `apiViewer`), so the file is never kept in git;
 * by hand: `npx tsx infra/tools/copy-api-viewer.ts`. test/unit/openapi.test.ts fails while the
 * copy and the installed package differ. The copy starts with a line that keeps the linter out of it
 * ({@link VIEWER_HEADER}); the rest is the package's file, byte for byte.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The package's bundle: `dist/browser/standalone.js` beside its entry (`dist/index.js`). */
export const VIEWER_SOURCE = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser',
  'standalone.js',
);

/** The kept copy, served by the SPA build as `/vendor/scalar-api-reference.js`. */
export const VIEWER_COPY = join(ROOT, 'web', 'public', 'vendor', 'scalar-api-reference.js');

/** The first line of the copy: it is a vendor file, not the project's code. */
export const VIEWER_HEADER =
  '/* eslint-disable */ /* @scalar/api-reference standalone bundle, MIT; copied by infra/tools/copy-api-viewer.ts */\n';

/** The copy's expected content. */
export const viewerCopyContent = (): string => VIEWER_HEADER + readFileSync(VIEWER_SOURCE, 'utf8');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(dirname(VIEWER_COPY), { recursive: true });
  writeFileSync(VIEWER_COPY, viewerCopyContent());
  console.log(`Wrote ${VIEWER_COPY}`);
}
