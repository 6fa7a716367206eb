/**
 * Puts the API reference viewer (Swagger UI, from `swagger-ui-dist`: a prebuilt bundle with no
 * dependency tree of its own) into web/public/vendor/swagger-ui/, which the SPA serves and
 * `GET /api/docs` loads (functions/system/docs-page.ts): the package's bundle and stylesheet,
 * each after a first line that keeps the linter out of it, byte for byte otherwise, and the
 * page's start script ({@link VIEWER_START_SCRIPT}), which reads the document's URL from the
 * page's data attribute so the page has no inline script. The SPA's Vite config writes them
 * before every build and dev start (web/vite.config.ts `apiViewer`), so the files are never
 * kept in git; by hand: `npx tsx infra/tools/copy-api-viewer.ts`. test/unit/openapi.test.ts
 * fails while the copies and the installed package differ (docs/developer-api.md "The
 * reference").
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The installed package's folder. */
const PACKAGE_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The folder the SPA serves as `/vendor/swagger-ui/`. */
export const VIEWER_DIR = join(ROOT, 'web', 'public', 'vendor', 'swagger-ui');

/** The viewer's configuration, read by {@link VIEWER_START_SCRIPT}: nothing sent elsewhere. */
const VIEWER_OPTIONS = {
  dom_id: '#api-reference',
  deepLinking: true,
  // Swagger UI would send the document to validator.swagger.io for its badge.
  validatorUrl: null,
  // The reference is for reading; a token is pasted into a program, not into this page.
  supportedSubmitMethods: [],
  docExpansion: 'list',
  // 119 operations in 16 groups: a box that keeps the groups whose name holds what is typed.
  filter: true,
  defaultModelsExpandDepth: 0,
  displayOperationId: false,
  tryItOutEnabled: false,
};

/**
 * The page's start script: starts Swagger UI on `#api-reference` with the document named by
 * that element's `data-url` (a same-origin path).
 */
export const VIEWER_START_SCRIPT = `/* Starts the API reference viewer; written by infra/tools/copy-api-viewer.ts. */
(function () {
  var root = document.getElementById('api-reference');
  var options = ${JSON.stringify(VIEWER_OPTIONS)};
  options.url = root.getAttribute('data-url');
  window.ui = window.SwaggerUIBundle(options);
})();
`;

/** A vendor file's first line. */
const vendorHeader = (file: string, comment: string): string =>
  file.endsWith('.css')
    ? `/* swagger-ui-dist ${file}, Apache-2.0; copied by infra/tools/copy-api-viewer.ts */\n`
    : `/* eslint-disable */ /* ${comment}; copied by infra/tools/copy-api-viewer.ts */\n`;

/** Each file of {@link VIEWER_DIR} (name → expected content). */
export function viewerFiles(): Record<string, string> {
  const vendor = (file: string) =>
    vendorHeader(file, `swagger-ui-dist ${file}, Apache-2.0`) +
    readFileSync(join(PACKAGE_DIR, file), 'utf8');
  return {
    'swagger-ui-bundle.js': vendor('swagger-ui-bundle.js'),
    'swagger-ui.css': vendor('swagger-ui.css'),
    'start.js': `/* eslint-disable */\n${VIEWER_START_SCRIPT}`,
  };
}

/** Writes the files of {@link VIEWER_DIR} that are missing or differ; returns the names written. */
export function writeViewerFiles(): string[] {
  mkdirSync(VIEWER_DIR, { recursive: true });
  const written: string[] = [];
  for (const [name, content] of Object.entries(viewerFiles())) {
    const path = join(VIEWER_DIR, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
    writeFileSync(path, content);
    written.push(name);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = writeViewerFiles();
  console.log(written.length > 0 ? `Wrote ${written.join(', ')} in ${VIEWER_DIR}` : 'Up to date');
}
