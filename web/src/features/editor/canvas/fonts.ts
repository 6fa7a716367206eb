/**
 * The font faces the editor draws with: the same fallback stack the render page ships
 * (shared/scene/fonts.ts `FALLBACK_STACK`), from the same generated `@font-face` rules
 * (shared/fonts/stack/*.css, shared/fonts/generate-stack.ts) and files, so the canvas measures
 * and wraps text as the render URL does. The rules use `unicode-range`, so the browser
 * downloads only the subsets a text needs. `base.css` (every family but the CJK ones, 5 kB
 * gzip) comes with the editor page; a CJK family's rules (35–63 kB gzip each) are imported
 * when a text first needs that family (canvas/textFonts.ts `loadCjkFaces`).
 * Imported by the editor page only (the route is loaded on demand).
 *
 * The built-in fonts (Journal, …), the hosted families and the team's uploads are registered
 * family by family when a text snippet uses one (`loadFont`, through canvas/textFonts.ts), with
 * the render page's own `@font-face` rules. Their catalogue is a chunk of its own: its import
 * starts here, as the editor's chunk runs, so it overlaps the design request.
 */
import '#shared/fonts/stack/base.css';
import { loadCatalogue } from '../../fonts/loadFont.ts';

loadCatalogue().catch((error: unknown) => console.error('the font catalogue did not load', error));
