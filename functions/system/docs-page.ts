/**
 * `GET /api/docs`: the developer API's reference page (docs/developer-api.md "The reference"). A
 * static HTML page that loads Swagger UI (`swagger-ui-dist`'s prebuilt bundle and stylesheet,
 * kept as the SPA's static files under {@link VIEWER_DIR_PATH}, written from the installed
 * package by infra/tools/copy-api-viewer.ts; test/unit/openapi.test.ts checks the copies match)
 * and its start script, which reads the document's path from the page's `data-url`, so the page
 * has no inline script.
 *
 * Its Content-Security-Policy ({@link DOCS_CONTENT_SECURITY_POLICY}) replaces the API's
 * `default-src 'none'` on this answer only: scripts from the origin only, inline styles (the
 * viewer sets style attributes), calls to the origin only (the document), no frames, forms or
 * base changes. The viewer's validator badge, which would send the document to another host, is
 * off.
 */

/** Where the SPA build serves the viewer's files (web/public/vendor/swagger-ui/, copied to dist/web). */
export const VIEWER_DIR_PATH = '/vendor/swagger-ui';

/** The scripts the page loads, in order: the viewer, then its start script. */
export const VIEWER_SCRIPT_PATHS = [
  `${VIEWER_DIR_PATH}/swagger-ui-bundle.js`,
  `${VIEWER_DIR_PATH}/start.js`,
] as const;

/** Where the page loads the document from. */
export const DOCUMENT_PATH = '/api/openapi.json';

/** The page's policy (see the module comment). */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page's HTML: fixed, nothing from the request. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>PicSnippets API reference</title>
    <link rel="stylesheet" href="${VIEWER_DIR_PATH}/swagger-ui.css" />
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The document itself is at <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
    <div id="api-reference" data-url="${DOCUMENT_PATH}"></div>
${VIEWER_SCRIPT_PATHS.map((path) => `    <script src="${path}"></script>`).join('\n')}
  </body>
</html>
`;
