/**
 * `GET /api/docs`: the developer API's reference page (docs/developer-api.md "The reference"). A
 * static HTML page that loads the Scalar API reference viewer (`@scalar/api-reference`'s standalone
 * bundle, kept as the SPA's static file {@link VIEWER_SCRIPT_PATH}, copied from the installed
 * package by infra/tools/copy-api-viewer.ts; test/unit/openapi.test.ts checks the copy matches)
 * and points it at `GET /api/openapi.json` by data attributes, so the page has no inline script.
 *
 * Its Content-Security-Policy ({@link DOCS_CONTENT_SECURITY_POLICY}) replaces the API's
 * `default-src 'none'` on this answer only: scripts from the origin only, inline styles (the
 * viewer injects its stylesheet), calls to the origin only (the document and "try it"), no
 * frames, forms or base changes. The viewer's own web fonts (a third-party host) are turned off.
 */

/** Where the SPA build serves the viewer (web/public/vendor/…, copied to dist/web). */
export const VIEWER_SCRIPT_PATH = '/vendor/scalar-api-reference.js';

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

/**
 * The viewer's configuration (Scalar's `data-configuration`): no third-party fonts, and none of
 * Scalar's hosted services (its AI agent, MCP generation, the developer toolbar with sharing and
 * deploying), which would send the document elsewhere and which the CSP refuses anyway.
 */
const VIEWER_CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  showToolbar: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  metaData: { title: 'PicSnippets API reference' },
});

/** Escapes a value for a double-quoted HTML attribute. */
const attribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page's HTML: fixed, nothing from the request. */
export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>PicSnippets API reference</title>
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The document itself is at <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
    <script id="api-reference" data-url="${DOCUMENT_PATH}" data-configuration="${attribute(VIEWER_CONFIGURATION)}"></script>
    <script src="${VIEWER_SCRIPT_PATH}"></script>
  </body>
</html>
`;
